import NotiplayScript
import NotiplaySystem
import NotiplayTesting

/// How `notiplay test` runs its scripts: each in a worker process of this same executable
/// (``ScriptWorkerCommand``, `__run-script`), up to ``parallelism`` at once.
///
/// Extensions are code of the author's that runs in the process presenting their card; a crash
/// there (a Swift runtime trap, `abort()`, a bad access) ends that process. In its own worker,
/// a script's crash costs that script only: it is reported `not ok` with the signal, the
/// extension presenting, the step it was at and the last events the worker sent before it died
/// (events are sent as they are recorded), and the other scripts run on, each in a fresh worker.
/// The executable is the one running (an author's tool included: it has the author's extension
/// types), found through `/proc/self/exe`.
struct ScriptWorkers: Sendable {
    /// The hidden command a worker runs.
    static let commandName = "__run-script"
    /// The descriptor a worker writes its report to.
    static let channel: Int32 = 3
    /// How long a worker may run past its script's time limit before it is killed: the worker
    /// stops its script at the limit itself, unless an extension holds its main thread.
    static let grace: Duration = .seconds(30)

    /// The executable's path.
    var executable: String
    /// The options `test` was given that a worker needs (`--untimed`, `--media-root`, and the
    /// time limit as `--timeout`), before `--` and the script's path on its command line.
    var options: [String]
    /// The workers' environment.
    var environment: [String: String]
    /// How many workers run at once.
    var parallelism: Int
    /// How long one script may run.
    var timeLimit: Duration

    /// The workers for the executable running, with `options` and `environment` (in which Swift's
    /// backtracer is off unless `SWIFT_BACKTRACE` says otherwise: its report of a crash takes
    /// seconds, and the runtime's own `Fatal error:` line says what trapped); `nil` when the
    /// executable cannot be found.
    init?(options: [String], environment: [String: String], parallelism: Int, timeLimit: Duration) {
        guard let executable = Posix.executablePath else { return nil }
        self.executable = executable
        let (seconds, attoseconds) = timeLimit.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        self.options = options + ["--timeout", "\(Double(milliseconds) / 1000)"]
        var environment = environment
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        self.environment = environment
        self.parallelism = max(1, parallelism)
        self.timeLimit = timeLimit
    }

    /// Runs `scripts` (already parsed, or the reason each could not be; only the parsed ones
    /// start a worker) and returns their results in the same order.
    func run(_ scripts: [Result<PlaybackScript, ScriptResult.Failure>], paths: [String]) async -> [ScriptResult] {
        var results = [ScriptResult?](repeating: nil, count: scripts.count)
        await withTaskGroup(of: (Int, ScriptResult).self) { group in
            var next = 0
            func startNext() {
                guard next < scripts.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await self.run(scripts[index], path: paths[index])) }
            }
            for _ in 0..<parallelism { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                startNext()
            }
        }
        return results.map { $0! }
    }

    private func run(_ script: Result<PlaybackScript, ScriptResult.Failure>, path: String) async -> ScriptResult {
        if case .failure(let failure) = script { return ScriptResult(path: path, failure: failure, seconds: 0) }
        let worker = ScriptWorker(
            path: path, arguments: [executable, Self.commandName] + options + ["--", path], environment: environment,
            deadline: timeLimit + Self.grace, timeLimit: timeLimit)
        // The worker is watched from a thread of its own: its reads and its wait block.
        return await withCheckedContinuation { continuation in
            do {
                try SystemThread.detach(name: "script worker") { continuation.resume(returning: worker.run()) }
            } catch {
                let failure = ScriptResult.Failure(line: 0, column: 0, message: "cannot watch its worker: \(error)")
                continuation.resume(returning: ScriptResult(path: path, failure: failure, seconds: 0))
            }
        }
    }
}
