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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in descriptors.enumerated() {
            // A descriptor given as its own target is inherited as it is: it must not be
            // close-on-exec (0, 1 and 2 never are).
            if source.rawValue != Int32(target) {
                posix_spawn_file_actions_adddup2(&actions, source.rawValue, Int32(target))
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // SIGPIPE's default action, whether or not this process ignores it.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SystemCallError("posix_spawn", Errno(rawValue: result)) }
        return child
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
