@preconcurrency internal import Glibc  // posix_spawn, waitpid, fcntl, the signals' numbers
package import SystemPackage

/// Worker processes: a program started with the descriptors it is given, and how it ended.
extension Posix {
    /// How a child process ended.
    package enum ChildEnd: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// This signal ended it.
        case signaled(Int32)
    }

    /// Starts `path` with `arguments` (the first is its name) and `environment` in this process's
    /// session and process group (a Ctrl-C in the terminal reaches it too), with an empty signal
    /// mask and SIGPIPE's default action. The child's descriptor `n` is `descriptors[n]` (0, 1, 2, then any more, such as a
    /// pipe on 3); it inherits no other (this process opens its descriptors close-on-exec). A
    /// source descriptor must not be a lower target than its own index (0…2 are the usual ones,
    /// and name only themselves). The descriptors stay open here (close them after).
    /// - Returns: The new process's id.
    package static func spawn(
        _ path: String, arguments: [String], environment: [String: String], descriptors: [FileDescriptor]
    ) throws(SystemCallError) -> Int32 {
        // SIGPIPE's default action, whether or not this process ignores it.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        return try spawn(
            path, arguments: arguments, environment: environment,
            descriptors: descriptors.enumerated().map { (source: $0.element, target: Int32($0.offset)) }, signalDefaults: defaults)
    }

    /// Waits for the child `child` to end (`waitpid(2)`, retried when interrupted) and reaps it.
    /// - Returns: How it ended; `nil` when it is no child of this process.
    package static func waitForEnd(_ child: Int32) -> ChildEnd? {
        var status: Int32 = 0
        while true {
            let found = waitpid(child, &status, 0)
            if found == child { break }
            if found < 0 && errno == EINTR { continue }
            return nil
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// The usual name of signal `number` (`SIGILL`, `SIGABRT`…), or `signal N`.
    package static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
            SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM", SIGSYS: "SIGSYS", SIGXCPU: "SIGXCPU",
        ]
        return names[number] ?? "signal \(number)"
    }

    /// The signal `kill` sends that cannot be caught (`SIGKILL`).
    package static var killSignal: Int32 { SIGKILL }

    /// Whether `file` is an open descriptor (`fcntl(F_GETFD)`).
    package static func isOpen(_ file: FileDescriptor) -> Bool {
        fcntl(file.rawValue, F_GETFD) != -1
    }

    /// Marks `file` close-on-exec: programs started later do not inherit it.
    package static func setCloseOnExec(_ file: FileDescriptor) throws(SystemCallError) {
        guard fcntl(file.rawValue, F_SETFD, fcntl(file.rawValue, F_GETFD) | FD_CLOEXEC) != -1 else {
            throw SystemCallError("fcntl", lastError)
        }
    }
}
