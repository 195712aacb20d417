import Foundation
import NotiplayTestSupport
import Testing

/// `notiplay serve` in a real terminal (tmux): what other programs send shows as cards, one at a
/// time, with the queue on the card; n moves, d dismisses, q quits and restores the terminal.
extension TerminalCardTests {
    @Test("serve shows sent cards one at a time with the queue's line; n moves, d dismisses, q quits and restores")
    func serveDeck() async throws {
        let runtime = "/tmp/npd-\(UUID().uuidString.prefix(8))"
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: runtime)
        }
        let (pane, bin, environment) = try await startServe(runtime: runtime, columns: 80, rows: 24, empty: "no notifications")

        let memo = try await run(bin, ["send", E2E.media("voice-memo.apns"), "--attach", E2E.media("voice-memo.m4a"), "--id", "memo"], environment: environment)
        #expect(memo.status == 0, "\(memo)")
        try await pane.expectScreen("the memo's card did not show") { $0.contains("Voice memo from Sam") && $0.contains("▶") }
        let nag = try await run(bin, ["send", E2E.media("nagme.apns"), "--id", "nag"], environment: environment)
        #expect(nag.status == 0, "\(nag)")
        // Newest on top: nag covers the memo, which waits, listed a line under the card.
        try await pane.expectScreen("nag did not take the screen with the queue's lines") {
            $0.contains("Water the plants") && $0.contains("1 more · n next · N previous") && $0.contains("· notiplay · Voice memo from Sam · ")
        }

        try await pane.keys("n")
        try await pane.expectScreen("n did not show the next card") {
            $0.contains("Voice memo from Sam") && $0.contains("▶") && !$0.contains("Water the plants") && $0.contains("· notiplay · NagMe · ")
        }
        try await pane.keys("d")
        try await pane.expectScreen("d did not give way to nag") { $0.contains("Water the plants") && !$0.contains("1 more") }
        try await pane.keys("q")
        try await expectRestored(pane, exit: "0")

        let history = try await run(bin, ["history"], environment: environment)
        #expect(history.stdoutText == "nag  delivered  notiplay  NagMe\nmemo  dismissed  notiplay  Voice memo from Sam\n", "\(history)")
    }

    @Test("A pane 26 columns wide: app, title and body; a critical card on top marked; waiting cards listed; ? lists the keys; X dismisses all")
    func narrowDeck() async throws {
        let runtime = "/tmp/npd-\(UUID().uuidString.prefix(8))"
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: runtime)
        }
        let (pane, bin, environment) = try await startServe(runtime: runtime, columns: 26, rows: 30, empty: "no notifi")

        let fire = scratch.appendingPathComponent("fire.apns")
        try #"{"aps":{"alert":{"title":"Fire alarm","body":"Leave now"},"interruption-level":"critical"}}"#
            .write(to: fire, atomically: true, encoding: .utf8)
        for (payload, id) in [(E2E.media("nagme.apns"), "nag"), (E2E.media("voice-memo.apns"), "memo"), (fire.path, "fire")] {
            let sent = try await run(bin, ["send", payload, "--id", id], environment: environment)
            #expect(sent.status == 0, "\(sent)")
        }
        try await pane.expectScreen("the critical card is not on top, marked, with the others listed") { screen in
            screen.contains("Fire alarm") && screen.contains("Leave now") && screen.contains("‼ CRITICAL")
                && screen.contains("· notiplay · Voice memo") && screen.contains("· notiplay · NagMe")
        }
        try await pane.keys("?")
        try await pane.expectScreen("? did not list the keys") { $0.contains("X          dismiss") }
        try await pane.keys("space")
        try await pane.expectScreen("a key did not close the list") { $0.contains("Fire alarm") && !$0.contains("X          dismiss") }
        try await pane.keys("X")
        try await pane.expectScreen("X did not dismiss every card") { $0.contains("no notifi") }
        try await pane.keys("q")
        try await expectRestored(pane, exit: "0")
        let history = try await run(bin, ["history"], environment: environment)
        #expect(
            history.stdoutText
                == "fire  dismissed  notiplay  Fire alarm\nmemo  dismissed  notiplay  Voice memo from Sam\nnag  dismissed  notiplay  NagMe\n",
            "\(history)")
    }

    /// A `columns` × `rows` pane whose shell runs `notiplay serve --audio null` with XDG folders in
    /// the scratch folder and `runtime`, once the empty deck (`empty`) shows; the binary, and the
    /// environment a client needs to reach that server.
    private func startServe(
        runtime: String, columns: Int, rows: Int, empty: String
    ) async throws -> (TmuxPane, String, [String: String]) {
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let places = [
            "XDG_STATE_HOME": scratch.appendingPathComponent("state").path, "XDG_RUNTIME_DIR": runtime,
            "XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path,
        ]
        var environment = E2E.childEnvironment
        environment.merge(places) { _, new in new }
        let pane = try await TmuxPane(columns: columns, rows: rows, environment: places)
        let bin = try E2E.binary()
        try await pane.type("stty -g > \(scratchFile("before")); echo READY")
        try await pane.expectScreen("the shell did not answer") { $0.split(separator: "\n").contains(where: Self.isReadyLine) }
        try await pane.type("\(E2E.shellQuoted(bin)) serve --audio null; echo \"EXIT=$?\"; stty -g > \(scratchFile("after"))")
        try await pane.expectScreen("serve did not show its empty deck") { $0.contains(empty) }
        return (pane, bin, environment)
    }
}
