import ArgumentParser
import NotiplayCore
import NotiplayPlayback
import NotiplayViews
import NotiplayScript
import NotiplaySystem
import NotiplayTesting
import SystemPackage

/// `notiplay test`: runs playback scripts and reports each as a test case.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run playback scripts (*.playback) against real playback; exit 1 if any fails.",
        discussion: """
            A script is one step per line, paths relative to the script: it delivers \
            notifications (deliver PAYLOAD attach FILE), presses buttons (press play, action ID, \
            dismiss), waits (wait 1s, wait end, wait until EVENT) and checks the events, the \
            card on screen and the audio heard (expect event NAME, expect screen contains \
            "TEXT", expect heard >= 1.9s).

            Scripts run in worker processes (a fresh one after each script an extension \
            presented in), each on its own libmpv engine, as many at once as there are cores \
            (--jobs); one that runs past --timeout is stopped and reported, and one whose \
            extension crashes is reported with the signal, the extension and its last events \
            while the others go on. A folder runs every \
            *.playback file under it; links are followed, each folder and script once (by device \
            and inode), so a link back up the tree is no loop. Output: a summary on a terminal, \
            TAP otherwise or with --tap; --junit also writes JUnit XML. --untimed plays faster \
            than real time, except in scripts that check what is heard. What the extensions \
            print comes after the report, as TAP comments (# stdout: TEXT).
            """)

    @Argument(
        help: ArgumentHelp("A .playback script, or a folder of them.", valueName: "script-or-folder"),
        completion: .file(extensions: ["playback"]))
    var scripts: [String]

    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "path"), completion: .file())
    var junit: String?

    @Flag(help: "TAP output even on a terminal.")
    var tap = false

    @Flag(help: "Render audio faster than real time where nothing is heard.")
    var untimed = false

    @Option(seconds: "How long one script may run (default 60).")
    var timeout: Duration?

    @Option(
        help: ArgumentHelp("How many scripts run at once (default: the number of cores).", valueName: "n"),
        transform: ArgumentValue.jobs)
    var jobs: Int?

    @OptionGroup var media: MediaRootOptions

    func run() async throws {
        var paths: [String] = []
        for given in scripts {
            guard Path.exists(given) else { throw NotiplayError(.missingInput, file: given, "no such file or folder") }
            if Path.isDirectory(given) {
                let found = Self.scripts(under: given)
                if found.isEmpty { throw NotiplayError(.missingInput, file: given, "holds no .playback script") }
                paths += found
            } else {
                paths.append(given)
            }
        }
        let tapOutput = tap || !Posix.isTerminal(.standardOutput)
        // What the extensions print is kept until the report, which shows it as comments.
        let capture = OutputCapture.start(.collect, redirect: NotiplayCLI.ownsProcess)
        let mediaFolders = try media.folders()
        if let junit, Path.isDirectory(junit) { throw UsageError(file: junit, "--junit names a folder, not a file") }

        let parsed = paths.map(Self.load)
        // Every script plays: without libmpv none can run, which is not a failure of theirs.
        do { _ = try Libmpv.load() } catch { throw NotiplayError(.unavailable, "\(error)") }
        let results = await run(parsed, paths: paths, mediaFolders: mediaFolders)
        let printed = capture.finish()

        if let junit {
            guard Self.writeFile(junit, ScriptReport.junit(results)) else {
                throw NotiplayError(.unavailable, file: junit, "cannot be written")
            }
        }
        if tapOutput {
            _ = try? capture.standardOutput.writeAll((ScriptReport.tap(results) + Self.tapComments(printed)).utf8)
        } else {
            let summary = ScriptReport.summary(results, glyphs: GlyphSet.detect(environment: processEnvironment))
            _ = try? capture.standardOutput.writeAll((summary + Self.summaryLines(printed)).utf8)
        }
        if results.contains(where: { !$0.passed }) { throw ExitCode(ExitStatus.testFailures) }
    }

    /// Runs the scripts and returns their results in order: each in a worker process of its own
    /// (``ScriptWorkers``: a crash costs its script only) when the command line owns the process;
    /// otherwise (``NotiplayCLI/run(_:types:)`` called from Swift) here, side by side.
    func run(_ parsed: [Result<PlaybackScript, ScriptResult.Failure>], paths: [String], mediaFolders: [String]) async -> [ScriptResult] {
        var runner = Self.runner(untimed: untimed, timeout: timeout, mediaFolders: mediaFolders)
        if let jobs { runner.parallelism = jobs }
        var options = mediaFolders.flatMap { ["--media-root", $0] }
        if untimed { options.append("--untimed") }
        if NotiplayCLI.ownsProcess,
            let workers = ScriptWorkers(
                options: options, environment: processEnvironment, parallelism: runner.parallelism, timeLimit: runner.timeLimit)
        {
            return await workers.run(parsed, paths: paths)
        }
        return await runner.run(parsed, paths: paths)
    }

    /// The runner of `test`'s scripts (in a worker, of one): `untimed`, stopped after `timeout`
    /// (default 60 s), with local media from `mediaFolders` too.
    static func runner(untimed: Bool, timeout: Duration?, mediaFolders: [String]) -> ScriptRunner {
        var runner = ScriptRunner(types: NotiplayCLI.types, untimed: untimed)
        runner.makeCenter = { setup in try CenterScriptHost(setup) }
        runner.environment = hostEnvironment(mediaFolders: mediaFolders)
        if let timeout { runner.timeLimit = timeout }
        return runner
    }

    /// What the extensions printed while the scripts ran, as TAP comment lines after the report
    /// (scripts run side by side, so a line belongs to the run, not to one script).
    static func tapComments(_ printed: OutputCapture.Collected) -> String {
        guard !printed.lines.isEmpty else { return "" }
        var text = "# what the extensions printed (standard output and error, cleaned):\n"
        if printed.dropped > 0 { text += "# (\(printed.dropped) earlier lines not shown)\n" }
        for line in printed.lines { text += "# \(line.stream.rawValue): \(line.text)\n" }
        return text
    }

    /// The same after the summary on a terminal, indented.
    static func summaryLines(_ printed: OutputCapture.Collected) -> String {
        guard !printed.lines.isEmpty else { return "" }
        var text = "what the extensions printed:\n"
        if printed.dropped > 0 { text += "  (\(printed.dropped) earlier lines not shown)\n" }
        for line in printed.lines { text += "  \(line.stream.rawValue): \(line.text)\n" }
        return text
    }

    /// The script at `path`, or where and why it cannot be parsed (a failing test case).
    static func load(_ path: String) -> Result<PlaybackScript, ScriptResult.Failure> {
        do throws(ScriptError) {
            return .success(try ScriptParser.parse(contentsOf: path))
        } catch {
            return .failure(ScriptResult.Failure(line: error.line, column: error.column, message: error.message))
        }
    }

    /// Every `*.playback` file under `folder`, sorted, hidden names skipped, each folder walked
    /// once however many links lead to it (``ScriptFolderWalk``).
    static func scripts(under folder: String) -> [String] {
        Array(ScriptFolderWalk(folder))
    }

    /// Writes `text` to `path` (created or truncated, mode 0644); whether it worked.
    static func writeFile(_ path: String, _ text: String) -> Bool {
        let permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]
        guard
            let file = try? Posix.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: permissions)
        else { return false }
        defer { Posix.close(file) }
        return (try? file.writeAll(text.utf8)) != nil
    }
}
