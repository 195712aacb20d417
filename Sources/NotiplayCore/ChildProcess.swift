#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A program run by notiplay (an app's forwarded-action command, `curl` for a download): started
/// with `posix_spawn`, never through a shell, its standard input `/dev/null`, its output where the
/// caller says, and its exit awaited without blocking the caller's thread.
public final class ChildProcess: Sendable {
    /// How a program ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// Whether it exited with status 0.
        public var succeeded: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    /// The process id.
    public let pid: pid_t

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts `arguments[0]` (looked up on `PATH` when it has no `/`) with `arguments`, the
    /// current environment plus `environment`, standard input from `/dev/null` and standard
    /// output and error on `output` (default: notiplay's diagnostics descriptor, so a child never
    /// writes into notiplay's event stream on stdout).
    ///
    /// - Throws: ``NotiplayError`` (missing input) when the program cannot be started.
    public static func start(
        _ arguments: [String], environment: [String: String] = [:], output: Int32? = nil
    ) throws(NotiplayError) -> ChildProcess {
        guard let program = arguments.first, !program.isEmpty else {
            throw NotiplayError(.usage, "no program to run")
        }
        let out = output ?? Diagnostics.shared.fileDescriptor
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out, 1)
        posix_spawn_file_actions_adddup2(&actions, out, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child gets default signal handling and its own process group, so that killing it
        // reaches what it starts and a Ctrl-C meant for notiplay's terminal is notiplay's to handle.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        var merged: [String: String] = [:]
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                merged[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            index += 1
        }
        for (key, value) in environment { merged[key] = value }
        let environmentStrings = merged.map { "\($0.key)=\($0.value)" }

        var pid: pid_t = 0
        let status = withCStrings(arguments) { argv in
            withCStrings(environmentStrings) { envp in
                program.contains("/")
                    ? posix_spawn(&pid, program, &actions, &attributes, argv, envp)
                    : posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else {
            let reason = String(cString: strerror(status))
            throw NotiplayError(.missingInput, "cannot run \(TerminalText.clean(program)): \(reason)")
        }
        return ChildProcess(pid: pid)
    }

    /// Waits for the program to end, on a thread of its own.
    public func wait() async -> Termination {
        let pid = self.pid
        return await withCheckedContinuation { continuation in
            let box = Unmanaged.passRetained(WaitRequest(pid: pid, continuation: continuation))
            var thread = pthread_t()
            if pthread_create(&thread, nil, waitForChild, box.toOpaque()) == 0 {
                pthread_detach(thread)
            } else {
                box.takeRetainedValue().run()
            }
        }
    }

    /// Sends `signal` to the program and everything in its process group.
    public func kill(_ signal: Int32 = SIGTERM) {
        _ = Glibc.kill(-pid, signal)
        _ = Glibc.kill(pid, signal)
    }
}

private final class WaitRequest: @unchecked Sendable {
    // Used by exactly one thread.
    let pid: pid_t
    let continuation: CheckedContinuation<ChildProcess.Termination, Never>

    init(pid: pid_t, continuation: CheckedContinuation<ChildProcess.Termination, Never>) {
        self.pid = pid
        self.continuation = continuation
    }

    func run() {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR {
                continuation.resume(returning: .exited(-1))
                return
            }
        }
        let signal = status & 0x7f
        continuation.resume(returning: signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal))
    }
}

private func waitForChild(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<WaitRequest>.fromOpaque(context).takeRetainedValue().run()
    return nil
}

/// Calls `body` with a NULL-terminated array of C strings copied from `strings`.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
