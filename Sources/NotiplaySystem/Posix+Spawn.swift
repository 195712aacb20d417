@preconcurrency internal import Glibc  // posix_spawn, kill, waitpid
package import SystemPackage

/// Starting a program in the background, as a daemon is started, and signalling a process.
extension Posix {
    /// Starts `path` with `arguments` (the first is its name) and `environment` in a session of
    /// its own (`POSIX_SPAWN_SETSID`: no controlling terminal, so a hang-up of this terminal
    /// never reaches it), with `input` as its standard input and `output` as its standard output
    /// and error, every signal's default action and an empty signal mask. The descriptors given
    /// stay open here (close them after).
    /// - Returns: The new process's id.
    package static func spawnDetached(
        _ path: String, arguments: [String], environment: [String: String], input: FileDescriptor, output: FileDescriptor
    ) throws(SystemCallError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.rawValue, 0)
        posix_spawn_file_actions_adddup2(&actions, output.rawValue, 1)
        posix_spawn_file_actions_adddup2(&actions, output.rawValue, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSID (glibc's values;
        // the last is a GNU extension Swift's Glibc module leaves out).
        posix_spawnattr_setflags(&attributes, Int16(0x04 | 0x08 | 0x80))
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

    /// Sends `signal` to process `process` (`kill(2)`); false when there is no such process (or
    /// it is not ours).
    @discardableResult
    package static func signal(process: Int32, _ signal: Int32) -> Bool {
        kill(process, signal) == 0
    }

    /// Whether a child of this process has ended (`waitpid(2)` with `WNOHANG`); it is reaped if
    /// so. `nil`: it still runs.
    package static func reapIfEnded(_ child: Int32) -> Int32? {
        var status: Int32 = 0
        let found = waitpid(child, &status, WNOHANG)
        guard found == child else { return found == 0 ? nil : -1 }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// The path of the running executable (`/proc/self/exe` resolved).
    package static var executablePath: String? {
        try? realPath("/proc/self/exe")
    }
}
