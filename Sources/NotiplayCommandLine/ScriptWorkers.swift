import NotiplayScript
import Synchronization
import NotiplaySystem
import NotiplayTesting

/// How `notiplay test` runs its scripts: in worker processes of this same executable
/// (``ScriptWorkerCommand``, `__run-script`), up to ``parallelism`` at once.
///
/// Extensions are code of the author's that runs in the process presenting their card; a crash
/// there (a Swift runtime trap, `abort()`, a bad access) ends that process. In its own worker,
/// a script's crash costs that script only: it is reported `not ok` with the signal, the
/// extension presenting, the step it was at and the last events the worker sent before it died
/// (events are sent as they are recorded), and the other scripts run on in other workers. A
/// worker runs the next script only when no extension of the tool's was made in it (the default
/// card only); otherwise it exits after the script, and the next one gets a fresh worker.
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
    /// go to a worker) and returns their results in the same order.
    func run(_ scripts: [Result<PlaybackScript, ScriptResult.Failure>], paths: [String]) async -> [ScriptResult] {
        // A worker that died makes the write of its next request fail (EPIPE), not end `test`.
        Posix.setDisposition(.ignore, for: SignalNumber.brokenPipe)
        let pool = Pool(count: scripts.count)
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func startNext() {
                guard next < scripts.count else { return }
                let index = next
                next += 1
                group.addTask { await self.run(scripts[index], index: index, path: paths[index], pool: pool) }
            }
            for _ in 0..<parallelism { startNext() }
            while await group.next() != nil { startNext() }
        }
        // The workers left waiting end with their input; one that ends badly (it ran only the
        // default card: notiplay's own fault) fails the last script it ran.
        for (worker, index) in pool.takeAll() {
            let end = await Self.onThread { worker.finish() }
            if let index, let ending = ScriptWorkerReport.abnormal(end) { pool.amend(index, with: "then \(ending), its worker idle") }
        }
        return pool.results()
    }

    private func run(_ script: Result<PlaybackScript, ScriptResult.Failure>, index: Int, path: String, pool: Pool) async {
        if case .failure(let failure) = script {
            pool.record(ScriptResult(path: path, failure: failure, seconds: 0), at: index)
            return
        }
        let arguments = [executable, Self.commandName] + options
        let environment = self.environment
        let deadline = timeLimit + Self.grace
        let timeLimit = self.timeLimit
        let spares = min(parallelism, pool.count - index - 1)
        // The worker is driven from a thread of its own: its reads and its wait block.
        let (result, kept) = await Self.onThread { () -> (ScriptResult, ScriptWorkerProcess?) in
            var reused: ScriptWorkerProcess?
            while reused == nil, let (idle, lastRan) = pool.takeIdle() {
                // One that ended while it waited (it ran only the default card: notiplay's own
                // fault) fails the script it ran last, never this one.
                guard case .some(let end) = idle.endedWhileIdle() else {
                    reused = idle
                    break
                }
                if let lastRan, let ending = ScriptWorkerReport.abnormal(end) { pool.amend(lastRan, with: "then \(ending), its worker idle") }
            }
            let worker: ScriptWorkerProcess
            if let reused {
                worker = reused
            } else {
                do {
                    worker = try ScriptWorkerProcess.start(arguments: arguments, environment: environment)
                } catch {
                    return (ScriptResult(path: path, failure: .init(line: 0, column: 0, message: "cannot start a worker: \(error)"), seconds: 0), nil)
                }
            }
            // Once scripts retire their workers (extensions present in them), a worker started now
            // loads libmpv while this script runs, and the next script finds it ready.
            if pool.retiring, pool.idleCount < spares,
                let spare = try? ScriptWorkerProcess.start(arguments: arguments, environment: environment)
            {
                pool.keep(spare, lastRan: nil)
            }
            let (result, alive) = worker.run(path: path, deadline: deadline, timeLimit: timeLimit)
            pool.retiring = !alive
            return (result, alive ? worker : nil)
        }
        pool.record(result, at: index)
        if let kept { pool.keep(kept, lastRan: index) }
    }

    /// Runs `body` on a thread of its own and returns what it returns.
    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            do {
                try SystemThread.detach(name: "script worker") { continuation.resume(returning: body()) }
            } catch {
                // No thread to spare: block one of the pool's for this worker.
                continuation.resume(returning: body())
            }
        }
    }

    /// The results so far, and the workers waiting for a script, each with the index of the
    /// script it ran last (`nil`: a spare, started ahead).
    final class Pool: Sendable {
        private let state: Mutex<(results: [ScriptResult?], idle: [(ScriptWorkerProcess, Int?)], retiring: Bool)>
        /// How many scripts there are.
        let count: Int

        init(count: Int) {
            self.count = count
            state = Mutex((Array(repeating: nil, count: count), [], false))
        }

        var idleCount: Int { state.withLock { $0.idle.count } }

        /// Whether the last script to end retired its worker (an extension presented in it): then
        /// spares are started ahead.
        var retiring: Bool {
            get { state.withLock { $0.retiring } }
            set { state.withLock { $0.retiring = newValue } }
        }

        func record(_ result: ScriptResult, at index: Int) { state.withLock { $0.results[index] = result } }

        /// Adds `then` to the message of the script at `index` (made a failure if it passed).
        func amend(_ index: Int, with then: String) {
            state.withLock { state in
                guard var result = state.results[index] else { return }
                var failure = result.failure ?? ScriptResult.Failure(line: 0, column: 0, message: "passed")
                failure.message += "; \(then)"
                result.failure = failure
                state.results[index] = result
            }
        }

        func keep(_ worker: ScriptWorkerProcess, lastRan index: Int?) { state.withLock { $0.idle.append((worker, index)) } }

        /// A waiting worker: the one that waited longest (a spare has loaded libmpv by now).
        func takeIdle() -> (ScriptWorkerProcess, Int?)? {
            state.withLock { $0.idle.isEmpty ? nil : $0.idle.removeFirst() }
        }

        func takeAll() -> [(ScriptWorkerProcess, Int?)] {
            state.withLock { state in
                defer { state.idle = [] }
                return state.idle
            }
        }

        func results() -> [ScriptResult] { state.withLock { $0.results.map { $0! } } }
    }
}
