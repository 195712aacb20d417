import ArgumentParser
import Dispatch
import Notiplay
import NotiplayScript
import NotiplaySystem
import NotiplayTesting
import SystemPackage

/// `notiplay __run-script`, run by `test` and not by people (hidden from the help): the worker
/// process one playback script runs in (``ScriptWorkers``). It runs the script as `test` runs
/// one, with the options `test` was given, and writes what happens to descriptor 3 as it happens,
/// one ``ScriptWorkerFrame`` a line: each step as it starts, each event as it is recorded, then
/// the result. Whatever the script's extensions do to this process — a Swift runtime trap,
/// `abort()`, a bad access — costs `test` this one script.
///
/// The script ends when its last step has run, its card has been closed (the extension's
/// controller released) and what the extension left on the main queue to run at once has run;
/// then the process exits, and work an extension scheduled for later (an `asyncAfter` due after
/// the script's end) ends with it, never run — as an iOS extension's process is ended with its
/// card.
struct ScriptWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ScriptWorkers.commandName,
        abstract: "Run one playback script for `test`, reporting on descriptor 3 (internal).",
        shouldDisplay: false)

    @Argument(help: "The .playback script.")
    var script: String

    @Flag(help: "Render audio faster than real time where nothing is heard.")
    var untimed = false

    @Option(seconds: "How long the script may run (default 60).")
    var timeout: Duration?

    @OptionGroup var media: MediaRootOptions

    func run() async throws {
        let channel = FileDescriptor(rawValue: ScriptWorkers.channel)
        guard Posix.isOpen(channel) else {
            throw UsageError("\(ScriptWorkers.commandName) is run by `test`, with descriptor \(ScriptWorkers.channel) open for its report")
        }
        // The programs an extension or an app command starts do not inherit the report.
        try? Posix.setCloseOnExec(channel)
        let writer = ScriptFrameWriter(channel)
        var runner = TestCommand.runner(untimed: untimed, timeout: timeout, mediaFolders: try media.folders())
        runner.progress = ScriptProgress(
            step: { writer.write(.step(line: $0.line, column: $0.column)) },
            event: { writer.write(.event($0.json)) },
            ended: { writer.write(.ended) })
        let result: ScriptResult
        switch TestCommand.load(script) {
        case .success(let parsed): result = await runner.run(parsed)
        case .failure(let failure): result = ScriptResult(path: script, failure: failure, seconds: 0)
        }
        // What the extension queued to run at once (from its deinit, its last calls) runs now,
        // within the script: a crash there is still charged to it.
        for _ in 0..<2 { await Self.mainQueueTurn() }
        writer.write(.result(result.failure.map(ScriptWorkerFrame.Failure.init)))
    }

    /// Returns once the blocks queued on the main queue before it have run.
    @MainActor
    static func mainQueueTurn() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
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
