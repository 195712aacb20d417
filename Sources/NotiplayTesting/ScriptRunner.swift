import NotiplayCore
import NotiplayViews
import Notiplay
public import NotiplayScript

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// How one script went.
public struct ScriptResult: Sendable {
    /// The script's path as given.
    public var path: String
    /// Where and why it failed; `nil` when it passed.
    public var failure: Failure?
    /// Wall-clock seconds it took.
    public var seconds: Double

    /// Whether every step held.
    public var passed: Bool { failure == nil }

    /// The result of the script at `path`: `failure`, or `nil` when it passed.
    public init(path: String, failure: Failure?, seconds: Double) {
        self.path = path
        self.failure = failure
        self.seconds = seconds
    }

    /// A failed step.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The step's line (0 when the script could not be read).
        public var line: Int
        /// The step's column.
        public var column: Int
        /// What was wrong.
        public var message: String
        /// The last events before the failure (at most ten), as JSON lines.
        public var lastEvents: [String]
        /// The card's rows, top to bottom, when an `expect screen` step failed; empty otherwise.
        public var screen: [String]

        /// A failure at `line`:`column`.
        public init(line: Int, column: Int, message: String, lastEvents: [String] = [], screen: [String] = []) {
            self.line = line
            self.column = column
            self.message = message
            self.lastEvents = lastEvents
            self.screen = screen
        }

        /// `line:column: message`.
        public var description: String { "\(line):\(column): \(message)" }
    }
}

/// Runs playback scripts (`.playback` files) on ``NotificationTestHost``s: each script with its
/// own libmpv engine and session, several at once.
public struct ScriptRunner: Sendable {
    /// The extension types scripts can present with.
    public var types: ExtensionTypes
    /// Whether scripts that do not measure what is heard play faster than real time. Scripts with
    /// `expect heard` always play in real time: heard is what a listener hears.
    public var untimed: Bool
    /// How long one script may run before it is stopped and reported.
    public var timeLimit: Duration
    /// How many scripts run at once.
    public var parallelism: Int
    /// The clock time limits and script waits are measured on: the system's, or — to test the
    /// runner itself — a clock that moves only when the test says.
    public var clock: any Clock<Duration> = ContinuousClock()
    /// What the scripts' sessions take from the process: the variables of the programs they
    /// start, the media cache, the app command's output. Empty by default (no media cache).
    package var environment = HostEnvironment()
    /// Makes the center of a script's `serve` step; `nil`: scripts that `serve` fail, saying so.
    package var makeCenter: (@MainActor @Sendable (ScriptCenterSetup) throws -> any ScriptCenter)?
    /// Told each step as it starts and each event as it is recorded (`notiplay test` streams them
    /// from a script's worker process); `nil`: nobody is told.
    package var progress: ScriptProgress?

    /// A runner; by default timed, one minute a script, as many at once as there are cores.
    public init(
        types: ExtensionTypes = ExtensionTypes(), untimed: Bool = false, timeLimit: Duration = .seconds(60),
        parallelism: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.types = types
        self.untimed = untimed
        self.timeLimit = timeLimit
        self.parallelism = max(1, parallelism)
    }

    /// Runs `scripts` (already parsed, or the reason each could not be) and returns their results
    /// in the same order.
    @MainActor
    public func run(_ scripts: [Result<PlaybackScript, ScriptResult.Failure>], paths: [String]) async -> [ScriptResult] {
        let board = ResultBoard(count: scripts.count)
        let workers = (0..<min(parallelism, scripts.count)).map { _ in
            Task { @MainActor in
                while let index = board.take() {
                    board.results[index] = await self.run(scripts[index], path: paths[index])
                }
            }
        }
        for worker in workers { await worker.value }
        return board.results.map { $0! }
    }

    @MainActor
    private func run(_ entry: Result<PlaybackScript, ScriptResult.Failure>, path: String) async -> ScriptResult {
        do {
            return await run(try entry.get())
        } catch {
            return ScriptResult(path: path, failure: error, seconds: 0)
        }
    }

    /// Runs one script and returns how it went; stops it after ``timeLimit``.
    @MainActor
    public func run(_ script: PlaybackScript) async -> ScriptResult {
        let started = ContinuousClock.now
        let execution = ScriptExecution(script: script, runner: self)
        let limit = timeLimit
        let clock = self.clock
        var steps: Task<Void, Never>?
        var timer: Task<Void, Never>?
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let gate = OutcomeGate(continuation)
            steps = Task { @MainActor in gate.resume(.finished(await execution.run())) }
            timer = Task { @MainActor in
                do { try await clock.sleep(for: limit) } catch { return }
                gate.resume(.timedOut)
            }
        }
        // The loser stops: a script past its limit is cancelled at the step it is on (its waits
        // end), and a script that finished leaves no timer behind.
        steps?.cancel()
        timer?.cancel()
        let failure: ScriptResult.Failure? =
            switch outcome {
            case .finished(let failure): failure
            case .timedOut: execution.timedOut(after: limit)
            }
        progress?.ended()
        await execution.close()
        return ScriptResult(path: script.path, failure: failure, seconds: seconds(since: started))
    }

    private func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// How a script run ended.
enum Outcome: Sendable {
    case finished(ScriptResult.Failure?)
    case timedOut
}

/// Lets the first of a script's end and its time limit through.
@MainActor
final class OutcomeGate {
    private var continuation: CheckedContinuation<Outcome, Never>?

    init(_ continuation: CheckedContinuation<Outcome, Never>) { self.continuation = continuation }

    func resume(_ outcome: Outcome) {
        continuation?.resume(returning: outcome)
        continuation = nil
    }
}

/// The scripts still to run, and the results so far.
@MainActor
final class ResultBoard {
    var results: [ScriptResult?]
    private var next = 0

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func take() -> Int? {
        guard next < results.count else { return nil }
        defer { next += 1 }
        return next
    }
}
