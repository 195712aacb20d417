import Foundation
import Notiplay
import NotiplayCore
import NotiplayPlayback
import NotiplayTerminal
import NotiplayTestSupport
import NotiplayViews
import Testing

/// A terminal that records what is written, says it draws with `graphics`, and hears the keys a
/// test sends.
@MainActor
final class RecordingCardTerminal: CardTerminal {
    let graphics: GraphicsProtocol?
    let cellPixels: Size?
    var writes: [[UInt8]] = []
    var isOpen = false
    private var continuation: AsyncStream<TerminalEvent>.Continuation?
    private var written: [CheckedContinuation<Void, Never>] = []

    init(graphics: GraphicsProtocol?, cellPixels: Size? = nil) {
        self.graphics = graphics
        self.cellPixels = cellPixels
    }

    func open(escapeDelay: Duration) throws(CardTerminalUnavailable) -> AsyncStream<TerminalEvent> {
        isOpen = true
        let (stream, continuation) = AsyncStream<TerminalEvent>.makeStream()
        self.continuation = continuation
        return stream
    }

    func currentSize() -> (columns: Int, rows: Int)? { (60, 20) }

    func write(frame bytes: [UInt8]) -> Bool {
        writes.append(bytes)
        for waiter in written { waiter.resume() }
        written = []
        return true
    }

    func close() {
        isOpen = false
        continuation?.finish()
    }

    func send(_ event: TerminalEvent) { continuation?.yield(event) }

    /// Waits until something was written.
    func firstWrite() async {
        await write(count: 1)
    }

    /// Waits until `count` writes were made.
    func write(count: Int) async {
        while writes.count < count { await withCheckedContinuation { written.append($0) } }
    }

    var text: [String] { writes.map { String(decoding: $0, as: UTF8.self) } }
}

@MainActor
@Suite("The terminal card draws an image attachment as the terminal's protocol says, and takes it away")
struct PictureDriverTests {
    func session(png bytes: [UInt8] = TestImages.png(width: 48, height: 32)) throws -> PresentationSession {
        let folder = try TestMedia.scratch()
        let png = folder.appendingPathComponent("photo.png")
        try Data(bytes).write(to: png)
        let app = AppDefinition(name: "Photos", categories: [], extensionsDirectory: nil, forwardedActions: .printOnly)
        let session = PresentationSession(app: app, registry: try ExtensionRegistry([]), types: ExtensionTypes(), engine: FakeEngine())
        let content = UNMutableNotificationContent()
        content.title = "A photo"
        content.attachments = [try UNNotificationAttachment(identifier: "", url: png)]
        try session.present(UNNotification(request: UNNotificationRequest(identifier: "p", content: content, trigger: nil), date: Date()))
        return session
    }

    func run(
        _ graphics: GraphicsProtocol?, cellPixels: Size? = nil, png: [UInt8] = TestImages.png(width: 48, height: 32)
    ) async throws -> RecordingCardTerminal {
        let session = try session(png: png)
        let terminal = RecordingCardTerminal(graphics: graphics, cellPixels: cellPixels)
        let driver = TerminalCardDriver(terminal: { terminal }, environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"])
        let presenting = Task { @MainActor in await driver.present(session, keys: KeyScript()) }
        await terminal.firstWrite()
        terminal.send(.key(.character("q")))
        #expect(await presenting.value == .closed)
        return terminal
    }

    @Test("kitty: the frame's text with the image's cells blank, then the PNG at its cells; deleted when the card closes")
    func kitty() async throws {
        let terminal = try await run(.kitty)
        let first = try #require(terminal.text.first)
        #expect(first.contains("A photo"))
        #expect(!first.contains("[image:"), "the stand-in is blanked under the picture")
        // The default card: the image fitted into 8 rows of a 56-column view: 24 columns × 8 rows,
        // at row 1 (under the header), column 2 + 16.
        let png = Data(TestImages.png(width: 48, height: 32)).base64EncodedString()
        #expect(first.contains("\u{1B}[2;19H\u{1B}_Ga=T,f=100,t=d,q=2,C=1,i=7310,c=24,r=8,m=0;\(png)\u{1B}\\"))
        #expect(terminal.text.count == 2)
        #expect(terminal.text.last == "\u{1B}_Ga=d,d=I,i=7310,q=2\u{1B}\\")
    }

    @Test("kitty: when the view changes and the image goes, it is deleted before the text is drawn whole again")
    func imageGoes() async throws {
        let session = try session()
        let terminal = RecordingCardTerminal(graphics: .kitty)
        let driver = TerminalCardDriver(terminal: { terminal }, environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8"])
        let presenting = Task { @MainActor in await driver.present(session, keys: KeyScript()) }
        await terminal.firstWrite()
        try #require(session.controller).view.elements = [Label("no picture now")]
        await terminal.write(count: 2)
        let second = terminal.text[1]
        #expect(second.hasPrefix("\u{1B}_Ga=d,d=I,i=7310,q=2\u{1B}\\\u{1B}[0m\u{1B}[2J"), "\(second.debugDescription)")
        #expect(second.contains("no picture now") && !second.contains("\u{1B}_Ga=T"))
        terminal.send(.key(.character("q")))
        #expect(await presenting.value == .closed)
        #expect(terminal.text.count == 2, "nothing left to delete")
    }

    @Test("iTerm2: the file inline at its cells; nothing to delete (the screen goes with the card)")
    func iTerm2() async throws {
        let terminal = try await run(.iTerm2)
        let first = try #require(terminal.text.first)
        #expect(first.contains("\u{1B}[2;19H\u{1B}]1337;File=inline=1;size=45;width=24;height=8;preserveAspectRatio=0;doNotMoveCursor=1:"))
        #expect(terminal.text.count == 1)
    }

    @Test("sixel with a cell size: the PNG's pixels at its cells, 24 × 8 cells of 10 × 20 pixels")
    func sixel() async throws {
        var samples: [UInt8] = []
        for pixel in 0..<(48 * 32) { samples += [UInt8(pixel % 48 * 5), UInt8(pixel / 48 * 8), 128] }
        let png = TestImages.png(width: 48, height: 32, colourType: 2, samples: samples)
        let terminal = try await run(.sixel, cellPixels: Size(width: 10, height: 20), png: png)
        let first = try #require(terminal.text.first)
        #expect(first.contains("\u{1B}[2;19H\u{1B}P0;1;0q\"1;1;240;156#"))
        #expect(!first.contains("[image:"))
        #expect(terminal.text.count == 1, "nothing to delete: the text goes over it")
    }

    @Test("A terminal that draws no pictures (or only sixel) gets the stand-in and no graphics sequence", arguments: [nil, GraphicsProtocol.sixel])
    func standIn(_ graphics: GraphicsProtocol?) async throws {
        let terminal = try await run(graphics)
        let all = terminal.text.joined()
        #expect(all.contains("[image: photo.png 48×32]"))
        #expect(!all.contains("\u{1B}_G") && !all.contains("1337"))
    }
}
