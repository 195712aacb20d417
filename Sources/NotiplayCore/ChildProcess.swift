#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A program run by notiplay (`curl` for a download, an app's forwarded-action command) as a
/// child process with `posix_spawn` — never through a shell — whose end a task awaits without
/// blocking the cooperative thread pool. Cancelling the awaiting task kills it. The child gets
/// standard input from `/dev/null`, no other descriptor of ours, default signal handling, and
/// its own process group (a Ctrl-C meant for notiplay's terminal stays notiplay's).
public enum ChildProcess {
    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)

        /// Whether it exited with status 0.
        public var succeeded: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signaled(let signal): "signal \(signal)"
            }
        }
    }

    /// Where a child's standard output or error goes.
    public enum Output: Sendable {
        /// `/dev/null`.
        case discard
        /// A file, created or truncated (mode 0600).
        case file(String)
        /// A descriptor of ours, such as ``Diagnostics``' one.
        case descriptor(Int32)
    }

    /// The first executable file named `name` in the folders of `searchPath` (colon-separated;
    /// `nil` means `$PATH`), if any. Relative folders are skipped.
    public static func find(_ name: String, searchPath: String? = nil) -> String? {
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

    /// Runs `executable` (an absolute path, or a name looked up on `PATH`) with `arguments` (the
    /// program name is added as `argv[0]`), our environment plus `environment`, and returns how it
    /// ended. If the task is cancelled the child is killed (SIGKILL) and this returns once it is gone.
    /// - Returns: How the child ended, or why it could not be started.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        stdout: Output = .discard, stderr: Output = .discard
    ) async -> Result<Termination, SpawnError> {
        if Task.isCancelled { return .failure(SpawnError(message: "cancelled before it started")) }
        let child: Running
        switch start(executable, arguments, environment: environment, stdout: stdout, stderr: stderr) {
        case .success(let started): child = started
        case .failure(let failure): return .failure(failure)
        }
        let termination = await withTaskCancellationHandler {
            await child.wait()
        } onCancel: {
            child.signal(SIGKILL)
        }
        return .success(termination)
    }

    /// Starts `executable` as ``run(_:_:environment:stdout:stderr:)`` does and returns at once;
    /// the caller waits for it, or signals it, through the returned ``Running``.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        stdout: Output = .discard, stderr: Output = .discard
    ) -> Result<Running, SpawnError> {
        let program: String
        if executable.contains("/") {
            program = executable
        } else if let found = find(executable) {
            program = found
        } else {
            return .failure(SpawnError(message: "\(executable) is not on PATH"))
        }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = []
        if !environment.isEmpty {
            var index = 0
            while let entry = environ[index] {
                let text = String(cString: entry)
                let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
                if environment[name] == nil { envp.append(strdup(entry)) }
                index += 1
            }
            // An environment string ends at its first NUL: text from a payload may hold one.
            for (key, value) in environment { envp.append(strdup("\(key)=\(value.replacing("\0", with: "\u{FFFD}"))")) }
        }
        envp.append(nil)
        defer { for pointer in envp { free(pointer) } }

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
        for (fd, output) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch output {
            case .discard: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let source): posix_spawn_file_actions_adddup2(&actions, source, fd)
            }
        }
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
        posix_spawnattr_setpgroup(&attributes, 0)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var pid: pid_t = 0
        let status = argv.withUnsafeBufferPointer { args in
            envp.count > 1
                ? envp.withUnsafeBufferPointer { env in posix_spawn(&pid, program, &actions, &attributes, args.baseAddress!, env.baseAddress!) }
                : posix_spawn(&pid, program, &actions, &attributes, args.baseAddress!, environ)
        }
        guard status == 0 else {
            return .failure(SpawnError(message: String(cString: strerror(status))))
        }
        return .success(Running(pid: pid))
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
    public struct SpawnError: Error, Sendable {
        /// What went wrong.
        public var message: String
    }
}

/// A started child: waited for on a thread of its own; killed only while it has not been reaped,
/// so a kill never reaches a process that reused its id.
extension ChildProcess {
    /// A started child: waited for on a thread of its own; signalled only while it has not been
    /// reaped, so a signal never reaches a process that reused its id.
    public final class Running: Sendable {
        /// Its process id (also its process group's).
        public let pid: pid_t
        private let reaped = Mutex(false)

        init(pid: pid_t) {
            self.pid = pid
        }

        /// Sends `signal` to the child and its process group, unless it has ended.
        public func signal(_ signal: Int32) {
            reaped.withLock { reaped in
                if !reaped {
                    _ = kill(-pid, signal)
                    _ = kill(pid, signal)
                }
            }
        }

        /// Waits until the child ends and reaps it.
        public func wait() async -> ChildProcess.Termination {
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
}

/// What the waiting thread needs.
private final class Waiter: Sendable {
    let child: ChildProcess.Running
    let continuation: CheckedContinuation<ChildProcess.Termination, Never>

    init(child: ChildProcess.Running, continuation: CheckedContinuation<ChildProcess.Termination, Never>) {
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
