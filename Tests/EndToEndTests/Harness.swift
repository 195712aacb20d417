import Foundation
import NotiplayTestSupport
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

/// A child process whose standard output and error are read as they arrive, on threads of their
/// own (so a full pipe never blocks the child), with deadlines on every wait.
final class ChildProcess: @unchecked Sendable {
    let command: [String]
    private let process = Process()
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var out = Data()
    private var err = Data()
    private var openStreams = 2
    private var exitTime: ContinuousClock.Instant?
    private var startTime: ContinuousClock.Instant?

    init(_ executable: String, _ arguments: [String], environment: [String: String] = E2E.childEnvironment) {
        command = [executable] + arguments
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
    }

    var pid: Int32 { process.processIdentifier }

    func start() throws {
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.terminationHandler = { [self] _ in
            condition.lock()
            exitTime = .now
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        startTime = .now
        condition.unlock()
        try process.run()
        for (handle, isOut) in [(outPipe.fileHandleForReading, true), (errPipe.fileHandleForReading, false)] {
            let thread = Thread { [self] in
                let fd = handle.fileDescriptor
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    condition.lock()
                    if n > 0 {
                        if isOut { out.append(contentsOf: buffer[0..<n]) } else { err.append(contentsOf: buffer[0..<n]) }
                    } else {
                        openStreams -= 1
                    }
                    condition.broadcast()
                    condition.unlock()
                    if n <= 0 { break }
                }
                try? handle.close()
            }
            thread.start()
        }
    }

    /// Standard output so far.
    var stdoutSoFar: Data {
        condition.lock()
        defer { condition.unlock() }
        return out
    }

    /// Waits until `predicate(stdout so far)` holds, the process ends, or `timeout` passes.
    /// Blocks: only on a thread of its own.
    /// - Returns: Whether the predicate held.
    private func blockingWaitForStdout(timeout: Double, _ predicate: (Data) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if predicate(out) { return true }
            if exitTime != nil && openStreams == 0 { return false }
            if !condition.wait(until: deadline) { return predicate(out) }
        }
    }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Sends `signal` as soon as `predicate(stdout so far)` holds, from the thread that waits for
    /// it (a test resumed on a busy concurrency pool would send it late).
    /// - Returns: When the signal was sent; `nil` if the predicate did not hold before the process
    ///   ended or `timeout` passed (nothing was sent).
    func send(
        _ signal: Int32, whenStdout predicate: @escaping @Sendable (Data) -> Bool, timeout: Double
    ) async -> ContinuousClock.Instant? {
        await onThreadOfItsOwn {
            guard self.blockingWaitForStdout(timeout: timeout, predicate) else { return nil }
            let sent = ContinuousClock.now
            self.send(signal)
            return sent
        }
    }

    /// Waits for the process to end and its output to be read fully; kills it after `timeout`.
    func finish(timeout: Double) async throws -> RunResult {
        try await onThreadOfItsOwn { try self.blockingFinish(timeout: timeout) }
    }

    private func blockingFinish(timeout: Double) throws -> RunResult {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while !(exitTime != nil && openStreams == 0) {
            if !condition.wait(until: deadline) {
                let done = exitTime != nil && openStreams == 0
                if done { break }
                let (o, e) = (out, err)
                condition.unlock()
                killTree(process.processIdentifier)
                throw ChildTimeout(
                    command: command, seconds: timeout, stdout: String(decoding: o, as: UTF8.self),
                    stderr: String(decoding: e, as: UTF8.self))
            }
        }
        let result = RunResult(
            status: process.terminationReason == .uncaughtSignal
                ? 128 + process.terminationStatus : process.terminationStatus,
            signaled: process.terminationReason == .uncaughtSignal,
            stdout: out, stderr: err,
            wallSeconds: seconds(from: startTime!, to: exitTime!))
        condition.unlock()
        return result
    }

    /// When the process ended, if it has.
    var endedAt: ContinuousClock.Instant? {
        condition.lock()
        defer { condition.unlock() }
        return exitTime
    }
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
        try child.start()
        return try await child.finish(timeout: timeout)
    }
}

/// Runs `notiplay arguments`.
func notiplay(_ arguments: String..., timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) async throws -> RunResult {
    try await run(try E2E.binary(sourceLocation: sourceLocation), arguments, timeout: timeout)
}

/// Runs `body`, which blocks, on a thread started for it, and hands back its result.
///
/// Never on a thread of Swift's concurrency pool: on Linux it is the dispatch root queue with one
/// thread per core (two here), which does not grow when a thread blocks. Two tests waiting there
/// for a child process (a real-time `notiplay` run takes seconds on a loaded machine) held every
/// other test of the process for that long: a real-time test's 0.3 s wait became 1.5 s, after
/// the end of the file it meant to pause, and its `started` and `ended` events were taken late.
/// (Not `DispatchQueue.global()` either: that is the same root queue.)
func onThreadOfItsOwn<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let result: Result<T, E> = await withCheckedContinuation { continuation in
        Thread {
            do throws(E) {
                continuation.resume(returning: .success(try body()))
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }.start()
    }
    return try result.get()
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
