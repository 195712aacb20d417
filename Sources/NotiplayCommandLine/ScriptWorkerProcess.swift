import NotiplaySystem
import Synchronization
import NotiplayTesting
import SystemPackage

/// A worker process of `test` (``ScriptWorkerCommand``), from its start to its end, driven by one
/// thread at a time (``ScriptWorkers`` hands it out; it is `@unchecked Sendable` for that hand-over
/// only): it is given a script's path on its standard input, and its report (descriptor 3) and
/// standard error are read until the script's result. Its standard error is passed on to this
/// process's own, where ``OutputCapture`` takes what the extensions print.
final class ScriptWorkerProcess: @unchecked Sendable {
    private let child: Int32
    /// The worker's standard input: the scripts' paths, a JSON string a line.
    private var input: FileDescriptor?
    private var entries: [Posix.PollEntry]
    private var pending: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    /// What was read of the script running (or of the last one).
    private var state = ScriptWorkerReport()

    private init(child: Int32, input: FileDescriptor, report: FileDescriptor, errors: FileDescriptor) {
        self.child = child
        self.input = input
        entries = [Posix.PollEntry(file: report, events: .readable), Posix.PollEntry(file: errors, events: .readable)]
    }

    deinit {
        if let input { Posix.close(input) }
        for entry in entries where entry.file.rawValue >= 0 { Posix.close(entry.file) }
    }

    /// Held while a worker's pipes are made and it is started: workers are started from several
    /// threads at once, and `pipe` then `FD_CLOEXEC` is two steps (Glibc's module has no
    /// `pipe2`); a worker started between them would inherit another's end, and keep that pipe
    /// from ever ending (its worker would wait for a script forever).
    private static let starting = Mutex(())

    /// Starts a worker: `arguments` (the executable's path first) and `environment`.
    static func start(arguments: [String], environment: [String: String]) throws(SystemCallError) -> ScriptWorkerProcess {
        let started = starting.withLock { _ in
            Result { () throws(SystemCallError) in try startLocked(arguments: arguments, environment: environment) }
        }
        return try started.get()
    }

    private static func startLocked(arguments: [String], environment: [String: String]) throws(SystemCallError) -> ScriptWorkerProcess {
        // Our ends are read after a poll (non-blocking); the worker's block, as its reads and
        // writes of a terminal would.
        let paths = try Posix.pipe()
        let report = try Posix.pipe()
        let errors = try Posix.pipe()
        for end in [paths.readEnd, paths.writeEnd, report.writeEnd, errors.writeEnd] { try Posix.setBlocking(end) }
        defer { for end in [paths.readEnd, report.writeEnd, errors.writeEnd] { Posix.close(end) } }
        let child: Int32
        do {
            child = try Posix.spawn(
                arguments[0], arguments: arguments, environment: environment,
                descriptors: [paths.readEnd, .standardOutput, errors.writeEnd, report.writeEnd])
        } catch {
            for end in [paths.writeEnd, report.readEnd, errors.readEnd] { Posix.close(end) }
            throw error
        }
        return ScriptWorkerProcess(child: child, input: paths.writeEnd, report: report.readEnd, errors: errors.readEnd)
    }

    /// Whether a worker waiting for a script has ended meanwhile (it is reaped): `nil` while it
    /// waits, else how it ended.
    func endedWhileIdle() -> Posix.ChildEnd?? {
        readOnce(timeout: .zero)
        guard entries[0].file.rawValue < 0 else { return nil }
        return .some(finish())
    }

    /// Runs the script at `path` and returns its result, blocking the calling thread; `alive`:
    /// the worker waits for another script. A worker that outlives `deadline` is killed and the
    /// script reported timed out after `timeLimit`.
    func run(path: String, deadline: Duration, timeLimit: Duration) -> (result: ScriptResult, alive: Bool) {
        let started = ContinuousClock.now
        state = ScriptWorkerReport()
        let request = ScriptWorkerFrame.request(path).line + "\n"
        guard let input, (try? Posix.writeAll(input, Array(request.utf8))) != nil else {
            return (finishDead(path: path, started: started, killed: nil), false)
        }
        var killed: Duration?
        while entries[0].file.rawValue >= 0 {
            if case .some(let reported) = state.result {
                if reported.reusable { return (state.result(path: path, end: .exited(0), seconds: Self.seconds(since: started)), true) }
            }
            let left = deadline - (ContinuousClock.now - started)
            if left <= .zero && killed == nil {
                Posix.signal(process: child, Posix.killSignal)
                killed = timeLimit
            }
            readOnce(timeout: killed == nil ? left : nil)
        }
        // The report ended: the worker exited, by itself after a script that presented an
        // extension, or dying.
        return (finishDead(path: path, started: started, killed: killed), false)
    }

    /// Ends a worker waiting for a script: closes its standard input and waits for its end.
    /// - Returns: How it ended.
    func finish() -> Posix.ChildEnd? {
        if let input { Posix.close(input) }
        input = nil
        while entries[0].file.rawValue >= 0 { readOnce(timeout: nil) }
        return wait()
    }

    /// Waits for the ended worker and reports the script.
    private func finishDead(path: String, started: ContinuousClock.Instant, killed: Duration?) -> ScriptResult {
        if let input { Posix.close(input) }
        input = nil
        while entries[0].file.rawValue >= 0 { readOnce(timeout: nil) }
        let end = wait()
        return state.result(path: path, end: end, seconds: Self.seconds(since: started), killed: killed)
    }

    /// Reaps the worker, then takes what its standard error still holds (a program it started
    /// may keep that pipe open: read what is there, never wait for its end).
    private func wait() -> Posix.ChildEnd? {
        let end = Posix.waitForEnd(child)
        if entries[1].file.rawValue >= 0 {
            while let got = Self.read(entries[1].file, into: &buffer), got > 0 { passOn(got) }
        }
        return end
    }

    /// Waits until the report or standard error can be read (or `timeout` passes) and takes what
    /// they hold; a pipe at its end is closed.
    private func readOnce(timeout: Duration?) {
        guard (try? Posix.poll(&entries, timeout: timeout)) != nil else { return }
        for index in entries.indices where !entries[index].found.isEmpty {
            guard let got = Self.read(entries[index].file, into: &buffer) else { continue }
            guard got > 0 else {
                Posix.close(entries[index].file)
                entries[index].file = FileDescriptor(rawValue: -1)
                continue
            }
            if index == 1 {
                passOn(got)
                continue
            }
            pending += buffer[..<got]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                if let frame = ScriptWorkerFrame(line: String(decoding: pending[..<newline], as: UTF8.self)) { state.take(frame) }
                pending.removeSubrange(...newline)
            }
        }
    }

    /// Passes the first `count` bytes of the buffer, read from the worker's standard error, on to
    /// this process's (the capture of what extensions print, in `test`), keeping its fatal errors.
    private func passOn(_ count: Int) {
        _ = try? Posix.writeAll(.standardError, Array(buffer[..<count]))
        state.takeError(buffer[..<count])
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// One read of `file` (non-blocking): the byte count, 0 at its end (or an error); `nil` when
    /// nothing is there yet.
    private static func read(_ file: FileDescriptor, into buffer: inout [UInt8]) -> Int? {
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SystemCallError) in try Posix.read(file, into: bytes) }
        }
        switch result {
        case .success(let count): return count
        case .failure(let error): return error.errno == .resourceTemporarilyUnavailable ? nil : 0
        }
    }
}
