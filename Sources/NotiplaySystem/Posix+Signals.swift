@preconcurrency internal import Glibc  // the calls this file wraps

/// Signal numbers, for modules that do not import the C library. Each is computed, not stored:
/// a signal handler may read them (nothing is initialised lazily).
package enum SignalNumber {
    /// `SIGINT`: Ctrl-C in a terminal's cooked mode.
    package static var interrupt: Int32 { SIGINT }
    /// `SIGTERM`: asked to end.
    package static var terminate: Int32 { SIGTERM }
    /// `SIGHUP`: the terminal went away.
    package static var hangUp: Int32 { SIGHUP }
    /// `SIGPIPE`: a write to a pipe or socket no one reads.
    package static var brokenPipe: Int32 { SIGPIPE }
    /// `SIGWINCH`: the terminal's window changed size.
    package static var windowChange: Int32 { SIGWINCH }
    /// `SIGTSTP`: Ctrl-Z in a terminal's cooked mode; stops the process by default.
    package static var terminalStop: Int32 { SIGTSTP }
    /// `SIGCONT`: a stopped process goes on.
    package static var `continue`: Int32 { SIGCONT }
    /// `SIGQUIT`: Ctrl-\ in a terminal's cooked mode; ends the process with a core.
    package static var quit: Int32 { SIGQUIT }
    /// `SIGSEGV`: a bad memory access.
    package static var segmentationFault: Int32 { SIGSEGV }
    /// `SIGBUS`: a bad memory access (a misaligned one, a file mapped past its end).
    package static var busError: Int32 { SIGBUS }
    /// `SIGILL`: an illegal instruction (Swift's traps on some machines).
    package static var illegalInstruction: Int32 { SIGILL }
    /// `SIGFPE`: an arithmetic error.
    package static var arithmeticError: Int32 { SIGFPE }
    /// `SIGABRT`: `abort(3)`.
    package static var abort: Int32 { SIGABRT }
    /// `SIGTRAP`: a trap instruction (Swift's runtime errors).
    package static var trap: Int32 { SIGTRAP }
}

/// Signal dispositions set with `signal(2)`, and `raise(3)`. Handlers of our own are installed
/// with `sigaction` where they are written, in the terminal module: they must stay
/// async-signal-safe, which a wrapper cannot promise.
extension Posix {
    /// What a signal does when it arrives.
    package enum SignalDisposition: Sendable {
        /// Nothing: it is discarded.
        case ignore
        /// The system's default action (for most, ending the process).
        case systemDefault
    }

    /// Sets what `signal` does.
    package static func setDisposition(_ disposition: SignalDisposition, for signal: Int32) {
        _ = Glibc.signal(signal, disposition == .ignore ? SIG_IGN : SIG_DFL)
    }

    /// Sends `signal` to this thread (`raise(3)`).
    package static func raise(_ signal: Int32) {
        _ = Glibc.raise(signal)
    }
}
