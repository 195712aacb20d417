// Foundation's `Process.run()` on Linux over-reads a `dirent` while it counts the open
// descriptors (swift-corelibs-foundation PR #5472, not in Swift 6.3.1): it crashed the whole test
// process once, beside tests holding a thousand sockets open. Tests start programs through this
// or through ``TestChild`` (swift-subprocess), never through `Process`.
import Foundation
import Glibc

/// Runs `program` with `arguments` to its end, standard input and output on `/dev/null`, blocking
/// the calling thread; returns its exit status (128 + the signal when a signal ended it) and its
/// standard error. For quick tools run during a test's set-up (`plutil`, `python3 -c …`).
public func spawnAndWait(_ program: String, _ arguments: [String]) throws -> (status: Int32, errors: String) {
    let scratch = try TestMedia.scratch()
    defer { try? FileManager.default.removeItem(at: scratch) }
    let errorsPath = scratch.appendingPathComponent("stderr").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let status = posix_spawn(&pid, program, &actions, nil, argv, environ)
    guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
    var waited: Int32 = 0
    while waitpid(pid, &waited, 0) == -1 {
        guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
    }
    let errors = (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
    let signal = waited & 0x7f
    return (signal == 0 ? (waited >> 8) & 0xff : 128 + signal, errors)
}
