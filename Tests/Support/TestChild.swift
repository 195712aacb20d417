import Subprocess
import Synchronization
import SystemPackage

/// A program a test runs beside itself, through swift-subprocess: standard input from
/// `/dev/null`, a process group of its own, its standard output and error kept as they arrive.
///
/// ```swift
/// let child = await TestChild.start("/bin/sh", ["-c", "echo ready; sleep 30"])
/// let sent = await child.signal(SIGTERM, whenStdout: { $0.contains(UInt8(ascii: "\n")) }, timeout: 30)
/// #expect(sent != nil && (await child.wait(seconds: 30)) == .signaled(SIGTERM))
/// ```
public final class TestChild: Sendable {
    /// How a child ended.
    public enum Termination: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
        /// It could not be started, for this reason.
        case notStarted(String)

        init(_ status: TerminationStatus) {
            switch status {
            case .exited(let code): self = .exited(code)
            case .signaled(let signal): self = .signaled(signal)
            }
        }
    }

    /// A signal to send once standard output satisfies a predicate.
    private struct Watch {
        let signal: Int32
        let predicate: @Sendable ([UInt8]) -> Bool
        let continuation: CheckedContinuation<ContinuousClock.Instant?, Never>
    }

    private struct State {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var processID: Int32?
        /// Sends a signal while the child runs (through its process descriptor); `nil` before and after.
        var send: (@Sendable (Int32) -> Void)?
        var ended = false
        var endedAt: ContinuousClock.Instant?
        var watches: [Int: Watch] = [:]
        var nextWatch = 0
    }

    private let state = Mutex(State())
    private let run = Mutex<Task<Termination, Never>?>(nil)
    /// When the child was started (just before it was spawned).
    public let startedAt = ContinuousClock.now

    private init() {}

    /// Starts `executable` (a path) with `arguments`, with this process's environment plus
    /// `environment` (or, when `inheriting` is false, `environment` alone), and returns once it runs
    /// (or could not be started: ``wait(seconds:)`` says why).
    ///
    /// Awaiting the start matters: a test that then blocks its thread (reading a terminal) could
    /// otherwise hold the thread the start needs.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], inheriting: Bool = true
    ) async -> TestChild {
        let child = TestChild()
        let (started, running) = AsyncStream<Void>.makeStream()
        var variables: [Environment.Key: String] = [:]
        for (name, value) in environment {
            if let key = Environment.Key(rawValue: name) { variables[key] = value }
        }
        let spawnEnvironment: Environment = inheriting ? .inherit.updating(variables) : .custom(variables)
        let task = Task {
            let termination: Termination
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(executable)), arguments: Arguments(arguments), environment: spawnEnvironment,
                    platformOptions: ownProcessGroup, input: .none, output: .sequence, error: .sequence
                ) { execution in
                    child.state.withLock { state in
                        state.processID = execution.processIdentifier.value
                        state.send = { signal in try? execution.send(signal: Signal(rawValue: signal)) }
                    }
                    running.finish()
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            do {
                                for try await chunk in execution.standardOutput {
                                    child.received(chunk.withUnsafeBytes { Array($0) }, onStandardOutput: true)
                                }
                            } catch {}
                        }
                        group.addTask {
                            do {
                                for try await chunk in execution.standardError {
                                    child.received(chunk.withUnsafeBytes { Array($0) }, onStandardOutput: false)
                                }
                            } catch {}
                        }
                    }
                    child.state.withLock { $0.send = nil }
                }
                termination = Termination(result.terminationStatus)
            } catch {
                running.finish()
                termination = .notStarted("\(error)")
            }
            let watches = child.state.withLock { state in
                state.ended = true
                state.send = nil
                state.endedAt = .now
                defer { state.watches = [:] }
                return Array(state.watches.values)
            }
            for watch in watches { watch.continuation.resume(returning: nil) }
            return termination
        }
        child.run.withLock { $0 = task }
        for await _ in started {}
        return child
    }

    /// Output has come: keep it, and send the signals whose predicate it satisfies, at once.
    private func received(_ bytes: [UInt8], onStandardOutput: Bool) {
        let satisfied: [(Watch, ContinuousClock.Instant)] = state.withLock { state in
            guard onStandardOutput else {
                state.stderr += bytes
                return []
            }
            state.stdout += bytes
            var sent: [(Watch, ContinuousClock.Instant)] = []
            for (id, watch) in state.watches where watch.predicate(state.stdout) {
                state.send?(watch.signal)
                sent.append((watch, .now))
                state.watches[id] = nil
            }
            return sent
        }
        for (watch, instant) in satisfied { watch.continuation.resume(returning: instant) }
    }

    /// The process id, once started.
    public var processID: Int32? { state.withLock { $0.processID } }
    /// Standard output so far.
    public var standardOutput: [UInt8] { state.withLock { $0.stdout } }
    /// Standard error so far.
    public var standardError: [UInt8] { state.withLock { $0.stderr } }
    /// When the end of the child was seen (its outputs closed and its status collected), if it has
    /// ended.
    public var endedAt: ContinuousClock.Instant? { state.withLock { $0.endedAt } }

    /// Sends `signal` to the child while it runs (through its process descriptor: never to a
    /// process that took its id after it ended).
    public func signal(_ signal: Int32) {
        state.withLock { $0.send?(signal) }
    }

    /// Sends `signal` as soon as the standard output so far satisfies `predicate`, from the task
    /// that reads the output (no other task needs to be scheduled first).
    /// - Returns: When it was sent; `nil` if the predicate did not hold before the child ended or
    ///   `seconds` passed (nothing was sent).
    public func signal(
        _ signal: Int32, whenStdout predicate: @escaping @Sendable ([UInt8]) -> Bool, timeout seconds: Double
    ) async -> ContinuousClock.Instant? {
        let id = state.withLock { state in
            defer { state.nextWatch += 1 }
            return state.nextWatch
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            guard !Task.isCancelled else { return }
            state.withLock { $0.watches.removeValue(forKey: id) }?.continuation.resume(returning: nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let now: ContinuousClock.Instant?? = state.withLock { state in
                if state.ended { return .some(nil) }
                if predicate(state.stdout), let send = state.send {
                    send(signal)
                    return .some(.now)
                }
                state.watches[id] = Watch(signal: signal, predicate: predicate, continuation: continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Kills the child (SIGKILL to its process group) if it still runs; it is reaped in the
    /// background.
    public func stop() {
        run.withLock { $0?.cancel() }
    }

    /// How the child ended; `nil` (and it is killed) when it takes longer than `seconds`, a hang
    /// guard against a child that would never end.
    public func wait(seconds: Double) async -> Termination? {
        guard let run = run.withLock({ $0 }) else { return nil }
        return await Self.race(run, seconds: seconds)
    }

    /// Runs `executable` with `arguments` to its end, its standard output and error written to the
    /// files `stdout` and `stderr` (created or truncated: a daemon it starts may keep them open
    /// without holding anything up). Returns how it ended, or `nil` (and it is killed) when it
    /// takes longer than `seconds`.
    public static func run(
        _ executable: String, _ arguments: [String], stdout: String, stderr: String, seconds: Double
    ) async -> Termination? {
        let output: FileDescriptor
        let errors: FileDescriptor
        do {
            output = try FileDescriptor.open(stdout, .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite])
            errors = try FileDescriptor.open(stderr, .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite])
        } catch {
            return .notStarted("cannot open the output files: \(error)")
        }
        let run = Task {
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(executable)), arguments: Arguments(arguments), platformOptions: ownProcessGroup,
                    output: .fileDescriptor(output, closeAfterSpawningProcess: true),
                    error: .fileDescriptor(errors, closeAfterSpawningProcess: true))
                return Termination(result.terminationStatus)
            } catch {
                return Termination.notStarted("\(error)")
            }
        }
        return await race(run, seconds: seconds)
    }

    /// `run`'s result, or `nil` (and it is cancelled: the child is killed) after `seconds`.
    private static func race(_ run: Task<Termination, Never>, seconds: Double) async -> Termination? {
        await withTaskGroup(of: Termination?.self) { group in
            group.addTask { await run.value }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            if first == nil { run.cancel() }
            group.cancelAll()
            return first
        }
    }

    /// A process group of its own; a cancelled run ends with SIGKILL to the group.
    private static var ownProcessGroup: PlatformOptions {
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .seconds(1))]
        return options
    }
}
