#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A program run as a child process with `posix_spawn` — never through a shell — whose end a task
/// awaits without blocking the cooperative thread pool. Cancelling the awaiting task kills it.
struct ChildProcess {
    /// How a child ended.
    enum Termination: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
    }

    /// The first executable file named `name` in the folders of `searchPath` (colon-separated;
    /// `nil` means `$PATH`), if any. Relative folders are skipped.
    static func find(_ name: String, searchPath: String? = nil) -> String? {
        guard let path = searchPath ?? getenv("PATH").map({ String(cString: $0) }) else { return nil }
        for folder in path.split(separator: ":", omittingEmptySubsequences: true) where folder.hasPrefix("/") {
            let candidate = folder.hasSuffix("/") ? "\(folder)\(name)" : "\(folder)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Runs `executable` with `arguments` (the program name is added as `argv[0]`), standard
    /// input and output on `/dev/null`, standard error into the file `stderrPath`, and no other
    /// descriptor inherited; returns how it ended. If the task is cancelled the child is killed
    /// (SIGKILL) and this returns once it is gone.
    /// - Returns: How the child ended, or why it could not be started.
    static func run(_ executable: String, _ arguments: [String], stderrPath: String) async -> Result<Termination, SpawnError> {
        if Task.isCancelled { return .failure(SpawnError(message: "cancelled before it started")) }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }

        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #if os(Linux)
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        #endif
        // The child starts with no blocked signals and every signal at its default action (the
        // parent may ignore SIGPIPE; curl should not inherit that).
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var pid: pid_t = 0
        let status = argv.withUnsafeBufferPointer { args in
            posix_spawn(&pid, executable, &actions, &attributes, args.baseAddress!, environ)
        }
        guard status == 0 else {
            return .failure(SpawnError(message: String(cString: strerror(status))))
        }
        let child = Child(pid: pid)
        let termination = await withTaskCancellationHandler {
            await child.waitForExit()
        } onCancel: {
            child.terminate()
        }
        return .success(termination)
    }

    #if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc module
    /// does not declare: closes every descriptor from a number on in the child. (A nil handle is
    /// `RTLD_DEFAULT`.)
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
    #endif

    /// Why a program could not be started.
    struct SpawnError: Error {
        var message: String
    }
}

/// A started child: waited for on a thread of its own; killed only while it has not been reaped,
/// so a kill never reaches a process that reused its id.
private final class Child: Sendable {
    let pid: pid_t
    private let reaped = Mutex(false)

    init(pid: pid_t) {
        self.pid = pid
    }

    func terminate() {
        reaped.withLock { reaped in
            if !reaped { _ = kill(pid, SIGKILL) }
        }
    }

    func waitForExit() async -> ChildProcess.Termination {
        await withCheckedContinuation { continuation in
            let waiter = Unmanaged.passRetained(Waiter(child: self, continuation: continuation)).toOpaque()
            var thread = pthread_t()
            if pthread_create(&thread, nil, waitOnThread, waiter) == 0 {
                pthread_detach(thread)
            } else {
                // No thread to spare: wait here (rare; blocks one pool thread until the child ends).
                _ = waitOnThread(waiter)
            }
        }
    }

    /// Blocks until the child has ended, then reaps it. Runs on the waiting thread.
    func blockUntilExit() -> ChildProcess.Termination {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        var status: Int32 = 0
        reaped.withLock { reaped in
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            reaped = true
        }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }
}

/// What the waiting thread needs.
private final class Waiter: Sendable {
    let child: Child
    let continuation: CheckedContinuation<ChildProcess.Termination, Never>

    init(child: Child, continuation: CheckedContinuation<ChildProcess.Termination, Never>) {
        self.child = child
        self.continuation = continuation
    }
}

/// The waiting thread's body: takes the retained ``Waiter``, waits, resumes the awaiting task.
private func waitOnThread(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let argument else { return nil }
    let waiter = Unmanaged<Waiter>.fromOpaque(argument).takeRetainedValue()
    waiter.continuation.resume(returning: waiter.child.blockUntilExit())
    return nil
}
