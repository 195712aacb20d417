import NotiplayCore
package import NotiplayViews
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A card whose content extension runs in a presenter process (``PresenterHost``): the center,
/// its drivers and its viewers use it as any ``CardSession``, and it passes what they do to the
/// presenter, and what the presenter draws and records back to them. When the presenter dies
/// (the extension trapped, or a signal ended it), ``onEnd`` says so; the process that shows the
/// card goes on.
///
/// Requests wait for their answer (at most ``answerLimit``): as with a session in this process,
/// the card's events and its picture are up to date when ``present(_:)`` or ``handle(_:)``
/// returns.
@MainActor
package final class PresenterSession: CardSession {
    /// How long a request waits for the presenter's answer before it goes on without it.
    package static let answerLimit = Duration.seconds(10)

    package let log: EventLog
    package var onChange: (@MainActor () -> Void)?
    /// The presenter.
    package let process: PresenterProcess
    /// The app whose extension presents.
    package let app: String
    /// The notification to send for an identifier: its stored payload and attachments.
    package var source: (@MainActor (String) -> WireNotification?)?
    /// Called once when the presenter has ended: its exit status (or 128 + the signal), the
    /// extension that was presenting, and whether the card was still shown (not closed).
    package var onEnd: (@MainActor (_ status: Int32, _ extensionName: String?, _ whileShown: Bool) -> Void)?

    private var snapshot: WireCard?
    /// The pictures the presenter sent last (it sends them only when they change).
    private var pictures: [Picture] = []
    private var sequence = 0
    private var closed = false
    private var endReported = false
    private var width: Int
    private var presentingExtension: String?

    /// A card of `app` presented by `process`, its events recorded in `log`, laid out `width`
    /// columns wide until a driver sets another.
    package init(process: PresenterProcess, app: String, log: EventLog, width: Int) {
        self.process = process
        self.app = app
        self.log = log
        self.width = width
        process.onArrival { [weak self] in
            guard let self else { return }
            Task { @MainActor in self.drain() }
        }
    }

    /// Whether the presenter has ended.
    package var hasEnded: Bool { process.hasEnded }

    package var layoutWidth: Int {
        get { width }
        set {
            guard newValue != width else { return }
            width = newValue
            var request = next(.width)
            request.width = newValue
            ask(request)
        }
    }

    package var isPlaying: Bool { snapshot?.isPlaying ?? false }
    package var isDismissed: Bool { snapshot?.isDismissed ?? false }
    package var awaitsResponse: Bool { snapshot?.awaitsResponse ?? false }
    package var actionTitles: [String] { (snapshot?.actions ?? []).map { $0.first ?? "" } }
    /// The extension presenting, as its `didReceive` event named it.
    package var extensionName: String? { snapshot?.extensionName ?? presentingExtension }

    /// The clock a card's age is measured on, when ``card(now:prompt:status:)`` is given none.
    package var clock: @Sendable () -> Date = { .now }

    package func card(now: Date?, prompt: String?, status: String?) -> CardModel {
        let now = now ?? clock()
        guard let snapshot else { return CardModel(header: app) }
        var card = CardModel(
            header: snapshot.header,
            age: snapshot.date.map { PresentationSession.age(from: Date(timeIntervalSince1970: $0), to: now) } ?? "now")
        card.view = [WireGridElement(grid: snapshot.view.grid(pictures: pictures, activate: { _ in }))]
        card.preferredRows = snapshot.preferredRows
        card.contentSizeRatio = snapshot.contentSizeRatio
        if let content = snapshot.defaultContent, content.count == 3 {
            card.defaultContent = (content[0], content[1], content[2])
        }
        card.actions = snapshot.actions.map {
            CardModel.Action(title: $0.first ?? "", destructive: $0.contains("d"), textInput: $0.dropFirst().contains("t"))
        }
        card.button = snapshot.button.flatMap(CardModel.Button.init(wire:))
        card.buttonFrame = Rect(wire: snapshot.buttonFrame)
        card.buttonTint = TerminalColor(wire: snapshot.buttonTint)
        card.interactive = snapshot.interactive
        card.focus = snapshot.focus.flatMap(CardTarget.init(wire:))
        card.prompt = prompt
        card.status = status
        return card
    }

    package func cardMap() -> CardMap {
        CardLayout.layout(card(now: nil, prompt: nil, status: nil), width: width).map
    }

    package func textInputAction(for input: PresentationSession.Input) -> Int? {
        let focus = snapshot?.focus.flatMap(CardTarget.init(wire:))
        guard let number = input.chosenAction(focus: focus, map: cardMap()) else { return nil }
        let actions = snapshot?.actions ?? []
        guard actions.indices.contains(number - 1), actions[number - 1].dropFirst().contains("t") else { return nil }
        return number
    }

    package func handle(_ input: PresentationSession.Input) {
        var request = next(.input)
        request.input = input.wire
        ask(request)
    }

    package func present(_ notification: UNNotification) throws(NotiplayError) {
        let identifier = notification.request.identifier
        guard let wire = source?(identifier) else {
            throw NotiplayError(.badData, "notification \"\(identifier)\" cannot be handed to its presenter")
        }
        var request = next(.present)
        request.app = app
        request.notifications = [wire]
        ask(request)
    }

    package func mediaWaits(for task: Task<Void, Never>) {
        // The presenter plays on an engine of its own.
    }

    package func close() {
        guard !closed else { return }
        closed = true
        var request = next(.close)
        request.width = width
        _ = process.channel.send(request)
    }

    private func next(_ kind: PresenterRequest.Kind) -> PresenterRequest {
        sequence += 1
        return PresenterRequest(seq: sequence, kind: kind)
    }

    /// Sends `request` and waits for its answer (or the presenter's end), then takes in what came.
    /// A presenter that has not answered within ``answerLimit`` (its extension does not return)
    /// is ended, as iOS ends an extension that hangs: its card is then the crashed card's.
    private func ask(_ request: PresenterRequest) {
        guard !closed, !process.hasEnded else { return }
        if process.channel.send(request), !process.wait(for: request.seq, limit: Self.answerLimit) {
            process.kill()
            process.wait(for: request.seq, limit: Self.answerLimit)
        }
        drain()
    }

    /// Takes in what the presenter sent: its events into the log, its card; then its end.
    private func drain() {
        let (replies, status) = process.take()
        var changed = false
        for reply in replies {
            // The card as it was when the events were recorded, first: an observer of the log
            // reads it.
            if let card = reply.card {
                snapshot = card
                if let sent = card.view.pictures { pictures = sent }
                changed = true
            }
            for wire in reply.events ?? [] {
                guard let event = wire.event else { continue }
                if case .didReceive(_, _, let name, _) = event { presentingExtension = name }
                log.record(event)
            }
        }
        if changed { onChange?() }
        guard let status, !endReported else { return }
        endReported = true
        let whileShown = !closed
        let name = extensionName
        // Not from inside whatever asked: the center replaces this card.
        Task { @MainActor [weak self] in self?.onEnd?(status, name, whileShown) }
    }
}

/// The extension's view as the presenter drew it: its cells, at the width the card gives it.
struct WireGridElement: ViewElement {
    let grid: Grid

    func render(width: Int) -> Grid {
        var drawn = Grid(width: max(0, width), height: grid.height)
        drawn.draw(grid, row: 0, column: 0)
        return drawn
    }
}

extension CardModel.Button {
    /// The button's name on the wire.
    package var wire: String {
        switch self {
        case .play: "play"
        case .pause: "pause"
        case .overlayPlay: "overlayPlay"
        case .overlayHidden: "overlayHidden"
        }
    }

    package init?(wire: String) {
        switch wire {
        case "play": self = .play
        case "pause": self = .pause
        case "overlayPlay": self = .overlayPlay
        case "overlayHidden": self = .overlayHidden
        default: return nil
        }
    }
}
