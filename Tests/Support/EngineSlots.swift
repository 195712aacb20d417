/// Limits how many libmpv engines parallel tests run at once, so that a 2-core machine keeps up
/// with real-time output.
@MainActor
public final class EngineSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// A limiter letting `free` engines run at once.
    public init(free: Int) { self.free = free }

    /// Waits for a free slot and takes it.
    public func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives the slot back, to the longest waiter if there is one.
    public func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
