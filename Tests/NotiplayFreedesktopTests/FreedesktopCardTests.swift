import Foundation
import Notiplay
import NotiplayCenter
import NotiplayCore
import NotiplayFreedesktop
import NotiplayFreedesktopBridge
import NotiplayPlayback
import NotiplayTestSupport
import NotiplayViews
import Synchronization
import Testing

/// The card of a freedesktop notification no app claims: real `Notify` calls mapped, stored as
/// the center stores them, presented for ``FreedesktopApp`` by the runtime, and the card's cells
/// looked at.
@MainActor
@Suite("The freedesktop card", .serialized)
struct FreedesktopCardTests {
    static let mapping = FreedesktopMapping(options: .init(dataDirectories: []))
    static let width = 60
    let chime = TestMedia.path("chime.wav")

    /// The notification as the center presents it (`CenterService.notification(_:)`): the payload
    /// it stores decoded again, the attachments attached.
    static func notification(_ mapped: FreedesktopMapped) throws -> UNNotification {
        try notification(payload: mapped.payloadJSON, identifier: mapped.identifier, attachments: mapped.attachments)
    }

    static func notification(
        payload: String, identifier: String, attachments: [UNNotificationAttachment] = []
    ) throws -> UNNotification {
        let content = UNMutableNotificationContent(try PayloadDecoder(sizeLimit: nil).decode(Array(payload.utf8)).content)
        content.attachments = attachments
        let request = UNNotificationRequest(
            identifier: identifier, content: content.content, trigger: UNPushNotificationTrigger())
        return UNNotification(request: request, date: Date())
    }

    /// A session of the freedesktop app, with the extension type registered as serve registers
    /// it, and `categories` registered as the bridge does.
    static func session(categories: [UNNotificationCategory] = []) -> PresentationSession {
        var types = ExtensionTypes()
        FreedesktopApp.register(in: &types)
        var app = FreedesktopApp.definition
        app.categories = categories
        return PresentationSession(app: app, registry: FreedesktopApp.registry, types: types, engine: FakeEngine())
    }

    /// `notify` mapped, presented, and its card drawn `width` columns wide.
    static func card(
        _ notify: FreedesktopNotify, id: UInt32 = 7, width: Int = Self.width
    ) throws -> (session: PresentationSession, grid: Grid) {
        let mapped = mapping.map(notify, id: id)
        let session = session(categories: mapped.category.map { [$0] } ?? [])
        let notification = try notification(mapped)
        try session.present(notification)
        return (session, CardLayout.render(session.card(now: notification.date), width: width))
    }

    /// The cells where `text` first shows on `grid`, or `nil`.
    static func cells(of text: String, in grid: Grid) -> [Cell]? {
        let wanted = Array(text)
        for y in 0..<grid.height {
            let row = Array(grid.row(y))
            guard row.count >= wanted.count else { continue }
            for x in 0...(row.count - wanted.count)
            where wanted.indices.allSatisfy({ row[x + $0].character == wanted[$0] }) {
                return Array(row[x..<(x + wanted.count)])
            }
        }
        return nil
    }

    /// Whether any cell holds a control character (an escape byte among them).
    static func hasControl(_ grid: Grid) -> Bool {
        grid.cells.contains { cell in
            cell.character?.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } == true
        }
    }

    @Test("The header is app_name, by the extension's title; the default content is not drawn twice")
    func headerIsAppName() throws {
        let (session, grid) = try Self.card(
            FreedesktopNotify(appName: "Thunderbird", summary: "Mail from Ann", body: "Lunch?"))
        defer { session.close() }
        #expect(session.controller is FreedesktopCardExtension)
        #expect(session.manifest?.bundleName == FreedesktopApp.manifest.bundleName)
        #expect(grid.lines[0].hasPrefix("┌─ Thunderbird "), "\(grid.lines)")
        #expect(!grid.lines[0].contains(FreedesktopApp.name))
        #expect(Self.cells(of: "Mail from Ann", in: grid)?.allSatisfy(\.style.bold) == true)
        #expect(grid.lines.filter { $0.contains("Lunch?") }.count == 1, "\(grid.lines)")
        #expect(session.card().defaultContent == nil)
    }

    @Test("Bold, italic and underlined runs keep their styles in the cells; a link is underlined in the tint")
    func bodyStyles() throws {
        let body = #"<b>bold</b> <i>italic</i> <u>under</u> plain <a href="https://example.org">menu</a>"#
        let (session, grid) = try Self.card(FreedesktopNotify(appName: "Mail", summary: "Styles", body: body))
        defer { session.close() }
        let bold = try #require(Self.cells(of: "bold", in: grid), "\(grid.lines)")
        #expect(bold.allSatisfy { $0.style.bold && !$0.style.italic && !$0.style.underline })
        let italic = try #require(Self.cells(of: "italic", in: grid))
        #expect(italic.allSatisfy { $0.style.italic && !$0.style.bold })
        let under = try #require(Self.cells(of: "under", in: grid))
        #expect(under.allSatisfy { $0.style.underline && !$0.style.bold })
        let plain = try #require(Self.cells(of: "plain", in: grid))
        #expect(plain.allSatisfy { $0.style == .plain })
        let link = try #require(Self.cells(of: "menu", in: grid))
        #expect(link.allSatisfy { $0.style.underline && $0.style.foreground == .systemTint })
        let target = try #require(Self.cells(of: "(https://example.org)", in: grid))
        #expect(target.allSatisfy { $0.style.dim && !$0.style.underline })
    }

    @Test("A link whose text is its target is not followed by it again")
    func linkShownOnce() throws {
        let body = #"see <a href="https://example.org">https://example.org</a>"#
        let (session, grid) = try Self.card(FreedesktopNotify(summary: "Link", body: body))
        defer { session.close() }
        #expect(grid.lines.joined().components(separatedBy: "example.org").count == 2, "\(grid.lines)")
    }

    @Test("An escape byte in summary, body or app_name never reaches the card")
    func escapesNeverReachTheCard() throws {
        let notify = FreedesktopNotify(
            appName: "\u{1B}[1mEvil\u{07}", summary: "\u{1B}[31mred\u{9B}2J title",
            body: "x\u{1B}]52;c;QUFBQQ==\u{07}y <b>\u{1B}[2Jbold</b> &#27;[31mz\r\nnext")
        let (session, grid) = try Self.card(notify)
        defer { session.close() }
        #expect(!Self.hasControl(grid))
        let text = FrameRenderer.plainText(grid)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 })
        #expect(grid.lines[0].contains("Evil"), "\(grid.lines)")
        #expect(Self.cells(of: "red", in: grid)?.allSatisfy(\.style.bold) == true, "\(grid.lines)")
        #expect(Self.cells(of: "bold", in: grid)?.allSatisfy(\.style.bold) == true, "\(grid.lines)")
    }

    @Test("A stored payload is input too: escapes in its freedesktop object are cleaned on the way to the card")
    func storedPayloadIsCleaned() throws {
        let payload = #"""
            {"aps": {"alert": {"title": "T\u001b[5m", "body": "b"}},
             "freedesktop": {"id": 3, "app": "A\u001b]0;x\u0007pp", "image": "/x\u001b[2J.png",
                             "markup": [{"text": "\u001b[31mhot", "bold": true},
                                        {"text": " go", "link": "https://e.org/\u001b[1m"}]}}
            """#
        let session = Self.session()
        defer { session.close() }
        let notification = try Self.notification(payload: payload, identifier: "freedesktop-3")
        try session.present(notification)
        let grid = CardLayout.render(session.card(now: notification.date), width: Self.width)
        #expect(!Self.hasControl(grid))
        #expect(grid.lines[0].contains("App"), "\(grid.lines)")
        #expect(Self.cells(of: "hot", in: grid)?.allSatisfy(\.style.bold) == true, "\(grid.lines)")
        #expect(grid.lines.contains { $0.contains("image: /x.png") }, "\(grid.lines)")
    }

    @Test("image-path is listed as one dim line, not drawn")
    func imageListed() throws {
        let (session, grid) = try Self.card(
            FreedesktopNotify(summary: "Screenshot", hints: ["image-path": .string("/home/ann/shot.png")]))
        defer { session.close() }
        let line = try #require(Self.cells(of: "image: /home/ann/shot.png", in: grid), "\(grid.lines)")
        #expect(line.allSatisfy { $0.style.dim })
        #expect(grid.lines.filter { $0.contains("image:") }.count == 1)
    }

    @Test("A sound-file attachment gives a .default media button on ▶, with the name and progress rows")
    func soundAttachment() throws {
        let (session, grid) = try Self.card(
            FreedesktopNotify(appName: "Build", summary: "Done", hints: ["sound-file": .string(chime)]))
        defer { session.close() }
        #expect(session.buttonType == .default)
        #expect(session.buttonState == .play)
        #expect(!session.isPlaying)
        #expect(session.card().button == .play)
        #expect(session.log.events(named: "mediaPlay").isEmpty, "nothing plays until the center presses the button")
        #expect(grid.lines[1].hasPrefix("│ ▶  chime.wav"), "\(grid.lines)")
        #expect(grid.lines[2].contains("0:00 / –:––"), "\(grid.lines)")
        #expect(grid.lines[3].contains("Done"), "the title under the sound rows: \(grid.lines)")
    }

    @Test("Without a sound, no media button")
    func noSound() throws {
        let (session, _) = try Self.card(FreedesktopNotify(summary: "Quiet", hints: ["suppress-sound": .bool(true)]))
        defer { session.close() }
        #expect(session.buttonType == .none)
        #expect(session.buttonState == .none)
    }

    @Test("The extension presents every category: the buttons' freedesktop.N and none")
    func everyCategory() throws {
        let (withButtons, grid) = try Self.card(
            FreedesktopNotify(summary: "Mail", actions: ["archive", "Archive", "default", "Open"]), id: 12)
        defer { withButtons.close() }
        #expect(withButtons.notification?.request.content.categoryIdentifier == "freedesktop.12")
        #expect(withButtons.controller is FreedesktopCardExtension)
        #expect(grid.lines.contains { $0.contains("1 Archive") }, "\(grid.lines)")
        let (plain, _) = try Self.card(FreedesktopNotify(summary: "No buttons"), id: 13)
        defer { plain.close() }
        #expect(plain.notification?.request.content.categoryIdentifier == "")
        #expect(plain.controller is FreedesktopCardExtension)
        #expect(FreedesktopApp.registry.contentExtension(for: "anything")?.typeName == FreedesktopCardExtension.typeName)
    }

    @Test("A notification without a freedesktop object is drawn as the default card draws it")
    func withoutFreedesktopObject() throws {
        let session = Self.session()
        defer { session.close() }
        let notification = try Self.notification(
            payload: #"{"aps": {"alert": {"title": "Plain", "subtitle": "sub", "body": "just a body"}}}"#,
            identifier: "x")
        try session.present(notification)
        let grid = CardLayout.render(session.card(now: notification.date), width: Self.width)
        #expect(grid.lines[0].hasPrefix("┌─ \(FreedesktopApp.name) "), "\(grid.lines)")
        #expect(Self.cells(of: "Plain", in: grid)?.allSatisfy(\.style.bold) == true)
        #expect(grid.lines[2].contains("sub") && grid.lines[3].contains("just a body"), "\(grid.lines)")
        #expect(session.buttonType == .none)
    }

    @Test("A long body wraps at the card's width, styles kept across lines, at most four lines")
    func longBodyWraps() throws {
        let words = (1...40).map { $0 == 12 ? "<b>twelve</b>" : "word\($0)" }.joined(separator: " ")
        let (session, grid) = try Self.card(FreedesktopNotify(summary: "Long", body: words), width: 40)
        defer { session.close() }
        let body = grid.lines.filter { $0.contains("word") }
        #expect(body.count == FreedesktopCardContent.maximumBodyLines, "\(grid.lines)")
        #expect(body.allSatisfy { $0.count == 40 })
        #expect(body.last?.contains("…") == true)
        #expect(!body[0].contains("twelve"))
        #expect(Self.cells(of: "twelve", in: grid)?.allSatisfy(\.style.bold) == true, "\(grid.lines)")
    }

    @Test("StyledParagraph breaks plain text where TextLayout.wrap does")
    func styledParagraphWrapsAsParagraph() {
        let text = "A  long line, with   spaces and averyveryverylongwordthatbreaks\nand a second paragraph of text"
        for width in [1, 5, 12, 30] {
            for maxLines in [1, 3, 10] {
                let spans = [TextSpan(String(text.prefix(20))), TextSpan(String(text.dropFirst(20)), style: .bold)]
                let styled = StyledParagraph(spans: spans, maxLines: maxLines).render(width: width)
                let plain = Paragraph(text, maxLines: maxLines).render(width: width)
                #expect(styled.lines == plain.lines, "width \(width), \(maxLines) lines")
            }
        }
    }

    @Test("Through the center: the app, the category and the attachment as serve --freedesktop adds them")
    func throughTheCenter() async throws {
        let folder = try TestMedia.scratch().appendingPathComponent("store").path
        var types = ExtensionTypes()
        FreedesktopApp.register(in: &types)
        let engine = FakeEngine()
        let service = CenterService(
            store: try CenterStore.open(folder: folder),
            apps: [CenterService.App(definition: .standard, registry: .empty), FreedesktopApp.app()],
            types: types, engine: engine)
        let notify = FreedesktopNotify(
            appName: "Thunderbird", summary: "Mail", body: "<b>Lunch?</b>", actions: ["archive", "Archive"],
            hints: ["sound-file": .string(chime)])
        let mapped = Self.mapping.map(notify, id: 3)
        // What the bridge does with a Notify call.
        if let category = mapped.category {
            _ = try service.setCategories(CategoryJSON.encode([category]), for: FreedesktopApp.name)
        }
        _ = try service.receive(
            IncomingNotification(
                identifier: mapped.identifier, app: FreedesktopApp.name, payload: mapped.payloadJSON,
                categoryIdentifier: mapped.categoryIdentifier, attachments: try CenterService.incoming(mapped.attachments)))
        let session = try #require(service.shownSession as? PresentationSession)
        let grid = CardLayout.render(session.card(), width: Self.width)
        #expect(session.controller is FreedesktopCardExtension)
        #expect(grid.lines[0].hasPrefix("┌─ Thunderbird "), "\(grid.lines)")
        #expect(session.buttonType == .default && session.buttonState == .play)
        #expect(Self.cells(of: "Lunch?", in: grid)?.allSatisfy(\.style.bold) == true, "\(grid.lines)")
        #expect(grid.lines.contains { $0.contains("1 Archive") }, "\(grid.lines)")
        #expect(try service.store.delivered().map(\.app) == [FreedesktopApp.name])
        await service.close()
        await engine.shutdown()
    }
}
