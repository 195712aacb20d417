import Foundation
import NotiplayTestSupport
import Testing

/// An image attachment on the default card in tmux: tmux answers the card's graphics queries
/// itself and passes no picture on, so the card shows the image's text stand-in.
@Suite("deliver an image attachment in a terminal (tmux)", .tags(.endToEnd))
struct ImageStandInTests {
    @Test("the default card shows an image attachment's stand-in in tmux, and the terminal is left as found")
    func standIn() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let photo = scratch.appendingPathComponent("photo.png")
        try Data(TestImages.png(width: 48, height: 32)).write(to: photo)
        let pane = try await TmuxPane(columns: 80, rows: 24)
        let bin = try E2E.binary()
        try await pane.type(
            "\(E2E.shellQuoted(bin)) deliver \(E2E.shellQuoted(E2E.media("voice-memo.apns"))) --attach \(E2E.shellQuoted(photo.path)) --audio null; echo \"EXIT=$?\"")
        let screen = try #require(
            try await pane.expectScreen("the card never showed the image's stand-in") { $0.contains("[image: photo.png 48×32]") })
        #expect(screen.contains("Voice memo from Sam"))
        #expect(!screen.contains("_G") && !screen.contains("1337"), "no graphics sequence reached the screen as text")
        try await pane.keys("q")
        let after = try #require(try await pane.waitForScreen { $0.contains("EXIT=0") }, "notiplay did not end with 0")
        #expect(!after.contains("[image:"), "the card is gone with its stand-in")
    }
}
