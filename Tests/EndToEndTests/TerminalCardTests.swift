import Foundation
import NotiplayTestSupport
import Testing

/// The real binary in a real terminal (tmux): the card is drawn, keys flip the media button, and
/// the terminal is as it was afterwards, whichever way notiplay ends.
@Suite("deliver in a terminal (tmux)", .serialized, .tags(.endToEnd))
struct TerminalCardTests {
    /// Runs `notiplay deliver` of the voice memo in a fresh pane, after saving the terminal's
    /// settings; returns the pane once the card shows ▶.
    /// With `asJob`, notiplay and the line that reports its status run as one job (a subshell), so
    /// that Ctrl-Z stops both and `fg` resumes both.
    func startCard(
        _ pane: TmuxPane, extra: String = "", asJob: Bool = false, attach: String = E2E.media("voice-memo.m4a")
    ) async throws -> String {
        let bin = try E2E.binary()
        try await pane.type("stty -g > \(scratchFile("before")); echo READY")
        // The line the echo printed (typing on before it would be read ahead by the shell).
        try await pane.expectScreen("the shell did not answer") { screen in
            screen.split(separator: "\n").contains(where: Self.isReadyLine)
        }
        let deliver =
            "\(E2E.shellQuoted(bin)) deliver \(E2E.shellQuoted(E2E.media("voice-memo.apns"))) --attach \(E2E.shellQuoted(attach)) --audio null \(extra); "
            + "echo \"EXIT=$?\""
        // In a job, the settings are read inside it: a shell goes on with the rest of a list
        // as soon as its first command stops.
        let after = "stty -g > \(scratchFile("after"))"
        try await pane.type(asJob ? "( \(deliver); \(after) )" : "\(deliver); \(after)")
        let card = try await pane.expectScreen("the card never showed ▶") { $0.contains("▶") && $0.contains("Voice memo from Sam") }
        return try #require(card)
    }

    /// The line `echo READY` printed — alone, or after a prompt the shell printed late (keys typed
    /// ahead of it on a busy machine) — not the command line that asks for it.
    static func isReadyLine(_ line: Substring) -> Bool {
        line.trimmingCharacters(in: .whitespaces).hasSuffix("READY") && !line.contains("echo READY")
    }

    /// The line the shell printed after notiplay ended (`EXIT=0`), not the command line that asks for it.
    static func exitLine(_ screen: String) -> String? {
        // `EXIT=` and digits, wherever the shell's prompt or a reflow put it; the command line
        // itself says `EXIT=$?`.
        for line in screen.split(separator: "\n") {
            guard let range = line.range(of: "EXIT=") else { continue }
            let digits = line[range.upperBound...].prefix(while: \.isNumber)
            if !digits.isEmpty { return "EXIT=\(digits)" }
        }
        return nil
    }

    /// The card's clock (`m:ss / m:ss`): the position in whole seconds, if the screen shows one.
    static func clock(_ screen: String) -> Int? {
        for line in screen.split(separator: "\n") {
            guard let match = line.firstMatch(of: /(\d+):(\d\d) \//), let minutes = Int(match.1), let seconds = Int(match.2)
            else { continue }
            return minutes * 60 + seconds
        }
        return nil
    }

    let scratch: URL
    init() throws { scratch = try E2E.scratch() }

    func scratchFile(_ name: String) -> String { E2E.shellQuoted(scratch.appendingPathComponent(name).path) }

    func expectRestored(_ pane: TmuxPane, exit: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let screen = try await pane.expectScreen("notiplay did not end", timeout: 30, sourceLocation: sourceLocation) { Self.exitLine($0) != nil }
        let text = try #require(screen, sourceLocation: sourceLocation)
        #expect(Self.exitLine(text) == "EXIT=\(exit)", "\(text)", sourceLocation: sourceLocation)
        // The shell's own lines are back (the alternate screen left): READY may have scrolled into
        // the history, when a narrow pane wraps a long command line (a long checkout path).
        let transcript = try await pane.transcript()
        #expect(
            transcript.split(separator: "\n").contains(where: Self.isReadyLine),
            "the shell's screen is back (alternate screen left): \(transcript)", sourceLocation: sourceLocation)
        #expect(!text.contains("Voice memo from Sam"), "the card is gone with the alternate screen", sourceLocation: sourceLocation)
        #expect(try await pane.value("#{alternate_on}") == "0", sourceLocation: sourceLocation)
        #expect(try await pane.value("#{cursor_flag}") == "1", "cursor shown again", sourceLocation: sourceLocation)
        // The shell makes the file before stty writes to it: wait for the whole line.
        let afterFile = scratch.appendingPathComponent("after").path
        _ = try await pane.waitForScreen { _ in (try? String(contentsOfFile: afterFile, encoding: .utf8))?.hasSuffix("\n") == true }
        let before = try String(contentsOf: scratch.appendingPathComponent("before"), encoding: .utf8)
        let after = try String(contentsOf: scratch.appendingPathComponent("after"), encoding: .utf8)
        #expect(before == after, "termios restored", sourceLocation: sourceLocation)
    }

    @Test("space flips ▶ to ⏸ and back; q quits and the terminal is restored")
    func playPauseQuit() async throws {
        defer { E2E.remove(scratch) }
        let pane = try await TmuxPane()
        _ = try await startCard(pane)
        try await pane.keys("Space")
        try await pane.expectScreen("space did not flip the glyph") { $0.contains("⏸") }
        try await pane.expectScreen("the position did not move") { (Self.clock($0) ?? 0) >= 1 }
        try await pane.keys("Space")
        #expect(try await pane.waitForScreen { $0.contains("▶") && !$0.contains("⏸") } != nil)
        try await pane.keys("q")
        try await expectRestored(pane, exit: "0")
    }

    /// Clicks the left button on the pane's cell at `column`, `row` (from 1), as a terminal with
    /// SGR mouse reporting sends it: press and release, in one write.
    func click(_ pane: TmuxPane, column: Int, row: Int) async throws {
        let report = "\u{1B}[<0;\(column);\(row)M\u{1B}[<0;\(column);\(row)m"
        try await pane.command(["send-keys", "-H"] + report.utf8.map { String($0, radix: 16) })
    }

    @Test("the mouse: a click on ▶ plays, on ⏸ pauses, on ✕ closes; the terminal reports the mouse only while the card shows")
    func mouse() async throws {
        defer { E2E.remove(scratch) }
        let pane = try await TmuxPane()
        let card = try await startCard(pane)
        #expect(try await pane.value("#{mouse_sgr_flag} #{mouse_any_flag}") == "1 1", "SGR mouse reporting on")
        let lines = card.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.contains("▶") })
        let column = lines[row].distance(from: lines[row].startIndex, to: lines[row].firstIndex(of: "▶")!)
        try await click(pane, column: column + 1, row: row + 1)
        try await pane.expectScreen("a click on ▶ did not play") { $0.contains("⏸") }
        try await click(pane, column: column + 1, row: row + 1)
        try await pane.expectScreen("a click on ⏸ did not pause") { $0.contains("▶") && !$0.contains("⏸") }
        let top = lines.firstIndex { $0.contains("✕") } ?? 0
        let close = lines[top].distance(from: lines[top].startIndex, to: try #require(lines[top].firstIndex(of: "✕")))
        try await click(pane, column: close + 1, row: top + 1)
        try await expectRestored(pane, exit: "0")
        #expect(try await pane.value("#{mouse_sgr_flag} #{mouse_any_flag}") == "0 0", "mouse reporting off")
    }

    /// Without a verdict on time: the tone is 90 s long, and while it plays the keys jump 30 s
    /// (six presses), farther than it plays by itself within the 20 s each wait allows; paused,
    /// the clock stands still, so one press must move it by 5 s, give or take the clock's whole
    /// second.
    @Test("→ moves the clock 5 s on and ← back, playing or paused")
    func seekKeys() async throws {
        defer { E2E.remove(scratch) }
        let tone = try E2E.tone(seconds: 90, in: scratch)
        let pane = try await TmuxPane()
        _ = try await startCard(pane, attach: tone)
        try await pane.keys("Space")
        let playing = try #require(try await pane.expectScreen("space did not flip the glyph") { $0.contains("⏸") })
        let start = try #require(Self.clock(playing), "no clock: \(playing)")
        for _ in 0..<6 { try await pane.keys("Right") }
        // Playing by itself, the clock moves at most 21 s (the wait and a rounding) before this gives up.
        let on = try #require(try await pane.expectScreen("→ did not move the clock on while playing", timeout: 20) {
            (Self.clock($0) ?? 0) >= start + 30
        })
        let far = try #require(Self.clock(on))

        // Paused 30 s or more in (no seek reaches the start), the clock stands still (a position
        // update already under way may add a second to what shows now); → ← → then move it by
        // 5 s each, on and back and on. The clock shows whole seconds, rounded down; after the
        // pause the position settles by what the output had buffered (up to 0.2 s), and libmpv
        // lands a seek within a decoded block of its target: a step can show as 4 or 6, while a
        // press handled twice (10) or not at all (0) cannot.
        try await pane.keys("Space")
        let paused = try #require(try await pane.expectScreen("space did not pause") { $0.contains("▶") && !$0.contains("⏸") })
        let stopped = try #require(Self.clock(paused))
        // Settling back by what the output had buffered can take the whole second shown down by
        // one (30.1 shown as 30, paused at 29.9); a jump back to the start is still caught.
        #expect(stopped >= far - 1, "paused at \(stopped), before \(far)")
        try await pane.keys("Right")
        let moved = try #require(try await pane.expectScreen("→ did not move the clock on while paused") {
            (Self.clock($0) ?? 0) >= stopped + 4
        })
        let ahead = try #require(Self.clock(moved))
        try await pane.keys("Left")
        let back = try await pane.expectScreen("← did not move the clock back while paused") { (Self.clock($0) ?? .max) < ahead }
        let behind = try #require(back.flatMap(Self.clock))
        #expect((4...6).contains(ahead - behind), "← moved the clock from \(ahead) to \(behind)")
        try await pane.keys("Right")
        let again = try await pane.expectScreen("→ did not move the clock on again while paused") { (Self.clock($0) ?? 0) > behind }
        let onAgain = try #require(again.flatMap(Self.clock))
        #expect((4...6).contains(onAgain - behind), "→ moved the clock from \(behind) to \(onAgain)")
        #expect(back?.contains("▶") == true, "still paused")

        // Playing again, ← six times moves it back, which playing by itself never does.
        let resumedAt = onAgain
        try await pane.keys("Space")
        _ = try #require(try await pane.expectScreen("space did not play again") { $0.contains("⏸") })
        for _ in 0..<6 { try await pane.keys("Left") }
        try await pane.expectScreen("← did not move the clock back while playing", timeout: 20) {
            (Self.clock($0) ?? .max) < resumedAt
        }
        try await pane.keys("q")
        try await expectRestored(pane, exit: "0")
    }

    @Test("Ctrl-Z gives the terminal back as it was; fg draws the card again")
    func suspendAndResume() async throws {
        defer { E2E.remove(scratch) }
        let pane = try await TmuxPane()
        _ = try await startCard(pane, asJob: true)
        try await pane.keys("C-z")
        // The job (the subshell and notiplay) stops; the shell takes the terminal back. (Whether
        // the shell prints "Stopped" at once varies, so the processes' states tell.)
        let session = try await pane.value("#{pane_pid}")
        var states = ""
        var job: [(state: Substring, name: Substring)] = []
        // The job's state is another process's: asked for until it shows, for at most 30 s.
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            states = try await run("/bin/ps", ["-o", "stat=,comm=", "--sid", session], timeout: 5).stdoutText
            // Everything in the pane's session but its leader (the shell, state "Ss").
            job = states.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count == 2, !fields[0].contains("s") else { return nil }
                return (fields[0], fields[1])
            }
            if job.count == 2 && job.allSatisfy({ $0.state.hasPrefix("T") }) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(job.count == 2 && job.allSatisfy { $0.state.hasPrefix("T") }, "Ctrl-Z did not stop the whole job: \(states)")
        #expect(job.contains { $0.name == "notiplay" }, "\(states)")
        let text = try #require(try await pane.expectScreen("the shell's screen is not back") { $0.contains("READY") })
        #expect(text.contains("READY"), "the shell's screen is back")
        #expect(try await pane.value("#{alternate_on}") == "0")
        #expect(try await pane.value("#{cursor_flag}") == "1")
        try await pane.type("stty -g > \(scratchFile("suspended")); echo SUSPENDED")
        // The line the echo printed, not the command line that asks for it.
        try await pane.expectScreen("the shell did not answer") { screen in
            screen.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "SUSPENDED" }
        }
        let before = try String(contentsOf: scratch.appendingPathComponent("before"), encoding: .utf8)
        let suspended = try String(contentsOf: scratch.appendingPathComponent("suspended"), encoding: .utf8)
        #expect(before == suspended, "termios restored while suspended")
        try await pane.type("fg")
        try await pane.expectScreen("fg did not draw the card again") {
            $0.contains("Voice memo from Sam") && $0.contains("▶") && !$0.contains("SUSPENDED")
        }
        #expect(try await pane.value("#{alternate_on}") == "1")
        try await pane.keys("Space")
        try await pane.expectScreen("keys do not work after fg") { $0.contains("⏸") }
        try await pane.keys("q")
        try await expectRestored(pane, exit: "0")
    }

    @Test("every way out restores the terminal", arguments: ["C-c", "SIGINT", "SIGTERM", "SIGHUP", "C-d"])
    func waysOut(_ way: String) async throws {
        defer { E2E.remove(scratch) }
        let pane = try await TmuxPane()
        _ = try await startCard(pane)
        let expected: String
        switch way {
        case "C-c", "C-d":
            try await pane.keys(way)
            expected = way == "C-c" ? "130" : "0"
        default:
            let pid = try await pane.value("#{pane_pid}")
            let signal = String(way.dropFirst(3))
            // The shell's child is notiplay.
            let child = try await run("/usr/bin/pgrep", ["-P", pid, "-f", "notiplay"], timeout: 5).stdoutText
                .split(separator: "\n").first.map(String.init) ?? ""
            #expect(!child.isEmpty)
            _ = try await run("/bin/kill", ["-\(signal)", child], timeout: 5)
            expected = ["SIGINT": "130", "SIGTERM": "143", "SIGHUP": "129"][way]!
        }
        try await expectRestored(pane, exit: expected)
    }

    @Test("a pane narrower than 30 columns shows the app, title, subtitle and body a line each, no frame, not garbage")
    func narrow() async throws {
        defer { E2E.remove(scratch) }
        let pane = try await TmuxPane(columns: 24, rows: 10)
        let bin = try E2E.binary()
        try await pane.type("\(E2E.shellQuoted(bin)) deliver \(E2E.shellQuoted(E2E.media("voice-memo.apns"))) --attach \(E2E.shellQuoted(E2E.media("voice-memo.m4a"))) --audio null; echo \"EXIT=$?\"")
        let screen = try await pane.expectScreen("no compact card") { $0.contains("Press space to listen.") }
        let text = try #require(screen)
        let lines = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) } == ["▶ notiplay · now", "Voice memo from Sam", "6 seconds", "Press space to listen."], "\(text)")
        try await pane.keys("q")
        #expect(try await pane.waitForScreen { Self.exitLine($0) == "EXIT=0" } != nil)
    }

    @Test("a resize lays the card out again")
    func resize() async throws {
        defer { E2E.remove(scratch) }
        let pane = try await TmuxPane(columns: 80, rows: 24)
        _ = try await startCard(pane)
        let wide = try await pane.screen().split(separator: "\n").first { $0.contains("┌") }.map(String.init) ?? ""
        try await pane.command("resize-window", "-x", "50", "-y", "24")
        try await pane.expectScreen("not laid out again at 50 columns (was \(wide.count))") { screen in
            screen.split(separator: "\n").contains { $0.contains("┌") && $0.hasSuffix("┐") && $0.count == 50 }
        }
        try await pane.keys("q")
        try await expectRestored(pane, exit: "0")
    }
}
