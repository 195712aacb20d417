import Foundation
import NotiplayTestSupport
import Testing

/// An extension that crashes costs `notiplay test` its own script, never the run: a folder of four
/// scripts, one of them presenting an extension of Tests/PrintProbe that crashes (a Swift runtime
/// trap: SIGILL, or SIGABRT for a freed unowned reference), is reported in full — that script
/// `not ok` with the signal, the extension and its last events, the three others `ok`, the JUnit
/// file complete — at every `--jobs` and with `--untimed`.
@Suite("test: a crashing extension costs its own script only", .tags(.endToEnd))
struct TestIsolationTests {
    /// How the extension crashes.
    enum Crash: String, CaseIterable, Sendable {
        /// `asyncAfter { [unowned self] … }` firing once a newer card replaced its own.
        case unownedAfterCard
        /// A force-unwrapped nil in `didReceive`.
        case trapInDidReceive
        /// A `fatalError` queued on the main queue as the controller is freed, after the last step.
        case afterLastStep
    }

    /// A run: how the extension crashes, `--jobs`, and whether `--untimed`.
    struct Run: Sendable, CustomTestStringConvertible {
        var crash: Crash
        var jobs: Int
        var untimed: Bool
        var testDescription: String { "\(crash.rawValue), --jobs \(jobs)\(untimed ? " --untimed" : "")" }
    }

    static let runs: [Run] = Crash.allCases.flatMap { crash in
        [(1, false), (2, false), (4, false), (4, true)].map { Run(crash: crash, jobs: $0.0, untimed: $0.1) }
    }

    /// The crashing script's name, the extension it presents, and the place of the step it is at
    /// when the extension crashes.
    static func crashing(_ crash: Crash) -> (name: String, extension: String, signal: String, at: String, text: String) {
        switch crash {
        case .unownedAfterCard:
            // The Crashing card is replaced by a plain one (its controller freed); the block it
            // left fires 0.2 s later, during the wait for an event that never comes (a wait that
            // takes real time even --untimed). Swift reports the freed unowned reference and aborts.
            ("b-crashes.playback", "Crashing", "SIGABRT", "5:1",
             "extensions Extensions\ndeliver crashing.apns\nexpect event didReceive\ndeliver plain.apns\nwait until mediaPlay timeout 20s\n")
        case .trapInDidReceive:
            ("b-traps.playback", "Trapping", "SIGILL", "2:1", "extensions Extensions\ndeliver trapping.apns\nexpect event didReceive\n")
        case .afterLastStep:
            ("b-lingers.playback", "Lingering", "SIGILL", "3:1", "extensions Extensions\ndeliver lingering.apns\nexpect event didReceive\n")
        }
    }

    /// Writes the extensions (Printing, Crashing, Trapping, Lingering), the payloads and the four
    /// scripts into `scratch`.
    static func folder(_ scratch: URL, crash: Crash) throws -> URL {
        let extensions = scratch.appendingPathComponent("Extensions")
        for (name, category) in [("Printing", "printing"), ("Crashing", "crashing"), ("Trapping", "trapping"), ("Lingering", "lingering")] {
            let bundle = extensions.appendingPathComponent("\(name).appex")
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try ExtensionPlist.content(category: category, principalClass: "\(name)ViewController")
                .write(to: bundle.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        }
        let payloads = [
            ("printing", #"{"aps": {"alert": {"title": "Printer"}, "category": "printing"}}"#),
            ("crashing", #"{"aps": {"alert": {"title": "Crasher"}, "category": "crashing"}}"#),
            ("trapping", #"{"aps": {"alert": {"title": "Trapper"}, "category": "trapping"}}"#),
            ("lingering", #"{"aps": {"alert": {"title": "Lingerer"}, "category": "lingering"}}"#),
            ("plain", #"{"aps": {"alert": {"title": "Plain", "body": "nothing special"}}}"#),
        ]
        for (name, json) in payloads {
            try json.write(to: scratch.appendingPathComponent("\(name).apns"), atomically: true, encoding: .utf8)
        }
        let bad = crashing(crash)
        let scripts = [
            ("a-prints.playback",
             "extensions Extensions\ndeliver printing.apns attach \(E2E.media("chime.wav"))\npress play\nwait end\nexpect screen contains \"printing\"\n"),
            (bad.name, bad.text),
            ("c-plain.playback", "deliver plain.apns\nexpect event didReceive\nexpect screen contains \"Plain\"\n"),
            ("d-plain.playback", "deliver plain.apns\nexpect screen contains \"nothing special\"\n"),
        ]
        for (name, text) in scripts {
            try text.write(to: scratch.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return scratch
    }

    /// The YAML block under the test point that starts with `point`.
    static func block(after point: String, in lines: [String]) -> [String] {
        guard let start = lines.firstIndex(where: { $0.hasPrefix(point) }) else { return [] }
        var block: [String] = []
        for line in lines[(start + 1)...] {
            if line == "  ..." { break }
            block.append(line)
        }
        return block
    }

    @Test("the crashing script is not ok with the signal, the extension and its last events; the others ok; JUnit complete",
          arguments: runs)
    func crashCostsItsScriptOnly(_ setup: Run) async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let folder = try Self.folder(scratch, crash: setup.crash)
        let junit = scratch.appendingPathComponent("report.xml").path
        var arguments = ["test", folder.path, "--jobs", "\(setup.jobs)", "--junit", junit]
        if setup.untimed { arguments.append("--untimed") }
        let result = try await run(try ExtensionOutputTests.probe(), arguments, timeout: 120)
        let bad = Self.crashing(setup.crash)

        #expect(result.status == 1, "exit status 1, as for any failing script: \(result)")
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(ExtensionOutputTests.tapProblems(lines).isEmpty, "\(ExtensionOutputTests.tapProblems(lines)): \(result)")
        let points = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        #expect(lines.contains("1..4"), "\(result)")
        #expect(
            points == [
                "ok 1 - \(folder.path)/a-prints.playback", "not ok 2 - \(folder.path)/\(bad.name)",
                "ok 3 - \(folder.path)/c-plain.playback", "ok 4 - \(folder.path)/d-plain.playback",
            ], "\(result)")
        let block = Self.block(after: "not ok 2 ", in: lines).joined(separator: "\n")
        #expect(block.contains("message: \"crashed (\(bad.signal)"), "the signal: \(block)")
        #expect(block.contains("presenting \(bad.extension)"), "the extension: \(block)")
        let when = setup.crash == .afterLastStep ? ") after its last step, " : ") at this step, "
        #expect(block.contains(when), "when: \(block)")
        #expect(block.contains("at: \"\(folder.path)/\(bad.name):\(bad.at)\""), "the step it was at: \(block)")
        #expect(block.contains(#"\"event\":\"didReceive\""#) && block.contains(#"\"extension\":\"\#(bad.extension)\""#),
                "its last events: \(block)")
        #expect(lines.contains("# stdout: didReceive: Printer"), "what the extensions printed, still captured: \(result)")
        #expect(result.stderr.isEmpty, "\(result)")

        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="notiplay" tests="4" failures="1""#), "\(xml)")
        #expect(xml.components(separatedBy: "<testcase ").count == 5, "\(xml)")
        #expect(xml.contains("<failure message=\"crashed (\(bad.signal)"), "\(xml)")
    }
}
