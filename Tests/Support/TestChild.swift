import Subprocess
import SystemPackage

/// A program a test runs beside itself, through swift-subprocess: standard input from
/// `/dev/null`, a process group of its own, this process's environment plus the variables given.
///
/// ```swift
/// let child = await TestChild.start("/bin/sh", ["-c", "sleep 30"])
/// child.signal(SIGTERM)
/// #expect(await child.wait(seconds: 30) == .signaled(SIGTERM))
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

    private let signals: AsyncStream<Int32>.Continuation
    private let run: Task<Termination, Never>

    /// Starts `executable` (a path) with `arguments` and this process's environment plus
    /// `environment`, and returns once it runs (or could not be started: ``wait(seconds:)`` says
    /// why). Its standard output is read and dropped (its end tells that the child ended), its
    /// standard error discarded.
    ///
    /// Awaiting the start matters: a test that then blocks its thread (reading a terminal) could
    /// otherwise hold the thread the start needs.
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async -> TestChild {
        let (started, running) = AsyncStream<Void>.makeStream()
        let child = TestChild(executable, arguments, environment: environment, running: running)
        for await _ in started {}
        return child
    }

    private init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        running: AsyncStream<Void>.Continuation
    ) {
        let (requests, signals) = AsyncStream<Int32>.makeStream()
        self.signals = signals
        var updates: [Environment.Key: String?] = [:]
        for (name, value) in environment {
            if let key = Environment.Key(rawValue: name) { updates[key] = value }
        }
        let options = Self.ownProcessGroup
        run = Task {
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(executable)), arguments: Arguments(arguments), environment: .inherit.updating(updates),
                    platformOptions: options, input: .none, output: .sequence, error: .discarded
                ) { execution in
                    running.finish()
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await signal in requests { try? execution.send(signal: Signal(rawValue: signal)) }
                        }
                        group.addTask {
                            do { for try await _ in execution.standardOutput {} } catch {}
                        }
                        await group.next()  // the output's end: the requests never end by themselves
                        group.cancelAll()
                    }
                }
                return Termination(result.terminationStatus)
            } catch {
                running.finish()
                return .notStarted("\(error)")
            }
        }
    }

    /// Sends `signal` to the child while it runs (through its process descriptor: never to a
    /// process that took its id after it ended).
    public func signal(_ signal: Int32) {
        signals.yield(signal)
    }

    /// Kills the child (SIGKILL) if it still runs; it is reaped in the background.
    public func stop() {
        run.cancel()
    }

    /// How the child ended; `nil` (and it is killed) when it takes longer than `seconds`, a hang
    /// guard against a child that would never end.
    public func wait(seconds: Double) async -> Termination? {
        let run = self.run
        return await withTaskGroup(of: Termination?.self) { group in
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
        let options = ownProcessGroup
        let run = Task {
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(executable)), arguments: Arguments(arguments), platformOptions: options,
                    output: .fileDescriptor(output, closeAfterSpawningProcess: true),
                    error: .fileDescriptor(errors, closeAfterSpawningProcess: true))
                return Termination(result.terminationStatus)
            } catch {
                return Termination.notStarted("\(error)")
            }
        }
        return await withTaskGroup(of: Termination?.self) { group in
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
