import Synchronization

/// What a test waits for: items recorded by another thread (the server's loop), waited for by
/// count, each wait bounded by a guard against a hang that a slow machine never reaches.
final class Recorder<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var waiters: [Int: (count: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]
        var nextWaiter = 0
    }
    private let state = Mutex(State())

    /// Records `item`, and wakes the waits it satisfies.
    func record(_ item: Element) {
        let satisfied = state.withLock { state in
            state.items.append(item)
            let ready = state.waiters.filter { $0.value.count <= state.items.count }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in satisfied { continuation.resume(returning: true) }
    }

    /// Everything recorded so far.
    var items: [Element] { state.withLock { $0.items } }

    /// Waits until `count` items are recorded; `false` if `seconds` passed first.
    func wait(count: Int, seconds: Double = 30) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            guard !Task.isCancelled else { return }
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.items.count >= count { return true }
                state.waiters[id] = (count, continuation)
                return false
            }
            if now { continuation.resume(returning: true) }
        }
    }

    /// The item at `index`, once recorded; `nil` if `seconds` passed first.
    func item(_ index: Int, seconds: Double = 30) async -> Element? {
        guard await wait(count: index + 1, seconds: seconds) else { return nil }
        return items[index]
    }
}
