import Notiplay
import Foundation
import NotiplayCore
import NotiplayTerminal
import NotiplayViews
import Testing

/// Text snapshots of the card (what each part shows: the NotiplayViews catalogue's article "The
/// card"). Set NOTIPLAY_RECORD_SNAPSHOTS=1 to write them anew, then read the diff before committing.
@Suite("Card snapshots")
struct CardSnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    func check(_ grid: Grid, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = grid.lines.map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }.joined(separator: "\n") + "\n"
        let file = Self.folder.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["NOTIPLAY_RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(text == expected, "snapshot \(name) differs:\n\(text)", sourceLocation: sourceLocation)
    }

    /// NagMe (seeds 001/003): a label and a speaker, default content hidden, three actions.
    static func nagMe(speaker: String = "🔊") -> CardModel {
        var card = CardModel(header: "NagMe", age: "now")
        card.view = [Label("Reminder: ", style: .bold) + Label("Water the plants  \(speaker)")]
        card.contentSizeRatio = 0.1
        card.actions = [
            .init(title: "Cancel reminder", destructive: true), .init(title: "Remind me later"),
            .init(title: "Reply", textInput: true),
        ]
        return card
    }

    /// The default audio card: title, body, the ▶ button and position / duration.
    static func voiceMemo(_ button: CardModel.Button, position: String = "0:00") -> CardModel {
        var card = CardModel(header: "Voice Memos", age: "2m")
        card.view = [Label("   voice-memo.m4a  \(position) / 0:03")]
        card.button = button
        card.buttonFrame = Rect(x: 0, y: 0, width: 2, height: 1)
        card.defaultContent = ("New voice memo", "From Anna", "Listen when you have a minute.")
        card.actions = [.init(title: "Open in NagMe")]
        return card
    }

    /// An overlay button over a level meter.
    static func preview(_ button: CardModel.Button) -> CardModel {
        var card = CardModel(header: "Preview", age: "now")
        card.view = [Label("▁▂▃▅▇▆▅▃▂▁▂▃▅▇▆▅▃▂▁"), Label("▁▂▃▅▇▆▅▃▂▁▂▃▅▇▆▅▃▂▁"), Label("▁▂▃▅▇▆▅▃▂▁▂▃▅▇▆▅▃▂▁")]
        card.preferredRows = 3
        card.button = button
        card.buttonFrame = Rect(x: 0, y: 0, width: 20, height: 3)
        return card
    }

    @Test("every button type and state at 30, 60 and 100 columns", arguments: [30, 60, 100])
    func buttons(width: Int) throws {
        try check(CardLayout.render(Self.nagMe(), width: width), "nagme-none-\(width)")
        try check(CardLayout.render(Self.voiceMemo(.play), width: width), "default-play-\(width)")
        try check(CardLayout.render(Self.voiceMemo(.pause, position: "0:01"), width: width), "default-pause-\(width)")
        try check(CardLayout.render(Self.preview(.overlayPlay), width: width), "overlay-play-\(width)")
        try check(CardLayout.render(Self.preview(.overlayHidden), width: width), "overlay-hidden-\(width)")
    }

    @Test("default content shown and hidden")
    func defaultContent() throws {
        var shown = Self.nagMe()
        shown.defaultContent = ("NagMe", "", "Water the plants")
        try check(CardLayout.render(shown, width: 60), "nagme-content-shown-60")
        try check(CardLayout.render(Self.nagMe(speaker: "🔇"), width: 60), "nagme-muted-60")
    }

    @Test("a long body wraps and is cut with an ellipsis; emoji and CJK measured right")
    func longBody() throws {
        var card = CardModel(header: "Balance 💰", age: "1h")
        card.defaultContent = (
            "残高が少なくなっています", "Top up now 🔋",
            String(repeating: "Your balance is low. Add funds to keep your plan active. ", count: 200)
        )
        card.actions = [.init(title: "Add balance"), .init(title: "Open app"), .init(title: "Dismiss")]
        try check(CardLayout.render(card, width: 60), "balance-long-body-60")
        try check(CardLayout.render(card, width: 30), "balance-long-body-30")
    }

    @Test("narrower than 30 columns: no frame, a line each for the app, the title, the body and the actions")
    func compact() throws {
        let grid = CardLayout.render(Self.voiceMemo(.play), width: 24)
        #expect(grid.height == 6)
        try check(grid, "default-play-compact-24")
        // At 20 columns too: the app, the title and the body are there.
        let narrowest = CardLayout.render(Self.voiceMemo(.play), width: 20).lines.joined(separator: "\n")
        for text in ["Voice Memos", "New voice memo", "Listen when you"] { #expect(narrowest.contains(text), "\(narrowest)") }
    }

    @Test("escape sequences in payload text are shown neutralised")
    func neutralised() throws {
        var card = CardModel(header: "Evil\u{1B}]0;pwned\u{7}App", age: "now")
        card.defaultContent = ("\u{1B}[2J\u{1B}]52;c;Y2xpcGJvYXJk\u{7}Title", "sub\u{202E}title", "body\u{1B}[31m red")
        let grid = CardLayout.render(card, width: 40)
        let text = grid.lines.joined(separator: "\n")
        #expect(!grid.lines.joined().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        #expect(text.contains("EvilApp") && text.contains("Title") && text.contains("subtitle") && text.contains("body red"))
        #expect(!text.contains("pwned") && !text.contains("Y2xpcGJvYXJk"))
    }

    @Test("the button is drawn in its tint; the overlay's ▶ is dim")
    func buttonStyles() {
        var card = Self.voiceMemo(.play)
        card.buttonTint = .green
        let grid = CardLayout.render(card, width: 60)
        let cell = grid[1, 2]
        #expect(cell.character == "▶" && cell.style.foreground == .green)
        let overlay = CardLayout.render(Self.preview(.overlayPlay), width: 60)
        let glyph = overlay.cells.first { $0.character == "▶" }
        #expect(glyph?.style.dim == true)
    }
}
