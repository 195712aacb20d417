@preconcurrency internal import Glibc  // environ, getuid, exit

/// What the process was started with (its environment, its user, its id), and its end.
extension Posix {
    /// The process's environment variables (`environ(7)`), as they are now. An entry without
    /// `=` is left out; a name given twice keeps its last value.
    ///
    /// The command line (`NotiplayCommandLine`) and an app's `UNUserNotificationCenter` are the
    /// only readers: the libraries get what they need from them as configuration.
    package static var environment: [String: String] {
        var result: [String: String] = [:]
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            index += 1
        }
        return result
    }

    /// The process's real user id (`getuid(2)`).
    package static var userID: UInt32 { getuid() }

    /// The process's effective user id (`geteuid(2)`).
    package static var effectiveUserID: UInt32 { geteuid() }

    /// The process's id (`getpid(2)`).
    package static var processID: Int32 { getpid() }

    /// Ends the process with `status` (`exit(3)`): `atexit` hooks run and C's streams are
    /// flushed.
    package static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
