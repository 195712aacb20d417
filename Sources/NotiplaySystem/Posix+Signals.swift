@preconcurrency internal import Glibc  // the calls this file wraps

/// Signal numbers, for modules that do not import the C library.
package enum SignalNumber {
    package static let interrupt: Int32 = SIGINT
    package static let terminate: Int32 = SIGTERM
    package static let hangUp: Int32 = SIGHUP
    package static let brokenPipe: Int32 = SIGPIPE
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
