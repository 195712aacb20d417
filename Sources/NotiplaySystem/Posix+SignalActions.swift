@preconcurrency internal import Glibc  // sigaction, pthread_sigmask, kill, atexit, errno
package import SystemPackage

/// What a signal does when it arrives (`struct sigaction`): the system's default, ignoring it,
/// or a handler of ours.
package struct SignalAction: Sendable {
    fileprivate var value = sigaction()

    /// The system's default action (`SIG_DFL`), no flags, nothing more blocked while it runs.
    package init() {}

    /// Runs `handler` when the signal arrives, with `blocking` (and the signal itself) blocked
    /// meanwhile; calls it interrupts restart (`SA_RESTART`), and it runs on the alternate signal
    /// stack when the thread has one (`SA_ONSTACK`). `handler` may only do what is
    /// async-signal-safe.
    package init(handler: @convention(c) (Int32) -> Void, blocking: [Int32]) {
        value.__sigaction_handler.sa_handler = handler
        sigemptyset(&value.sa_mask)
        for signal in blocking { sigaddset(&value.sa_mask, signal) }
        value.sa_flags = SA_RESTART | SA_ONSTACK
    }

    /// Whether the signal is ignored (`SIG_IGN`, as `nohup` leaves `SIGHUP`).
    package var isIgnored: Bool {
        let handler = unsafeBitCast(value.__sigaction_handler.sa_handler, to: Int.self)
        return value.sa_flags & SA_SIGINFO == 0 && handler == 1  // SIG_IGN
    }
}

/// Signal actions set with `sigaction(2)`, signal masks, and what a signal handler may call.
/// Everything here but ``unblockSignals(_:)`` and ``atExit(_:)`` is async-signal-safe: no
/// allocation, no lock, nothing thrown as an existential.
extension Posix {
    /// What `signal` does now (`sigaction(2)`), or `nil` when it cannot be told.
    package static func action(for signal: Int32) -> SignalAction? {
        var current = SignalAction()
        guard sigaction(signal, nil, &current.value) == 0 else { return nil }
        return current
    }

    /// Sets what `signal` does (`sigaction(2)`).
    /// - Returns: What it did before.
    @discardableResult
    package static func setAction(_ action: SignalAction, for signal: Int32) throws(SystemCallError) -> SignalAction {
        var action = action
        var previous = SignalAction()
        try call("sigaction", retryingInterrupts: false) { sigaction(signal, &action.value, &previous.value) }
        return previous
    }

    /// Unblocks `signals` for the calling thread (`pthread_sigmask(3)`), which inherited its
    /// creator's mask: one thread at least must take a signal for its handler to run.
    package static func unblockSignals(_ signals: [Int32]) {
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signal in signals { sigaddset(&unblocked, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// Sends `signal` to every process of this process's group (`kill(0, signal)`), this one
    /// included.
    package static func signalProcessGroup(_ signal: Int32) {
        _ = kill(0, signal)
    }

    /// Registers `hook` to run when the process calls `exit(3)` (`atexit(3)`).
    package static func atExit(_ hook: @convention(c) () -> Void) {
        _ = atexit(hook)
    }

    /// Runs `body`, then puts back the `errno` it found: a signal handler must not change the
    /// `errno` of the code it interrupted.
    package static func preservingLastError(_ body: () -> Void) {
        let saved = errno
        defer { errno = saved }
        body()
    }

    /// Writes all of `bytes` to `file`, retrying short writes and `EINTR`, and stops at the
    /// first other failure. For signal handlers: nothing is thrown.
    /// - Returns: Whether every byte was written.
    @discardableResult
    package static func writeFromSignalHandler(_ file: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var pointer = bytes.baseAddress else { return true }
        var left = bytes.count
        while left > 0 {
            let written = Glibc.write(file.rawValue, pointer, left)
            if written > 0 {
                pointer += written
                left -= written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
