// A clock that moves only when a test moves it. Hand-written rather than swift-clocks' TestClock:
// a test here must know that the code under test is asleep on the clock before moving it, and
// TestClock can only yield and hope (`Task.megaYield`), which a loaded 2-core machine defeats.
import Synchronization

/// A `Clock` whose time passes only through ``advance(by:)``. Time limits, watchdogs and script
/// waits given this clock fire exactly when a test says, whatever the machine's speed.
public final class ManualClock: Clock, Sendable {
    /// A point on the manual clock: the time advanced since it was made.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        var id: Int
        var condition: @Sendable (_ sleepsBegun: Int, _ sleepers: Int) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
        /// Every sleep begun, ended or not.
        var sleeps = 0
        var watchers: [Watcher] = []
    }

    private let state = Mutex(State())

    /// A clock at zero with no one asleep on it.
    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many sleeps have begun on this clock, ended or not.
    public var sleepsBegun: Int { state.withLock { $0.sleeps } }

    /// How many sleepers wait on this clock now.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: [CheckedContinuation<Void, Never>]? = state.withLock { s in
                    s.sleeps += 1
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return Self.takeSatisfied(&s)
                    }
                    if deadline <= s.now {
                        continuation.resume()
                        return Self.takeSatisfied(&s)
                    }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return Self.takeSatisfied(&s)
                }
                for watcher in ready ?? [] { watcher.resume() }
            }
        } onCancel: {
            let (sleeper, ready): (Sleeper?, [CheckedContinuation<Void, Never>]) = state.withLock { s in
                guard let index = s.sleepers.firstIndex(where: { $0.id == id }) else { return (nil, []) }
                let sleeper = s.sleepers.remove(at: index)
                return (sleeper, Self.takeSatisfied(&s))
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            for watcher in ready { watcher.resume() }
        }
    }

    /// Moves the clock on by `duration` and wakes, in deadline order, every sleeper whose deadline
    /// has come.
    public func advance(by duration: Duration) {
        let (due, ready): ([Sleeper], [CheckedContinuation<Void, Never>]) = state.withLock { s in
            s.now = s.now.advanced(by: duration)
            let now = s.now
            let due = s.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            s.sleepers.removeAll { $0.deadline <= now }
            return (due, Self.takeSatisfied(&s))
        }
        for sleeper in due { sleeper.continuation.resume() }
        for watcher in ready { watcher.resume() }
    }

    /// Returns once at least `count` sleepers wait on the clock: the code under test has reached
    /// its time limits and waits, and moving the clock now acts on them.
    public func waitForSleepers(_ count: Int) async {
        await wait { _, sleepers in sleepers >= count }
    }

    /// Returns once `condition` holds of how many sleeps have begun and how many sleepers wait
    /// now; it is checked now and after every change, under the clock's lock (no change is missed).
    /// Cancelling the waiting task ends the wait (so a test's time limit ends a test whose code
    /// never went to sleep).
    public func wait(until condition: @escaping @Sendable (_ sleepsBegun: Int, _ sleepers: Int) -> Bool) async {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now: Bool = state.withLock { s in
                    if Task.isCancelled || condition(s.sleeps, s.sleepers.count) { return true }
                    s.watchers.append(Watcher(id: id, condition: condition, continuation: continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let watcher: Watcher? = state.withLock { s in
                guard let index = s.watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return s.watchers.remove(at: index)
            }
            watcher?.continuation.resume()
        }
    }

    private static func takeSatisfied(_ s: inout State) -> [CheckedContinuation<Void, Never>] {
        let (begun, count) = (s.sleeps, s.sleepers.count)
        let ready = s.watchers.filter { $0.condition(begun, count) }.map(\.continuation)
        s.watchers.removeAll { $0.condition(begun, count) }
        return ready
    }
}
