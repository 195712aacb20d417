import Foundation
import NotiplayTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where the end-to-end tests find the `notiplay` binary, the sample media and scratch folders.
///
/// The binary is `$NOTIPLAY_BIN` when set, else `notiplay` next to the running test executable
/// (`swift test --scratch-path .build-e2e` builds it into `.build-e2e/debug/` with the tests).
enum E2E {
    /// Two child processes at a time, as many as used to run when their waits held the two
    /// threads of the concurrency pool: each loads libmpv and some play in real time, and more of
    /// them at once on a 2-core machine make their own timings miss.
    @MainActor static let childSlots = EngineSlots(free: 2)

    /// Runs `body` (which runs a child process) once a child slot is free.
    static func withChildSlot<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await childSlots.acquire()
        do {
            let result = try await body()
            await childSlots.release()
            return result
        } catch {
            await childSlots.release()
            throw error
        }
    }

    /// The repository root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Media/NAME` as an absolute path.
    static func media(_ name: String) -> String { root.appendingPathComponent("Media/\(name)").path }

    /// Where the binary is expected; see ``binary()`` for the checked version.
    static let binaryPath: String = {
        if let path = ProcessInfo.processInfo.environment["NOTIPLAY_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path).standardizedFileURL.path
        }
        var executable = CommandLine.arguments.first ?? ""
        if !executable.contains("/"), let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            executable = resolved
        }
        return URL(fileURLWithPath: executable).standardizedFileURL.deletingLastPathComponent()
            .appendingPathComponent("notiplay").path
    }()

    /// The `notiplay` binary; fails the calling test with instructions when it is missing.
    static func binary(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            FileManager.default.isExecutableFile(atPath: binaryPath),
            """
            notiplay binary not found at \(binaryPath). Build it first with \
            `swift build --scratch-path <same scratch path as swift test>` (or set NOTIPLAY_BIN to its path).
            """,
            sourceLocation: sourceLocation)
        return binaryPath
    }

    /// A new empty folder under the temporary directory, mode 0755 (traversable by any user).
    /// The environment of a center's server and clients kept in `scratch`: its state and
    /// configuration there, its runtime folder (the socket's) a new one under /tmp named
    /// `PREFIX-…` (short: a socket path may hold 107 bytes).
    static func centerEnvironment(scratch: URL, runtimePrefix: String) throws -> [String: String] {
        var environment = childEnvironment
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = scratch.appendingPathComponent("config").path
        let runtime = "/tmp/\(runtimePrefix)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        environment["XDG_RUNTIME_DIR"] = runtime
        return environment
    }

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url
    }

    /// Removes a scratch folder, restoring permissions first so that nothing is left behind.
    static func remove(_ url: URL) {
        if let items = FileManager.default.enumerator(atPath: url.path) {
            for case let item as String in items {
                chmod(url.appendingPathComponent(item).path, 0o755)
            }
        }
        try? FileManager.default.removeItem(at: url)
    }

    /// `text` quoted for `/bin/sh`.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The absolute path of `name` on `PATH`, if any.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The environment children run with: ours, minus what would change notiplay's output.
    static var childEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIPLAY_LOG"] = nil
        environment["NOTIPLAY_BIN"] = nil
        return environment
    }
}

/// What a finished child process left behind.
struct RunResult: Sendable, CustomStringConvertible {
    /// The exit status, or `128 + N` when killed by signal N.
    var status: Int32
    /// Whether the process ended by a signal rather than by exiting.
    var signaled: Bool
    var stdout: Data
    var stderr: Data
    /// From `run()` to the termination notice.
    var wallSeconds: Double

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    /// The lines of standard error, without the final empty one.
    var stderrLines: [Substring] {
        var lines = stderrText.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    var description: String {
        "status \(signaled ? "signal " : "")\(status) after \(String(format: "%.3f", wallSeconds)) s\n"
            + "--- stdout ---\n\(stdoutText)\n--- stderr ---\n\(stderrText)"
    }
}

struct ChildTimeout: Error, CustomStringConvertible {
    var command: [String]
    var seconds: Double
    var stdout: String
    var stderr: String
    var description: String {
        "timed out after \(seconds) s and was killed: \(command.joined(separator: " "))\n"
            + "--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
    }
}

/// A child process whose standard output and error are read as they arrive (so a full pipe never
/// blocks the child), with deadlines on every wait: ``TestChild`` (swift-subprocess) underneath.
final class ChildProcess: Sendable {
    let command: [String]
    private let environment: [String: String]
    private let child = Mutex<TestChild?>(nil)

    init(_ executable: String, _ arguments: [String], environment: [String: String] = E2E.childEnvironment) {
        command = [executable] + arguments
        self.environment = environment
    }

    /// Starts the process with exactly ``environment``; returns once it runs.
    func start() async throws {
        let started = await TestChild.start(command[0], Array(command.dropFirst()), environment: environment, inheriting: false)
        child.withLock { $0 = started }
    }

    private var running: TestChild {
        get throws {
            guard let running = child.withLock({ $0 }) else { throw ChildNotStarted(command: command) }
            return running
        }
    }

    /// Standard output so far.
    var stdoutSoFar: Data {
        Data((try? running.standardOutput) ?? [])
    }

    /// The process's identifier, once started.
    var processID: Int32? {
        (try? running)?.processID
    }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        (try? running)?.signal(signal)
    }

    /// Sends `signal` as soon as `predicate(stdout so far)` holds, from the task that reads the
    /// output (a test resumed on a busy concurrency pool would send it late).
    /// - Returns: When the signal was sent; `nil` if the predicate did not hold before the process
    ///   ended or `timeout` passed (nothing was sent).
    func send(
        _ signal: Int32, whenStdout predicate: @escaping @Sendable (Data) -> Bool, timeout: Double
    ) async -> ContinuousClock.Instant? {
        guard let running = try? running else { return nil }
        return await running.signal(signal, whenStdout: { predicate(Data($0)) }, timeout: timeout)
    }

    /// Waits for the process to end and its output to be read fully; kills it (and whatever it
    /// started) after `timeout`.
    func finish(timeout: Double) async throws -> RunResult {
        let running = try running
        guard let termination = await running.wait(seconds: timeout) else {
            if let pid = running.processID { killTree(pid) }
            throw ChildTimeout(
                command: command, seconds: timeout, stdout: String(decoding: running.standardOutput, as: UTF8.self),
                stderr: String(decoding: running.standardError, as: UTF8.self))
        }
        let status: Int32
        let signaled: Bool
        switch termination {
        case .exited(let code): (status, signaled) = (code, false)
        case .signaled(let signal): (status, signaled) = (128 + signal, true)
        case .notStarted(let reason): throw ChildNotStarted(command: command, reason: reason)
        }
        return RunResult(
            status: status, signaled: signaled, stdout: Data(running.standardOutput), stderr: Data(running.standardError),
            wallSeconds: seconds(from: running.startedAt, to: running.endedAt ?? .now))
    }

    /// When the end of the process was seen, if it has ended.
    var endedAt: ContinuousClock.Instant? {
        (try? running)?.endedAt
    }
}

struct ChildNotStarted: Error, CustomStringConvertible {
    var command: [String]
    var reason = "start() was not called"
    var description: String { "could not start \(command.joined(separator: " ")): \(reason)" }
}

/// Kills `pid` and every process descended from it (`script` puts its child in a session of
/// its own, so killing `script` alone would leave the child running).
func killTree(_ pid: Int32) {
    var parents: [Int32: [Int32]] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let child = Int32(entry),
            let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { continue }
        // After "(comm)": state, ppid, ...
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let ppid = Int32(fields[1]) { parents[ppid, default: []].append(child) }
    }
    var tree: [Int32] = []
    var queue = [pid]
    while let next = queue.popLast() {
        tree.append(next)
        queue += parents[next] ?? []
    }
    for member in tree { kill(member, SIGKILL) }
}

func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
    let d = end - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// Runs `executable arguments` to its end, with a deadline after which it is killed (a hang
/// guard, long enough for a loaded 2-core machine).
func run(
    _ executable: String, _ arguments: [String], timeout: Double = 30, environment: [String: String] = E2E.childEnvironment
) async throws -> RunResult {
    try await E2E.withChildSlot {
        let child = ChildProcess(executable, arguments, environment: environment)
        try await child.start()
        return try await child.finish(timeout: timeout)
    }
}

/// Runs `notiplay arguments`.
func notiplay(_ arguments: String..., timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) async throws -> RunResult {
    try await run(try E2E.binary(sourceLocation: sourceLocation), arguments, timeout: timeout)
}

/// The JSON objects of `--events jsonl` output, one per line; records an issue for each line that
/// is not a JSON object with a string `event` and a numeric `t`.
func eventLines(_ stdout: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
    struct Head: Decodable {
        var event: String
        var t: Double  // JSONDecoder accepts only a JSON number here
    }
    var events: [[String: Any]] = []
    var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    for line in lines {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            Issue.record("stdout line is not a JSON object: \(line)", sourceLocation: sourceLocation)
            continue
        }
        do {
            _ = try JSONDecoder().decode(Head.self, from: Data(line.utf8))
        } catch {
            Issue.record("no string \"event\" or numeric \"t\" in \(line): \(error)", sourceLocation: sourceLocation)
            continue
        }
        events.append(object)
    }
    return events
}
