import ArgumentParser
import Dispatch
import Notiplay
import NotiplayPlayback
import NotiplayScript
import NotiplaySystem
import NotiplayTesting
import Synchronization
import SystemPackage

/// `notiplay __run-script`, run by `test` and not by people (hidden from the help): a worker
/// process that playback scripts run in (``ScriptWorkers``). It reads a script's path from its
/// standard input (a ``ScriptWorkerFrame/request(_:)`` line), runs the script as `test` runs one,
/// with the options `test` was given, and writes what happens to descriptor 3 as it happens, one
/// ``ScriptWorkerFrame`` a line: each step as it starts, each event as it is recorded, the end of
/// the steps, then the result. Whatever the script's extensions do to this process — a Swift
/// runtime trap, `abort()`, a bad access — costs `test` this one script.
///
/// A script ends when its last step has run, its card has been closed (the extension's
/// controller released) and the main queue has had two turns (what the extension queued to run
/// at once has run). If an extension of the tool's was made during the script, the worker then
/// exits, and work an extension scheduled for later (an `asyncAfter` due after the script's end)
/// ends with it, never run — as an iOS extension's process ends with its card — so nothing of
/// one script's extensions can crash while another runs. A worker in which only the built-in
/// default card presented waits for the next script (its end of input ends it); so does one
/// whose tool registered no service extension of its own only.
struct ScriptWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ScriptWorkers.commandName,
        abstract: "Run playback scripts for `test`: paths on standard input, reports on descriptor 3 (internal).",
        shouldDisplay: false)

    @Flag(help: "Render audio faster than real time where nothing is heard.")
    var untimed = false

    @Option(seconds: "How long a script may run (default 60).")
    var timeout: Duration?

    @OptionGroup var media: MediaRootOptions

    func run() async throws {
        let channel = FileDescriptor(rawValue: ScriptWorkers.channel)
        guard Posix.isOpen(channel) else {
            throw UsageError("\(ScriptWorkers.commandName) is run by `test`, with descriptor \(ScriptWorkers.channel) open for its report")
        }
        // The programs an extension or an app command starts do not inherit the report.
        try? Posix.setCloseOnExec(channel)
        // While it waits for its first script (a worker is started ahead of need).
        Libmpv.preload()
        let writer = ScriptFrameWriter(channel)
        let made = ExtensionsMade()
        var runner = TestCommand.runner(untimed: untimed, timeout: timeout, mediaFolders: try media.folders())
        runner.types = made.watching(NotiplayCLI.types)
        // A service extension of the tool's own is not watched: then every script has a worker.
        let ownServices = NotiplayCLI.types.serviceNames.contains { $0 != MediaAttachmentService.typeName }
        runner.progress = ScriptProgress(
            step: { writer.write(.step(line: $0.line, column: $0.column)) },
            event: { writer.write(.event($0.json)) },
            ended: { writer.write(.ended) })
        let requests = ScriptRequests()
        while let script = await requests.next() {
            made.any = false
            let result: ScriptResult
            switch TestCommand.load(script) {
            case .success(let parsed): result = await runner.run(parsed)
            case .failure(let failure): result = ScriptResult(path: script, failure: failure, seconds: 0)
            }
            // What the extension queued to run at once (from its deinit, its last calls) runs now,
            // within the script: a crash there is still charged to it.
            for _ in 0..<2 { await Self.mainQueueTurn() }
            let reusable = !made.any && !ownServices
            writer.write(.result(.init(failure: result.failure.map(ScriptWorkerFrame.Failure.init), reusable: reusable)))
            if !reusable { return }
        }
    }

    /// Returns once the blocks queued on the main queue before it have run.
    @MainActor
    static func mainQueueTurn() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }
}

/// Whether an extension of the tool's (any registered content extension but the built-in default
/// card) was made since ``any`` was last cleared.
final class ExtensionsMade: Sendable {
    private let made = Mutex(false)

    var any: Bool {
        get { made.withLock { $0 } }
        set { made.withLock { $0 = newValue } }
    }

    /// `types` with each content extension but the default card noting here when it is made.
    func watching(_ types: ExtensionTypes) -> ExtensionTypes {
        var watched = types
        for name in types.names where name != DefaultContentExtension.typeName {
            guard let make = types.factory(for: name) else { continue }
            watched.register(as: name) { [self] in
                any = true
                return make()
            }
        }
        return watched
    }
}

/// The scripts' paths `test` sends on standard input, one request line each; read on a thread of
/// its own, one request at a time (the worker asks for the next once a script has ended).
final class ScriptRequests: @unchecked Sendable {
    // Used by one request at a time: ``next()`` is awaited before it is called again.
    private var pending: [UInt8] = []
    private var ended = false

    /// The next script's path; `nil` at the end of input.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            do {
                try SystemThread.detach(name: "script requests") { continuation.resume(returning: self.read()) }
            } catch {
                continuation.resume(returning: nil)
            }
        }
    }

    private func read() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                guard case .request(let path)? = ScriptWorkerFrame(line: line) else { continue }
                return path
            }
            guard !ended else { return nil }
            let got = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemCallError) in try Posix.read(.standardInput, into: bytes) }
            }
            switch got {
            case .success(let count) where count > 0: pending += buffer[..<count]
            default: ended = true
            }
        }
    }
}

/// Writes frames to a worker's report descriptor, each a line written at once (a crash right
/// after loses none of them).
final class ScriptFrameWriter: Sendable {
    private let file: FileDescriptor

    init(_ file: FileDescriptor) { self.file = file }

    func write(_ frame: ScriptWorkerFrame) {
        // A parent gone is nobody left to tell: the write fails (or SIGPIPE ends the worker).
        _ = try? Posix.writeAll(file, Array((frame.line + "\n").utf8))
    }
}
