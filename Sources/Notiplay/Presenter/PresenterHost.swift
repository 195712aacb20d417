import NotiplayCore
package import NotiplayPlayback
import NotiplaySystem
package import SystemPackage
import NotiplayViews
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The presenter process's side of a card (`notiplay serve` starts one per card whose content
/// extension is an author's): it runs the card's ``PresentationSession`` — the extension, its
/// view controller, its media — on an engine of its own, does what the server asks over the
/// socket (``PresenterRequest``), and sends back every event and the card as drawn
/// (``PresenterReply``). The card's close ends the process; so does the socket's end (the server
/// is gone), at once, whatever the extension is doing.
@MainActor
package final class PresenterHost {
    /// An app this presenter can present for.
    package struct App: Sendable {
        package var definition: AppDefinition
        package var registry: ExtensionRegistry

        package init(definition: AppDefinition, registry: ExtensionRegistry) {
            self.definition = definition
            self.registry = registry
        }
    }

    private let channel: PresenterChannel
    private let apps: [String: App]
    private let types: ExtensionTypes
    private let engine: any PlaybackEngine
    private let configuration: PresentationSession.Configuration
    private var session: PresentationSession?
    private var width: Int
    private var cardPending = false
    /// The pictures last sent: a grid whose pictures are the same sends none.
    private var sentPictures: [Picture] = []

    /// A presenter talking over `socket`, for `apps`, with extension `types`, playing on `engine`.
    package init(
        socket: FileDescriptor, apps: [App], types: ExtensionTypes, engine: any PlaybackEngine,
        configuration: PresentationSession.Configuration
    ) {
        channel = PresenterChannel(socket: socket)
        self.apps = Dictionary(apps.map { ($0.definition.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.types = types
        self.engine = engine
        self.configuration = configuration
        width = configuration.cardColumns
    }

    /// Does what the server asks until it closes the card (then returns) or goes away (then the
    /// process ends at once).
    package func run() async {
        let (requests, continuation) = AsyncStream.makeStream(of: PresenterRequest.self)
        do {
            try channel.startReading(
                PresenterRequest.self, name: "notiplay-presenter",
                received: { continuation.yield($0) },
                ended: { Posix.exit(0) })
        } catch {
            return
        }
        for await request in requests {
            if request.kind == .close {
                session?.close()
                await session?.settle()
                return
            }
            handle(request)
            channel.send(PresenterReply(ack: request.seq, card: snapshot()))
            cardPending = false
        }
    }

    private func handle(_ request: PresenterRequest) {
        switch request.kind {
        case .present:
            guard let session = session ?? start(app: request.app ?? "") else { return }
            for wire in request.notifications ?? [] {
                let files = wire.attachments.compactMap { $0.count == 2 ? (path: $0[0], identifier: $0[1]) : nil }
                do {
                    let delivery = try NotificationDelivery(
                        bytes: Array(wire.payload.utf8), sizeLimit: nil, identifier: wire.identifier,
                        date: Date(timeIntervalSince1970: wire.date), attachments: .stored(files))
                    try session.present(delivery.notification)
                } catch {
                    session.log.record(.error("\(error)"))
                }
            }
        case .input:
            guard let words = request.input, let input = PresentationSession.Input(wire: words) else { return }
            session?.handle(input)
        case .width:
            guard let columns = request.width else { return }
            width = columns
            session?.layoutWidth = columns
        case .close:
            break
        }
    }

    /// The session for `app`'s card; `nil` (said as an error event) for an app it does not know.
    private func start(app name: String) -> PresentationSession? {
        guard let app = apps[name] else {
            channel.send(PresenterReply(events: [WireEvent(.error("the presenter knows no app \"\(name)\""))]))
            return nil
        }
        let session = PresentationSession(
            app: app.definition, registry: app.registry, types: types, engine: engine, log: EventLog(),
            configuration: configuration)
        session.layoutWidth = width
        // Each event goes with the card as it is when it is recorded: an observer of the
        // server's log reads the card's state (dismissed, playing) as it would here.
        session.log.observe { [weak self] logged in
            guard let self else { return }
            self.channel.send(PresenterReply(events: [WireEvent(logged.event)], card: self.snapshot()))
        }
        session.onChange = { [weak self] in self?.cardChanged() }
        self.session = session
        return session
    }

    /// The card changed outside a request (its media, a timer of the extension's): sent once
    /// the main actor is free, however many changes came.
    private func cardChanged() {
        guard !cardPending else { return }
        cardPending = true
        Task { @MainActor [weak self] in
            guard let self, self.cardPending else { return }
            self.cardPending = false
            self.channel.send(PresenterReply(card: self.snapshot()))
        }
    }

    /// The card as it is now, its view drawn as wide as a card `width` columns wide gives it.
    private func snapshot() -> WireCard? {
        guard let session else { return nil }
        let card = session.card()
        let inner = width >= CardLayout.minimumWidth ? width - 4 : max(0, width)
        let view = VerticalStack(card.view).render(width: inner)
        var grid = WireGrid(view)
        if view.pictures == sentPictures { grid.pictures = nil } else { sentPictures = view.pictures }
        return WireCard(
            header: card.header, date: session.notification?.date.timeIntervalSince1970, view: grid,
            preferredRows: card.preferredRows, contentSizeRatio: card.contentSizeRatio,
            defaultContent: card.defaultContent.map { [$0.title, $0.subtitle, $0.body] },
            actions: card.actions.map { [$0.title] + ($0.destructive ? ["d"] : []) + ($0.textInput ? ["t"] : []) },
            button: card.button?.wire, buttonFrame: card.buttonFrame.wire, buttonTint: card.buttonTint.wire,
            interactive: card.interactive, focus: card.focus?.wire, isPlaying: session.isPlaying,
            isDismissed: session.isDismissed, awaitsResponse: session.awaitsResponse,
            extensionName: session.manifest?.bundleName)
    }
}
