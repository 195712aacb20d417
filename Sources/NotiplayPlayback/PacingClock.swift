internal import NotiplaySystem

/// The clock a ``PacedCapture``'s reader paces itself by, and the wait it makes between turns.
///
/// The production clock is ``MonotonicPacingClock``. Tests give a capture (and an ``MPVEngine``)
/// a clock that moves only when they move it, so that "never more than one block ahead of real
/// time" becomes an exact check, whatever the machine's speed.
protocol PacingClock: Sendable {
    /// Now, in nanoseconds from any fixed origin.
    func now() -> Int64
    /// Waits until one of `fds` is readable (what each ``Posix/PollEntry/found`` tells which) or
    /// the clock reaches `deadline` (`nil`: no deadline). `turnBegan` is what ``now()`` said when
    /// the reader began the turn that ends with this wait. Called by the reader thread only.
    func wait(_ fds: inout [Posix.PollEntry], until deadline: Int64?, turnBegan: Int64)
}

/// `CLOCK_MONOTONIC`, waited on with `poll`'s timeout.
struct MonotonicPacingClock: PacingClock {
    func now() -> Int64 { Posix.monotonicNanoseconds() }

    func wait(_ fds: inout [Posix.PollEntry], until deadline: Int64?, turnBegan: Int64) {
        // At least 1 ms, at most 1 s (a turn then looks again), rounded up to whole milliseconds.
        let timeout = deadline.map { Int32(min(1_000, max(1, ($0 - now() + 999_999) / 1_000_000))) } ?? -1
        _ = try? Posix.poll(&fds, milliseconds: timeout)
    }
}
