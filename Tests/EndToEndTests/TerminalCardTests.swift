import Foundation
import Testing

/// The real binary in a real terminal (tmux): the card is drawn, keys flip the media button, and
/// the terminal is as it was afterwards, whichever way notiplay ends.
@Suite("deliver in a terminal (tmux)", .serialized)
struct TerminalCardTests {
    /// Runs `notiplay deliver` of the voice memo in a fresh pane, after saving the terminal's
    /// settings; returns the pane once the card shows ▶.
    /// With `asJob`, notiplay and the line that reports its status run as one job (a subshell), so
    /// that Ctrl-Z stops both and `fg` resumes both.
    func startCard(_ pane: TmuxPane, extra: String = "", asJob: Bool = false) throws -> String {
        let bin = try E2E.binary()
        try pane.type("stty -g > \(scratchFile("before")); echo READY")
        _ = try pane.waitForScreen { $0.contains("READY") }
        let deliver =
            "\(E2E.shellQuoted(bin)) deliver \(E2E.shellQuoted(E2E.media("voice-memo.apns"))) --attach \(E2E.shellQuoted(E2E.media("voice-memo.m4a"))) --audio null \(extra); "
            + "echo \"EXIT=$?\""
        try pane.type((asJob ? "( \(deliver) )" : deliver) + "; stty -g > \(scratchFile("after"))")
        let card = try pane.waitForScreen { $0.contains("▶") && $0.contains("Voice memo from Sam") }
        return try #require(card, "the card never showed ▶: \(pane.screenNow)")
    }

    /// The line the shell printed after notiplay ended (`EXIT=0`), not the command line that asks for it.
    static func exitLine(_ screen: String) -> String? {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first {
            $0.hasPrefix("EXIT=") && $0.count > 5 && $0.dropFirst(5).allSatisfy(\.isNumber)
        }
    }

    let scratch: URL
    init() throws { scratch = try E2E.scratch() }

    func scratchFile(_ name: String) -> String { E2E.shellQuoted(scratch.appendingPathComponent(name).path) }

    func expectRestored(_ pane: TmuxPane, exit: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let screen = try pane.waitForScreen { Self.exitLine($0) != nil }
        let text = try #require(screen, "notiplay did not end: \(pane.screenNow)", sourceLocation: sourceLocation)
        #expect(Self.exitLine(text) == "EXIT=\(exit)", "\(text)", sourceLocation: sourceLocation)
        #expect(text.contains("READY"), "the shell's screen is back (alternate screen left)", sourceLocation: sourceLocation)
        #expect(!text.contains("Voice memo from Sam"), "the card is gone with the alternate screen", sourceLocation: sourceLocation)
        #expect(try pane.value("#{alternate_on}") == "0", sourceLocation: sourceLocation)
        #expect(try pane.value("#{cursor_flag}") == "1", "cursor shown again", sourceLocation: sourceLocation)
        _ = try pane.waitForScreen { _ in FileManager.default.fileExists(atPath: scratch.appendingPathComponent("after").path) }
        let before = try String(contentsOf: scratch.appendingPathComponent("before"), encoding: .utf8)
        let after = try String(contentsOf: scratch.appendingPathComponent("after"), encoding: .utf8)
        #expect(before == after, "termios restored", sourceLocation: sourceLocation)
    }

    @Test("space flips ▶ to ⏸ and back; q quits and the terminal is restored")
    func playPauseQuit() throws {
        defer { E2E.remove(scratch) }
        let pane = try TmuxPane()
        _ = try startCard(pane)
        try pane.keys("Space")
        let playing = try pane.waitForScreen { $0.contains("⏸") }
        #expect(playing != nil, "space did not flip the glyph: \(pane.screenNow)")
        let moved = try pane.waitForScreen { $0.contains("0:01 /") }
        #expect(moved != nil, "the position did not move: \(pane.screenNow)")
        try pane.keys("Space")
        #expect(try pane.waitForScreen { $0.contains("▶") && !$0.contains("⏸") } != nil)
        try pane.keys("q")
        try expectRestored(pane, exit: "0")
    }

    @Test("→ moves the clock 5 s on and ← back, playing or paused")
    func seekKeys() throws {
        defer { E2E.remove(scratch) }
        let pane = try TmuxPane()
        _ = try startCard(pane)
        try pane.keys("Space")
        #expect(try pane.waitForScreen { $0.contains("⏸") } != nil, "\(pane.screenNow)")
        try pane.keys("Right")
        // Playing in real time, the clock cannot reach 0:05 within 3 s by itself.
        let on = try pane.waitForScreen(timeout: 3) { $0.contains("0:05 /") || $0.contains("0:06 /") }
        #expect(on != nil, "→ did not move the clock on: \(pane.screenNow)")
        try pane.keys("Space")
        #expect(try pane.waitForScreen { $0.contains("▶") && !$0.contains("⏸") } != nil)
        try pane.keys("Left")
        let back = try pane.waitForScreen(timeout: 3) { $0.contains("0:00 /") || $0.contains("0:01 /") }
        #expect(back != nil, "← did not move the clock back: \(pane.screenNow)")
        #expect(pane.screenNow.contains("▶"), "still paused")
        try pane.keys("q")
        try expectRestored(pane, exit: "0")
    }

    @Test("Ctrl-Z gives the terminal back as it was; fg draws the card again")
    func suspendAndResume() throws {
        defer { E2E.remove(scratch) }
        let pane = try TmuxPane()
        _ = try startCard(pane, asJob: true)
        try pane.keys("C-z")
        let stopped = try pane.waitForScreen { $0.contains("Stopped") }
        let text = try #require(stopped, "Ctrl-Z did not stop the job: \(pane.screenNow)")
        #expect(text.contains("READY"), "the shell's screen is back")
        #expect(try pane.value("#{alternate_on}") == "0")
        #expect(try pane.value("#{cursor_flag}") == "1")
        try pane.type("stty -g > \(scratchFile("suspended")); echo SUSPENDED")
        _ = try pane.waitForScreen { $0.contains("SUSPENDED") }
        let before = try String(contentsOf: scratch.appendingPathComponent("before"), encoding: .utf8)
        let suspended = try String(contentsOf: scratch.appendingPathComponent("suspended"), encoding: .utf8)
        #expect(before == suspended, "termios restored while suspended")
        try pane.type("fg")
        let again = try pane.waitForScreen { $0.contains("Voice memo from Sam") && $0.contains("▶") && !$0.contains("SUSPENDED") }
        #expect(again != nil, "fg did not draw the card again: \(pane.screenNow)")
        #expect(try pane.value("#{alternate_on}") == "1")
        try pane.keys("Space")
        #expect(try pane.waitForScreen { $0.contains("⏸") } != nil, "keys work after fg: \(pane.screenNow)")
        try pane.keys("q")
        try expectRestored(pane, exit: "0")
    }

    @Test("every way out restores the terminal", arguments: ["C-c", "SIGINT", "SIGTERM", "SIGHUP", "C-d"])
    func waysOut(_ way: String) throws {
        defer { E2E.remove(scratch) }
        let pane = try TmuxPane()
        _ = try startCard(pane)
        let expected: String
        switch way {
        case "C-c", "C-d":
            try pane.keys(way)
            expected = way == "C-c" ? "130" : "0"
        default:
            let pid = try pane.value("#{pane_pid}")
            let signal = String(way.dropFirst(3))
            // The shell's child is notiplay.
            let child = try run("/usr/bin/pgrep", ["-P", pid, "-f", "notiplay"], timeout: 5).stdoutText
                .split(separator: "\n").first.map(String.init) ?? ""
            #expect(!child.isEmpty)
            _ = try run("/bin/kill", ["-\(signal)", child], timeout: 5)
            expected = ["SIGINT": "130", "SIGTERM": "143", "SIGHUP": "129"][way]!
        }
        try expectRestored(pane, exit: expected)
    }

    @Test("a pane narrower than 30 columns shows one compact line, not garbage")
    func narrow() throws {
        defer { E2E.remove(scratch) }
        let pane = try TmuxPane(columns: 24, rows: 10)
        let bin = try E2E.binary()
        try pane.type("\(E2E.shellQuoted(bin)) deliver \(E2E.shellQuoted(E2E.media("voice-memo.apns"))) --attach \(E2E.shellQuoted(E2E.media("voice-memo.m4a"))) --audio null; echo \"EXIT=$?\"")
        let screen = try pane.waitForScreen { $0.contains("▶ ") }
        let text = try #require(screen, "\(pane.screenNow)")
        let lines = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(lines.count == 1, "\(text)")
        try pane.keys("q")
        #expect(try pane.waitForScreen { Self.exitLine($0) == "EXIT=0" } != nil)
    }

    @Test("a resize lays the card out again")
    func resize() throws {
        defer { E2E.remove(scratch) }
        let pane = try TmuxPane(columns: 80, rows: 24)
        _ = try startCard(pane)
        let wide = try pane.screen().split(separator: "\n").first { $0.contains("┌") }.map(String.init) ?? ""
        try pane.command("resize-window", "-x", "50", "-y", "24")
        let narrower = try pane.waitForScreen { screen in
            screen.split(separator: "\n").contains { $0.contains("┌") && $0.hasSuffix("┐") && $0.count == 50 }
        }
        #expect(narrower != nil, "not laid out again at 50 columns (was \(wide.count)): \(pane.screenNow)")
        try pane.keys("q")
        try expectRestored(pane, exit: "0")
    }
}
