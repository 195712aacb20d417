import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What an extension prints (Tests/PrintProbe: `print` and `fputs(stderr)` in `didReceive`,
/// `mediaPlay` and at the end of the audio, an escape sequence and an unfinished line among them)
/// never breaks notiplay's machine-readable output: in `--events jsonl` it becomes `log` events,
/// in TAP comments, and on a terminal it waits until the card is gone.
@Suite("what extensions print: log events, TAP comments, after the card", .tags(.endToEnd))
struct ExtensionOutputTests {
    let scratch: URL
    /// The folder holding `Printing.appex`, whose Info.plist maps the category `printing` to the
    /// probe's `Printing.PrintingViewController`.
    let extensions: String
    /// A payload of the category `printing`, titled "Printer".
    let payload: String

    init() throws {
        scratch = try E2E.scratch()
        let bundle = scratch.appendingPathComponent("Extensions/Printing.appex")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Self.infoPlist.write(to: bundle.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        extensions = scratch.appendingPathComponent("Extensions").path
        payload = scratch.appendingPathComponent("printing.apns").path
        try #"{"aps": {"alert": {"title": "Printer"}, "category": "printing"}}"#.write(toFile: payload, atomically: true, encoding: .utf8)
    }

    static let infoPlist = ExtensionPlist.content(category: "printing", principalClass: "PrintingViewController")

    /// What the probe prints, cleaned: (stream, text).
    static let printed: [(String, String)] = [
        ("stdout", "didReceive: Printer"), ("stdout", #"{"event":"forged","t":0}"#), ("stderr", "didReceive on stderr red"),
        ("stdout", "unfinished line, finished in mediaPlay"), ("stdout", "mediaPlay"), ("stderr", "mediaPlay on stderr"),
        ("stdout", "finished playing"),
    ]

    static func probe(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try AppProgramTests.program("notiplay-print-probe", sourceLocation: sourceLocation)
    }

    /// The texts of the `log` events, as (stream, text).
    static func logs(_ events: [[String: Any]]) -> [(String, String)] {
        events.filter { $0["event"] as? String == "log" }.map { ($0["stream"] as? String ?? "?", $0["text"] as? String ?? "?") }
    }

    /// The texts of `lines` on `stream`, in order.
    static func texts(_ lines: [(String, String)], _ stream: String) -> [String] {
        lines.filter { $0.0 == stream }.map(\.1)
    }

    /// Where the first event line satisfying `matches` is.
    static func index(_ events: [[String: Any]], _ matches: ([String: Any]) -> Bool) -> Int? {
        events.firstIndex(where: matches)
    }

    static func log(_ text: String) -> ([String: Any]) -> Bool {
        { $0["event"] as? String == "log" && $0["text"] as? String == text }
    }

    static func event(_ name: String) -> ([String: Any]) -> Bool {
        { $0["event"] as? String == name }
    }

    @Test("deliver --headless --events jsonl: every line is JSON; what the extension printed is log events, in place among the events")
    func deliverJSONLines() async throws {
        defer { E2E.remove(scratch) }
        let result = try await run(
            try Self.probe(),
            ["deliver", payload, "--extensions", extensions, "--attach", E2E.media("chime.wav"), "--headless",
             "--keys", "space ~end q", "--events", "jsonl", "--audio", "null", "--untimed"])
        #expect(result.status == 0, "\(result)")
        let events = eventLines(result.stdoutText)
        let logs = Self.logs(events)
        // In order on each stream (between the two, order holds across events only).
        for stream in ["stdout", "stderr"] {
            #expect(Self.texts(logs, stream) == Self.texts(Self.printed, stream), "\(stream): \(result)")
        }
        #expect(!result.stdoutText.contains("\u{1B}"), "escape sequences are cleaned away")
        // Printed before an event was recorded: before its line.
        let order: [(String, ([String: Any]) -> Bool, ([String: Any]) -> Bool)] = [
            ("didReceive's print, the media button's press", Self.log("didReceive: Printer"), Self.event("mediaPlay")),
            ("mediaPlay's print, the start it asked for", Self.log("mediaPlay on stderr"), Self.event("mediaPlayingStarted")),
            ("the print at the end, the pause reported after it", Self.log("finished playing"), Self.event("mediaPlayingPaused")),
        ]
        for (what, first, then) in order {
            let a = Self.index(events, first), b = Self.index(events, then)
            #expect(a != nil && b != nil && a! < b!, "\(what): \(result)")
        }
        let times = events.compactMap { $0["t"] as? Double }
        #expect(times == times.sorted(), "t never decreases: \(result)")
        #expect(result.stderr.isEmpty, "nothing the extension printed reaches standard error: \(result)")
    }

    @Test("deliver with standard output a pipe: the card once, then the events with the log lines, readable")
    func deliverPlain() async throws {
        defer { E2E.remove(scratch) }
        let result = try await run(
            try Self.probe(),
            ["deliver", payload, "--extensions", extensions, "--keys", "q", "--audio", "null"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let cardEnd = try #require(lines.firstIndex { $0.hasPrefix("└") }, "\(result)")
        let received = try #require(lines.firstIndex { $0.contains("  didReceive  ") }, "\(result)")
        let printed = try #require(lines.firstIndex { $0.contains("  log  stream=stdout  text=didReceive: Printer") }, "\(result)")
        #expect(cardEnd < received && received < printed, "\(result)")
        #expect(lines.contains { $0.contains("  log  stream=stderr  text=didReceive on stderr red") }, "\(result)")
        #expect(lines.last?.contains("  log  stream=stdout  text=unfinished") == true, "the unfinished line, at the end: \(result)")
        #expect(!result.stdoutText.contains("\u{1B}") && result.stderr.isEmpty, "\(result)")
    }

    @Test("test: every line of the TAP output is TAP; what the extension printed is comments")
    func testTAP() async throws {
        defer { E2E.remove(scratch) }
        let script = scratch.appendingPathComponent("prints.playback")
        try """
            extensions Extensions
            deliver printing.apns attach \(E2E.media("chime.wav"))
            press play
            wait end
            expect screen contains "printing"
            """.write(to: script, atomically: true, encoding: .utf8)
        let result = try await run(try Self.probe(), ["test", script.path, "--untimed", "--jobs", "1"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(Self.tapProblems(lines).isEmpty, "\(Self.tapProblems(lines)): \(result)")
        for (stream, text) in Self.printed {
            #expect(lines.contains("# \(stream): \(text)"), "\(stream): \(text) in \(result)")
        }
        #expect(!result.stdoutText.contains("\u{1B}") && result.stderr.isEmpty, "\(result)")
    }

    /// The lines of `lines` that TAP 13 does not allow: a version line, a plan, test points, `#`
    /// comments, and YAML blocks (`  ---` to `  ...`, indented) after a test point.
    static func tapProblems(_ lines: [String]) -> [String] {
        var problems: [String] = []
        var inBlock = false
        for (number, line) in lines.enumerated() {
            if inBlock {
                if line == "  ..." { inBlock = false } else if !line.hasPrefix("  ") { problems.append(line) }
                continue
            }
            let ok =
                (number == 0 && line == "TAP version 13") || line.wholeMatch(of: /1\.\.\d+/) != nil
                || line.wholeMatch(of: /(not )?ok \d+( - .*)?/) != nil || line.hasPrefix("#")
            if line == "  ---" { inBlock = true } else if !ok { problems.append(line) }
        }
        return problems
    }

    @Test("serve --headless --events jsonl: an extension's prints are log events, the unfinished one too when the server ends")
    func serveJSONLines() async throws {
        defer { E2E.remove(scratch) }
        var environment = E2E.childEnvironment
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = scratch.appendingPathComponent("config").path
        let runtime = "/tmp/npo-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        environment["XDG_RUNTIME_DIR"] = runtime
        let app = scratch.appendingPathComponent("Printer.app.json")
        try #"{"name": "Printer", "extensions": "Extensions", "categories": [{"identifier": "printing"}]}"#
            .write(to: app, atomically: true, encoding: .utf8)
        let probe = try Self.probe()
        let server = ChildProcess(probe, ["serve", "--headless", "--events", "jsonl", "--audio", "null", "--app", app.path], environment: environment)
        try await server.start()
        defer { server.send(SIGKILL) }
        let started = await server.send(0, whenStdout: { String(decoding: $0, as: UTF8.self).contains(#""event":"shown""#) }, timeout: hangGuard)
        try #require(started != nil, "the server did not start")
        let sent = try await run(probe, ["send", payload, "--app", "Printer"], environment: environment)
        #expect(sent.status == 0, "\(sent)")
        let stopped = await server.send(
            SIGTERM, whenStdout: { String(decoding: $0, as: UTF8.self).contains(#""text":"didReceive on stderr red""#) }, timeout: hangGuard)
        try #require(stopped != nil, "the extension's output never came as log events")
        let result = try await server.finish(timeout: hangGuard)
        #expect(result.status == 128 + SIGTERM, "\(result)")
        let logs = Self.logs(eventLines(result.stdoutText))
        #expect(Self.texts(logs, "stdout") == ["didReceive: Printer", #"{"event":"forged","t":0}"#, "unfinished"], "\(result)")
        #expect(Self.texts(logs, "stderr") == ["didReceive on stderr red"], "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("In a terminal the card is not written over: what the extension printed comes on standard error after it")
    func terminalCard() async throws {
        defer { E2E.remove(scratch) }
        let pane = try await TmuxPane()
        let command = [try Self.probe(), "deliver", payload, "--extensions", extensions, "--audio", "null"].map(E2E.shellQuoted)
        try await pane.type(command.joined(separator: " ") + "; echo \"EXIT=$?\"")
        let card = try await pane.expectScreen("the card never showed") { $0.contains("printing") && $0.contains("Printer") }
        #expect(card.map { !$0.contains("didReceive") } == true, "\(card ?? "")")
        try await pane.keys("q")
        let after = try #require(try await pane.expectScreen("the probe did not end") { TerminalCardTests.exitLine($0) != nil })
        #expect(TerminalCardTests.exitLine(after) == "EXIT=0", "\(after)")
        let transcript = try await pane.transcript()
        for line in [
            "notiplay-print-probe: stdout: didReceive: Printer", "notiplay-print-probe: stderr: didReceive on stderr red",
            "notiplay-print-probe: stdout: unfinished",
        ] {
            #expect(transcript.contains(line), "\(line) in \(transcript)")
        }
    }
}

/// An author's tool (the probe) speaks under its own name, and says when its types go unused.
@Suite("an author's tool: its own name, its unused types", .tags(.endToEnd))
struct AuthorToolTests {
    @Test("--help, usage errors and messages name the tool, not notiplay")
    func ownName() async throws {
        let probe = try ExtensionOutputTests.probe()
        let help = try await run(probe, ["--help"])
        #expect(help.status == 0 && help.stdoutText.contains("USAGE: notiplay-print-probe <subcommand>"), "\(help)")
        let usage = try await run(probe, ["deliver"])
        #expect(usage.status == 64 && usage.stderrText.contains("Usage: notiplay-print-probe deliver "), "\(usage)")
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        var environment = E2E.childEnvironment
        environment["XDG_RUNTIME_DIR"] = scratch.path
        let send = try await run(probe, ["send", E2E.media("nagme.apns")], environment: environment)
        #expect(send.status == 69, "\(send)")
        #expect(send.stderrText.hasPrefix("notiplay-print-probe: ") && send.stderrText.contains("`notiplay-print-probe serve`"), "\(send)")
    }

    @Test("Without an extension folder the tool warns that its registered types go unused; notiplay, whose types are samples, does not")
    func unusedTypes() async throws {
        let probe = try ExtensionOutputTests.probe()
        let arguments = ["deliver", E2E.media("nagme.apns"), "--headless", "--keys", "q", "--audio", "null"]
        let tool = try await run(probe, arguments)
        #expect(tool.status == 0, "\(tool)")
        #expect(tool.stderrLines.count == 1, "\(tool)")
        #expect(tool.stderrText.hasPrefix("notiplay-print-probe: warning: no extension folder was given"), "\(tool)")
        #expect(
            tool.stderrText.contains(
                #"(category "reminder") and the registered types Crashing.CrashingViewController, Faulting.FaultingViewController, Lingering.LingeringViewController, Printing.PrintingViewController, Trapping.TrappingViewController go unused"#
            ), "\(tool)")
        let notiplay = try await notiplay("deliver", E2E.media("nagme.apns"), "--headless", "--keys", "q", "--audio", "null")
        #expect(notiplay.status == 0 && notiplay.stderr.isEmpty, "\(notiplay)")
    }
}
