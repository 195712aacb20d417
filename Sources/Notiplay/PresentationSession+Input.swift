import NotiplayCore

extension PresentationSession {
    /// Handles what a person did: each input goes to the part of the card it concerns, with the
    /// card's extension code running in the card's scope.
    public func handle(_ input: Input) {
        guard presenter.isShown else { return }
        router.scope.bind { dispatch(input) }
    }

    private func dispatch(_ input: Input) {
        switch input {
        case .media:
            presenter.pressButton()
        case .tapContent:
            presenter.touchContent()
        case .action(let number, let text):
            guard presenter.actions.indices.contains(number - 1) else { return }
            respond(to: presenter.actions[number - 1], text: text)
        case .actionNamed(let identifier, let text):
            guard let action = presenter.actions.first(where: { $0.identifier == identifier }) else {
                log.record(.error("no action \"\(identifier)\" on the card"))
                return
            }
            respond(to: action, text: text)
        case .defaultAction:
            performDefaultAction(from: .user)
        case .dismiss:
            dismissByUser()
        case .seek(let seconds):
            seek(to: seconds)
        case .seekBy(let delta):
            guard let player = seekablePlayer else { return }
            seek(to: player.position + delta)
        case .focusNext:
            moveFocus(by: 1)
        case .focusPrevious:
            moveFocus(by: -1)
        case .confirm:
            let map = cardMap()
            if let focus, map.focusOrder.contains(focus) {
                activate(focus, on: map)
            } else {
                performDefaultAction(from: .user)
            }
        case .click(let column, let row):
            let map = cardMap()
            if let target = map.target(column: column, row: row) { activate(target, on: map) }
        }
    }

    /// A person closed the card (Esc, d, a click on ✕).
    func dismissByUser() {
        if presenter.category?.options.contains(.customDismissAction) == true {
            forward(UNNotificationDismissActionIdentifier, text: nil)
        }
        dismiss(reason: .user)
    }

    func respond(to action: UNNotificationAction, text: String?) {
        guard let notification = presenter.notification, let controller = presenter.controller else { return }
        responses.respond(to: action, text: text, notification: notification, controller: controller)
    }

    /// Whether the card's media can be moved: the extension shows a media button (its type is not
    /// `.none`, as on iOS, where only then does the system drive its media) and its player has
    /// loaded the attachment, or asked for it (a seek then runs after the load). Extensions
    /// without a media button keep control of their own media.
    public var canSeek: Bool { seekablePlayer != nil }

    private var seekablePlayer: MediaPlayer? {
        guard presenter.buttonType != .none,
              let player = router.lease.loadingPlayer ?? router.loadedPlayer, player.isLoaded
        else { return nil }
        return player
    }

    private func seek(to seconds: Double) {
        guard let player = seekablePlayer else { return }
        var target = max(0, seconds)
        if let duration = player.duration { target = min(target, duration) }
        player.seek(to: target)
    }
}
