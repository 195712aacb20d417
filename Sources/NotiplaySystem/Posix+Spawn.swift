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
        var defaults = sigset_t()
        sigfillset(&defaults)
        // POSIX_SPAWN_SETSID (glibc's value; a GNU extension Swift's Glibc module leaves out).
        return try spawn(
            path, arguments: arguments, environment: environment,
            descriptors: [(input, 0), (output, 1), (output, 2)], signalDefaults: defaults, newSession: 0x80)
    }

    /// Starts `path` with `arguments` and `environment`: each `(source, target)` of `descriptors`
    /// is `dup2`ed (a source that is its own target is inherited as it is), the signal mask is
    /// empty, the signals in `signalDefaults` take their default action, and `newSession` adds
    /// its flag (`POSIX_SPAWN_SETSID`'s value, or 0). The one `posix_spawn` of the package.
    static func spawn(
        _ path: String, arguments: [String], environment: [String: String],
        descriptors: [(source: FileDescriptor, target: Int32)], signalDefaults: sigset_t, newSession: Int32 = 0
    ) throws(SystemCallError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in descriptors where source.rawValue != target {
            posix_spawn_file_actions_adddup2(&actions, source.rawValue, target)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = signalDefaults
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | newSession))
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
