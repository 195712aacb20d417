import NotiplayCore
import Foundation
import Notiplay
import NotiplayScript
import NotiplayTestSupport
import NotiplayTesting
import Testing

/// A memo extension with a media button (its `MediaPlayer` plays the attachment on real libmpv)
/// and a button of its own, "Snooze".
final class MemoButtonsViewController: TerminalViewController, UNNotificationContentExtension {
    var player: MediaPlayer?
    let mediaPlayPauseButtonType = UNNotificationContentExtensionMediaPlayPauseButtonType.default
    let mediaPlayPauseButtonFrame = CGRect(cells: Rect(x: 0, y: 0, width: 3, height: 1))

    func didReceive(_ notification: UNNotification) {
        player = notification.request.content.attachments.first.flatMap { MediaPlayer(attachment: $0) }
        player?.onStart = { [weak self] in self?.extensionContext?.mediaPlayingStarted() }
        player?.onPause = { [weak self] in self?.extensionContext?.mediaPlayingPaused() }
        player?.onFinish = { [weak self] in self?.extensionContext?.mediaPlayingPaused() }
        view.elements = [Label("    memo.wav"), Button("Snooze") { [weak self] in self?.view.elements.append(Label("snoozed")) }]
    }

    func mediaPlay() { player?.play() }
    func mediaPause() { player?.pause() }
}

/// An app file, a payload and `Extensions/MemoButtons.appex`, whose Info.plist has
/// `UNNotificationExtensionUserInteractionEnabled` as `interaction` says, in a fresh folder.
struct MemoButtonsFixture {
    let folder: URL
    var app: String { folder.appendingPathComponent("Memo.app.json").path }
    var payload: String { folder.appendingPathComponent("memo.apns").path }

    static var types: ExtensionTypes {
        var types = ExtensionTypes()
        types.register(MemoButtonsViewController.self, as: "MemoButtons.MemoButtonsViewController")
        return types
    }

    init(interaction: Bool) throws {
        folder = try TestMedia.scratch()
        let bundle = folder.appendingPathComponent("Extensions/MemoButtons.appex")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let plist = ExtensionPlist.content(
            category: "memo", principalClass: "MemoButtonsViewController", interaction: interaction ? true : nil)
        try plist.write(to: bundle.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        try """
            {"name": "Memo", "categories": [{"identifier": "memo", "actions": [{"identifier": "later", "title": "Later"}]}],
             "extensions": "Extensions"}
            """.write(toFile: app, atomically: true, encoding: .utf8)
        try #"{"aps": {"alert": {"title": "New memo", "body": "From Sam"}, "category": "memo"}}"#
            .write(toFile: payload, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

extension RealEngine {
    @MainActor
    @Suite("Clicks, Tab and Enter through the test host and scripts, on real libmpv", .timeLimit(.minutes(1)))
    struct InteractionHostTests {
        /// Where `text` is on `screen`, as a terminal counts cells (from 1).
        func cell(of text: String, in screen: String) -> (column: Int, row: Int)? {
            for (row, line) in screen.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let range = line.range(of: text) { return (line.distance(from: line.startIndex, to: range.lowerBound) + 1, row + 1) }
            }
            return nil
        }

        @Test("a click at the media button's cell plays the memo to its end")
        func clickPlays() async throws {
            let fixture = try MemoButtonsFixture(interaction: false)
            defer { fixture.remove() }
            let host = try NotificationTestHost(app: fixture.app, types: MemoButtonsFixture.types)
            try await host.deliver(payload: fixture.payload, attachments: [TestMedia.path("chime.wav")])
            #expect(host.buttonState == .play)
            let play = try #require(cell(of: "▶", in: host.screen()), "\(host.screen())")
            host.click(column: play.column, row: play.row)
            try await host.wait(until: "mediaPlayingStarted")
            try await host.waitEnd()
            #expect(host.events(named: "playback").compactMap { $0.string("state") } == ["started", "ended"])
            #expect(host.buttonState == .play)
            await host.close()
        }

        @Test("Tab + Enter reach the extension's button only when its Info.plist enables interaction")
        func tabEnter() async throws {
            for interaction in [true, false] {
                let fixture = try MemoButtonsFixture(interaction: interaction)
                defer { fixture.remove() }
                let host = try NotificationTestHost(app: fixture.app, types: MemoButtonsFixture.types)
                try await host.deliver(payload: fixture.payload)
                host.tab()
                host.enter()
                #expect(host.events(named: "control").count == (interaction ? 1 : 0))
                #expect(host.screen().contains("snoozed") == interaction)
                #expect(host.events(named: "forwarded").map { $0.string("action") } == (interaction ? [] : ["later"]))
                await host.close()
            }
        }

        @Test("scripts: click media, press tab and enter, click button, click close")
        func script() async throws {
            for interaction in [true, false] {
                let fixture = try MemoButtonsFixture(interaction: interaction)
                defer { fixture.remove() }
                let text = """
                    app Memo.app.json
                    deliver memo.apns attach \(TestMedia.path("chime.wav"))
                    click media
                    wait end
                    expect event mediaPlayingStarted count 1
                    expect event playback count 2
                    press tab
                    press shift-tab
                    press tab
                    press enter
                    click button "Snooze"
                    expect event control count \(interaction ? 2 : 0)
                    expect screen \(interaction ? "contains" : "lacks") "snoozed"
                    click close
                    expect dismissed
                    """
                let script = try ScriptParser.parse(text, path: fixture.folder.appendingPathComponent("memo.playback").path)
                let result = await ScriptRunner(types: MemoButtonsFixture.types, untimed: true).run(script)
                // Without interaction the Enter on the focused action forwards it and closes the
                // card: the clicks after it reach nothing.
                #expect(result.passed, "\(interaction): \(String(describing: result.failure))")
            }
        }

        @Test("clicks on what the card does not show fail, saying what it shows")
        func missing() async throws {
            let fixture = try MemoButtonsFixture(interaction: true)
            defer { fixture.remove() }
            let host = try NotificationTestHost(app: fixture.app, types: MemoButtonsFixture.types)
            try await host.deliver(payload: fixture.payload)
            host.columns = 20  // a compact card: one line, only the media button
            #expect { try host.click(.close) } throws: { "\($0)".contains("click close: the card shows no ✕") }
            host.columns = 60
            #expect { try host.click(.button("Later")) } throws: {
                "\($0)".contains("click button \"Later\": the extension shows no such button (buttons: \"Snooze\")")
            }
            #expect { try host.click(.action("nope")) } throws: { "\($0)".contains("not on the card (actions: later)") }
            try host.click(.action("later"))
            #expect(host.events(named: "forwarded").map { $0.string("action") } == ["later"])
            await host.close()
        }
    }
}
