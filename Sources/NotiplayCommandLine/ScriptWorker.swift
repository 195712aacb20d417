import NotiplaySystem
import NotiplayTesting
import SystemPackage

/// One script's worker process (``ScriptWorkerCommand``), from its start to its end, watched from
/// a thread of its own: it reads the worker's report (descriptor 3) and its standard error, passes
/// that error on to this process's own (where ``OutputCapture`` takes what the extensions print),
/// and kills the worker when it outlives its ``deadline``.
struct ScriptWorker: Sendable {
    /// The script's path, as `test` was given it.
    var path: String
    /// The worker's command line: the executable's path, then its arguments.
    var arguments: [String]
    var environment: [String: String]
    /// How long the worker may run before it is killed: the script's own limit (which the worker
    /// keeps) and a grace for a worker whose main thread no longer answers.
    var deadline: Duration
    /// The script's time limit, as the message of a worker killed says.
    var timeLimit: Duration

    /// Runs the worker to its end, blocking the calling thread, and returns the script's result.
    func run() -> ScriptResult {
        let started = ContinuousClock.now
        let report: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let errors: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let input: FileDescriptor
        let child: Int32
        do {
            report = try Posix.pipe()
            errors = try Posix.pipe()
            input = try Posix.open("/dev/null", .readOnly, options: [.closeOnExec])
            // The worker's ends block, as its writes to a terminal would.
            try Posix.setBlocking(report.writeEnd)
            try Posix.setBlocking(errors.writeEnd)
            child = try Posix.spawn(
                arguments[0], arguments: arguments, environment: environment,
                descriptors: [input, .standardOutput, errors.writeEnd, report.writeEnd])
        } catch {
            return ScriptResult(path: path, failure: .init(line: 0, column: 0, message: "cannot start its worker: \(error)"), seconds: 0)
        }
        Posix.close(input)
        Posix.close(report.writeEnd)
        Posix.close(errors.writeEnd)
        defer {
            Posix.close(report.readEnd)
            Posix.close(errors.readEnd)
        }

        var state = ScriptWorkerReport()
        var pending: [UInt8] = []
        var entries = [Posix.PollEntry(file: report.readEnd, events: .readable), Posix.PollEntry(file: errors.readEnd, events: .readable)]
        var killed: Duration?
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // Until the report's end: the worker exited (or closed it, dying).
        while entries[0].file.rawValue >= 0 {
            let left = deadline - (ContinuousClock.now - started)
            if left <= .zero && killed == nil {
                Posix.signal(process: child, Posix.killSignal)
                killed = timeLimit
            }
            guard (try? Posix.poll(&entries, timeout: killed == nil ? left : nil)) != nil else { continue }
            for index in entries.indices where !entries[index].found.isEmpty {
                guard let got = Self.read(entries[index].file, into: &buffer) else { continue }
                guard got > 0 else {
                    entries[index].file = FileDescriptor(rawValue: -1)
                    continue
                }
                if index == 0 {
                    pending += buffer[..<got]
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        if let frame = ScriptWorkerFrame(line: String(decoding: pending[..<newline], as: UTF8.self)) { state.take(frame) }
                        pending.removeSubrange(...newline)
                    }
                } else {
                    Self.passOn(buffer[..<got], &state)
                }
            }
        }
        let end = Posix.waitForEnd(child)
        // What it wrote to standard error before it ended (a program it started may still hold
        // the pipe open: read what is there, never wait for its end).
        if entries[1].file.rawValue >= 0 {
            while true {
                guard let got = Self.read(errors.readEnd, into: &buffer), got > 0 else { break }
                Self.passOn(buffer[..<got], &state)
            }
        }
        let d = ContinuousClock.now - started
        let seconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        return state.result(path: path, end: end, seconds: seconds, killed: killed)
    }

    /// Passes what the worker wrote to standard error on to this process's (the capture of what
    /// extensions print, in `test`), and keeps its fatal errors for the report.
    private static func passOn(_ bytes: ArraySlice<UInt8>, _ state: inout ScriptWorkerReport) {
        _ = try? Posix.writeAll(.standardError, Array(bytes))
        state.takeError(bytes)
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
