@testable import NotiplayPlayback
import NotiplaySystem
import Synchronization
import SystemPackage

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A pacing clock for a ``PacedCapture``'s reader that moves only when the test moves it.
///
/// The reader waits on its own descriptors and on this clock's wakeup pipe, never on a timeout:
/// ``advance(by:)`` wakes it. A test then waits for the reader to finish its turn at the new time
/// (``caughtUp()``: it has read all it is allowed and waits for the clock; ``turnTaken()``: it
/// waits for anything), so that what it heard is exact, however slow the machine.
final class VirtualPacingClock: PacingClock, @unchecked Sendable {
    private struct Watcher {
        var id: Int
        var onClockOnly: Bool
        /// Resumed with `true` when the reader waits as watched for, `false` at the hang guard.
        var continuation: CheckedContinuation<Bool, Never>
    }

    /// The reader did not come to wait within the hang guard.
    struct ReaderDidNotWait: Error, CustomStringConvertible {
        var description: String
    }

    /// How long a test waits for the reader before failing: a hang guard, not a verdict (a
    /// reader that paces itself waits for the clock within microseconds of its turn).
    static let hangGuard: Duration = .seconds(20)

    private struct State {
        var now: Int64 = 0
        /// The reader waits, having begun its turn at `now`; `onClock`: with a deadline, not for data.
        var waiting: (began: Int64, onClock: Bool)?
        var watchers: [Watcher] = []
        var nextWatcher = 0
    }

    private let state = Mutex(State())
    // `@unchecked Sendable`: set once in `init`, closed in `deinit`.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0, "cannot make the clock's wakeup pipe")
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    func now() -> Int64 { state.withLock { $0.now } }

    /// The virtual time, in seconds.
    var seconds: Double { Double(now()) / 1e9 }

    func wait(_ fds: inout [Posix.PollEntry], until deadline: Int64?, turnBegan: Int64) {
        let ready: [Watcher]? = state.withLock { s in
            // The clock moved during the turn, or the deadline has come: take another turn.
            guard s.now == turnBegan, deadline.map({ $0 > s.now }) ?? true else { return nil }
            s.waiting = (turnBegan, deadline != nil)
            return Self.takeSatisfied(&s)
        }
        guard let ready else { return }
        for watcher in ready { watcher.continuation.resume(returning: true) }
        var all = fds + [Posix.PollEntry(file: FileDescriptor(rawValue: wakeRead), events: .readable)]
        _ = try? Posix.poll(&all, timeout: nil)
        state.withLock { $0.waiting = nil }
        if !all[all.count - 1].found.isEmpty {
            var buffer = (UInt64(0), UInt64(0))
            _ = withUnsafeMutableBytes(of: &buffer) { read(wakeRead, $0.baseAddress, $0.count) }
        }
        for i in fds.indices { fds[i].found = all[i].found }
    }

    /// Moves the clock on by `seconds` (more than zero) and wakes the reader.
    func advance(by seconds: Double) {
        let nanoseconds = Int64((seconds * 1e9).rounded())
        precondition(nanoseconds > 0, "advance by more than nothing")
        state.withLock { $0.now += nanoseconds }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Returns once the reader, at the clock's present time, has read all it is allowed and waits
    /// for the clock. (While the pipe is dry it waits for data instead: this waits on until the
    /// writer has written enough.)
    func caughtUp() async throws {
        guard await watch(onClockOnly: true) else {
            throw ReaderDidNotWait(description: "at \(seconds) s the reader never came to wait for the clock: it reads without pacing, or waits for data that does not come")
        }
    }

    /// Returns once the reader has taken a turn at the clock's present time and waits, for the
    /// clock or for data.
    func turnTaken() async throws {
        guard await watch(onClockOnly: false) else {
            throw ReaderDidNotWait(description: "at \(seconds) s the reader took no turn")
        }
    }

    /// Moves the clock on by a nanosecond (less than a byte of audio) and waits for the reader's
    /// turn: it has then read whatever was in the pipe, as far as the clock allows.
    func settle() async throws {
        advance(by: 1e-9)
        try await turnTaken()
    }

    /// Waits until the reader waits for the clock (so that the time to come is not a gap in the
    /// audio, which earns no credit), advances by `seconds`, then waits until it has caught up.
    func play(_ seconds: Double) async throws {
        try await caughtUp()
        advance(by: seconds)
        try await caughtUp()
    }

    /// Lets the audio play out: once the reader waits for the clock, moves it on by an hour, so
    /// that the reader reads whatever comes as soon as it comes.
    func playOut() async throws {
        try await caughtUp()
        advance(by: 3_600)
    }

    private func watch(onClockOnly: Bool) async -> Bool {
        let id = state.withLock { s in
            defer { s.nextWatcher += 1 }
            return s.nextWatcher
        }
        let guardTask = Task { [weak self] in
            try await Task.sleep(for: Self.hangGuard)
            self?.expire(id)
        }
        defer { guardTask.cancel() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now: Bool = state.withLock { s in
                if Self.satisfies(s, onClockOnly: onClockOnly) { return true }
                s.watchers.append(Watcher(id: id, onClockOnly: onClockOnly, continuation: continuation))
                return false
            }
            if now { continuation.resume(returning: true) }
        }
    }

    private func expire(_ id: Int) {
        let watcher: Watcher? = state.withLock { s in
            guard let index = s.watchers.firstIndex(where: { $0.id == id }) else { return nil }
            return s.watchers.remove(at: index)
        }
        watcher?.continuation.resume(returning: false)
    }

    private static func satisfies(_ s: State, onClockOnly: Bool) -> Bool {
        guard let waiting = s.waiting, waiting.began == s.now else { return false }
        return waiting.onClock || !onClockOnly
    }

    private static func takeSatisfied(_ s: inout State) -> [Watcher] {
        let state = s
        let ready = s.watchers.filter { satisfies(state, onClockOnly: $0.onClockOnly) }
        s.watchers.removeAll { satisfies(state, onClockOnly: $0.onClockOnly) }
        return ready
    }
}
