import NotiplayCore
import Notiplay

/// Presenter processes: a card whose content extension is an author's is presented in a process
/// of its own (``presenterLaunch``), so that the extension's crash costs its card, never the
/// server. The default card runs no author code and stays here. A card whose presenter died is
/// shown again with the default card and a line saying why, and the store remembers it: after a
/// restart it is never presented by that extension again.
extension CenterService {
    /// The line a crashed card shows, and its warning.
    static func crashLine(_ name: String) -> String {
        "\(TerminalText.clean(name)).appex crashed while presenting this notification: shown with the default card"
    }

    /// The session for the deck's shown `card`: in a presenter when its extension is an
    /// author's and a presenter can be started, else here.
    func makeSession(for card: CenterDeck.Card, app: App, definition: AppDefinition, log: EventLog) -> any CardSession {
        let crashed = card.identifiers.contains { live[$0]?.crashedExtension != nil }
        let category = live[card.shown]?.notification?.request.content.categoryIdentifier ?? ""
        if !crashed, let launch = presenterLaunch, launch.apps.contains(definition.name),
            app.registry.contentExtension(for: category) != nil,
            let process = takePresenter(launch)
        {
            let session = PresenterSession(process: process, app: definition.name, log: log, width: configuration.cardColumns)
            session.source = { [weak self] identifier in self?.live[identifier]?.wire }
            session.clock = configuration.now
            session.onEnd = { [weak self, weak session] status, name, whileShown in
                guard let self, let session else { return }
                let named = name ?? app.registry.contentExtension(for: category)?.bundleName ?? "extension"
                self.presenterEnded(session, status: status, extensionName: named, whileShown: whileShown, card: card)
            }
            return session
        }
        return PresentationSession(
            app: definition, registry: crashed ? .empty : app.registry, types: types, engine: engine, log: log,
            configuration: configuration)
    }

    /// Closes the shown card's session; a presenter's is kept until its process has ended.
    func closeShownSession() {
        if let presenter = shownSession as? PresenterSession, !presenter.hasEnded {
            closingPresenters[ObjectIdentifier(presenter)] = presenter
        }
        shownSession?.close()
        shownSession = nil
    }

    /// The spare presenter if it still runs, else a new one; a new spare is started for the next
    /// card once this one has been presented (not beside it: a process starting takes the CPU the
    /// card's first frame needs). `nil` when none can be started (the card is then presented
    /// here).
    private func takePresenter(_ launch: PresenterLaunch) -> PresenterProcess? {
        guard !presentersStopped else { return nil }
        var process = sparePresenter
        sparePresenter = nil
        if process?.hasEnded ?? true { process = try? PresenterProcess.start(launch) }
        spareStart?.cancel()
        spareStart = Task { @MainActor [weak self] in
            guard let self, !Task.isCancelled, !self.presentersStopped, self.sparePresenter == nil else { return }
            self.sparePresenter = try? PresenterProcess.start(launch)
        }
        return process
    }

    /// Ends every presenter (the server stops): the spare at once; a closed card's once it has
    /// settled (what it printed last is read then), or after ``presenterSettleLimit``.
    func stopPresenters() async {
        presentersStopped = true
        spareStart?.cancel()
        sparePresenter?.stop()
        sparePresenter = nil
        let closing = closingPresenters.values.map(\.process)
        closingPresenters = [:]
        let limit = Self.presenterSettleLimit
        for process in closing {
            _ = await Task.detached { process.wait(for: -1, limit: limit) }.value
            process.stop()
        }
    }

    /// How long a stopping server waits for a closed card's presenter to end.
    static let presenterSettleLimit = Duration.seconds(5)

    /// A presenter ended: a crash while its card was shown shows the card again with the default
    /// card and a line, remembered in the store; a crash after its card was closed is a warning.
    private func presenterEnded(
        _ session: PresenterSession, status: Int32, extensionName: String, whileShown: Bool, card: CenterDeck.Card
    ) {
        closingPresenters[ObjectIdentifier(session)] = nil
        // A server that stops ends its presenters: that is no crash.
        guard status != 0, !presentersStopped else { return }
        let cause = status > 128 ? "signal \(status - 128)" : "exit status \(status)"
        guard whileShown, session === shownSession else {
            emit(.warning(
                identifier: card.shown, key: "extension",
                message: "\(TerminalText.clean(extensionName)).appex crashed (\(cause)) after its card was closed"))
            return
        }
        for identifier in card.identifiers {
            _ = try? store.markCrashed(identifier, extension: extensionName)
            rememberCrash(of: extensionName, on: identifier)
        }
        emit(.warning(identifier: card.shown, key: "extension", message: Self.crashLine(extensionName) + " (\(cause))"))
        showCurrent()
    }

    /// Notification `identifier`'s card is shown with the default card from now on, with a line
    /// saying that `name` crashed.
    func rememberCrash(of name: String, on identifier: String) {
        guard live[identifier]?.crashedExtension == nil else { return }
        live[identifier]?.crashedExtension = name
        noteOnCard(identifier, Self.crashLine(name))
    }
}
