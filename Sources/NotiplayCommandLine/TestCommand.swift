import NotiplayCore
import NotiplayViews
import NotiplayScript
import NotiplayTesting
import SystemPackage

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `notiplay test SCRIPT_OR_DIR... [--junit PATH] [--tap] [--untimed]`.
enum TestCommand {
    static let spec = CommandSpec(
        name: "test",
        abstract: "Run playback scripts (*.playback) against real playback; exit 1 if any fails.",
        discussion: """
            Each script delivers notifications to its extensions on its own libmpv engine, presses
            buttons and checks events, the card and the audio heard (SPEC §6). Scripts run side by
            side, as many as there are cores; one that runs past --timeout is stopped and reported.
            A folder runs every *.playback file under it. Output: a summary on a terminal, TAP
            otherwise or with --tap; --junit PATH also writes JUnit XML.
            --untimed plays faster than real time, except in scripts that check what is heard.
            """,
        positionals: [PositionalSpec(name: "SCRIPT_OR_DIR", help: "A .playback script, or a folder of them.", variadic: true)],
        options: [
            OptionSpec(name: "junit", value: "PATH", help: "Also write a JUnit XML report to PATH."),
            OptionSpec(name: "tap", value: nil, help: "TAP output even on a terminal."),
            OptionSpec(name: "untimed", value: nil, help: "Render audio faster than real time where nothing is heard."),
            OptionSpec(name: "timeout", value: "SECONDS", help: "How long one script may run (default 60)."),
            OptionSpec(name: "jobs", value: "N", help: "How many scripts run at once (default: the number of cores)."),
        ],
        run: { try await run($0) }
    )

    static func run(_ arguments: ParsedArguments) async throws {
        var paths: [String] = []
        for given in arguments.positionals {
            guard Path.exists(given) else { throw NotiplayError(.missingInput, file: given, "no such file or folder") }
            if Path.isDirectory(given) {
                let found = scripts(under: given)
                if found.isEmpty { throw NotiplayError(.missingInput, file: given, "holds no .playback script") }
                paths += found
            } else {
                paths.append(given)
            }
        }
        var runner = ScriptRunner(types: DeliverCommand.types, untimed: arguments.flag("untimed"))
        runner.environment = hostEnvironment()
        if let limit = try DeliverCommand.seconds(arguments, "timeout") { runner.timeLimit = limit }
        if let jobs = arguments.value("jobs") {
            guard let n = Int(jobs), (1...256).contains(n) else {
                throw UsageError("--jobs must be a number from 1 to 256, not '\(TerminalText.clean(jobs))'")
            }
            runner.parallelism = n
        }
        let junit = arguments.value("junit")
        if let junit, Path.isDirectory(junit) { throw UsageError(file: junit, "--junit names a folder, not a file") }

        let parsed = paths.map(load)
        let results = await runner.run(parsed, paths: paths)

        if let junit {
            guard writeFile(junit, ScriptReport.junit(results)) else {
                throw NotiplayError(.unavailable, file: junit, "cannot be written")
            }
        }
        if arguments.flag("tap") || isatty(1) != 1 {
            _ = try? FileDescriptor.standardOutput.writeAll(ScriptReport.tap(results).utf8)
        } else {
            _ = try? FileDescriptor.standardOutput.writeAll(ScriptReport.summary(results, glyphs: GlyphSet.detect(environment: processEnvironment)).utf8)
        }
        if results.contains(where: { !$0.passed }) { throw CommandExit(status: ExitStatus.testFailures) }
    }

    /// The script at `path`, or where and why it cannot be parsed (a failing test case).
    static func load(_ path: String) -> Result<PlaybackScript, ScriptResult.Failure> {
        do throws(ScriptError) {
            return .success(try ScriptParser.parse(contentsOf: path))
        } catch {
            return .failure(ScriptResult.Failure(line: error.line, column: error.column, message: error.message))
        }
    }

    /// Every `*.playback` file under `folder`, sorted, hidden folders skipped.
    static func scripts(under folder: String) -> [String] {
        var found: [String] = []
        for name in Path.entries(of: folder) ?? [] where !name.hasPrefix(".") {
            let path = Path.join(folder, name)
            if Path.isDirectory(path) {
                found += scripts(under: path)
            } else if name.hasSuffix(".playback") {
                found.append(path)
            }
        }
        return found
    }

    /// Writes `text` to `path` (created or truncated, mode 0644); whether it worked.
    static func writeFile(_ path: String, _ text: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return (try? FileDescriptor(rawValue: fd).writeAll(text.utf8)) != nil
    }
}
