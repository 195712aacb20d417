@preconcurrency internal import Glibc  // socketpair, posix_spawn, waitpid
package import SystemPackage

/// Starting a child that talks to this process over a socket pair (the center's presenter
/// processes), and waiting for it.
extension Posix {
    /// A connected pair of Unix stream sockets (`socketpair(2)`), both close-on-exec.
    package static func socketPair() throws(SystemCallError) -> (FileDescriptor, FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw SystemCallError("socketpair", Errno(rawValue: errno)) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// Starts `path` with `arguments` (the first is its name) in this process's environment,
    /// with `channel` as its descriptor 3, `/dev/null` as its standard input, and this process's
    /// standard output and error; every signal's default action and an empty signal mask.
    /// - Returns: The new process's id.
    package static func spawnChild(_ path: String, arguments: [String], channel: FileDescriptor) throws(SystemCallError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, channel.rawValue, 3)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK.
        posix_spawnattr_setflags(&attributes, Int16(0x04 | 0x08))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        guard result == 0 else { throw SystemCallError("posix_spawn", Errno(rawValue: result)) }
        return child
    }

    /// Waits until child `child` ends (`waitpid(2)`) and reaps it: its exit status, or 128 plus
    /// the signal that ended it; -1 when it is not a child of ours.
    package static func waitForExit(_ child: Int32) -> Int32 {
        var status: Int32 = 0
        while true {
            let found = waitpid(child, &status, 0)
            if found == child { break }
            if found == -1 && errno == EINTR { continue }
            return -1
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
