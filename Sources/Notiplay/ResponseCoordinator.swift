import NotiplayCore

/// What a response's outcome does to the card: the session's side of ``ResponseCoordinator``.
@MainActor
protocol ResponseOutcomes: AnyObject {
    /// Passes the action on to the app (`text` for a text-input action).
    func forward(_ identifier: String, text: String?, url: String?)
    /// Closes the card.
    func dismiss(reason: PresentationEvent.DismissReason)
}

/// Hands a chosen action to the extension — or, when it handles no responses, on to the app —
/// and applies the extension's answer. The completion handler has a time limit, measured on the
/// session's clock: when it passes first, the response counts as `.dismiss`, and a later answer is
/// ignored; so is a second call.
@MainActor
final class ResponseCoordinator {
    private let log: EventLog
    private let limit: Duration
    private let clock: any Clock<Duration>
    /// Where outcomes go.
    weak var outcomes: (any ResponseOutcomes)?
    /// How many responses wait for their completion handler.
    private(set) var pending = 0

    init(log: EventLog, limit: Duration, clock: any Clock<Duration>) {
        self.log = log
        self.limit = limit
        self.clock = clock
    }

    /// A person chose `action` on the card showing `notification`, presented by `controller`;
    /// `text` answers a text-input action.
    func respond(
        to action: UNNotificationAction, text: String?, notification: UNNotification, controller: any UNNotificationContentExtension
    ) {
        let response: any UNNotificationResponse
        let typed: String?
        if action.isTextInput {
            typed = text ?? ""
            response = UNTextInputNotificationResponse(
                notification: notification, actionIdentifier: action.identifier, userText: typed ?? "")
        } else {
            typed = nil
            response = UNNotificationActionResponse(notification: notification, actionIdentifier: action.identifier)
        }
        log.record(.action(identifier: action.identifier, text: typed))
        let unhandled = UnhandledResponse()
        let gate = CompletionGate()
        pending += 1
        let limit = self.limit
        let clock = self.clock
        let timer = Task { @MainActor [weak self] in
            try? await clock.sleep(for: limit)
            guard !Task.isCancelled, let self, gate.claim() else { return }
            self.pending -= 1
            self.log.record(.response(option: .dismiss, identifier: action.identifier, timedOut: true))
            self.log.record(
                .error("the completion handler for \"\(action.identifier)\" was not called within \(limit); counted as .dismiss"))
            self.outcomes?.dismiss(reason: .timeout)
        }
        let complete: @MainActor (UNNotificationContentExtensionResponseOption) -> Void = { [weak self] option in
            guard let self else { return }
            guard gate.claim() else {
                self.log.record(.error("completion handler for \"\(action.identifier)\" called again or after the time limit; ignored"))
                return
            }
            timer.cancel()
            self.pending -= 1
            // The extension implements neither response handler: the action goes on to the app and
            // the card closes, as on iOS; that is not an answer of the extension's.
            if unhandled.wasUnhandled {
                self.outcomes?.forward(action.identifier, text: typed, url: nil)
                self.outcomes?.dismiss(reason: .forwarded)
                return
            }
            self.log.record(.response(option: option, identifier: action.identifier))
            switch option {
            case .doNotDismiss: break
            case .dismiss: self.outcomes?.dismiss(reason: .response)
            case .dismissAndForwardAction:
                self.outcomes?.forward(action.identifier, text: typed, url: nil)
                self.outcomes?.dismiss(reason: .response)
            }
        }
        UnhandledResponse.$current.withValue(unhandled) {
            controller.didReceive(response) { option in complete(option) }
        }
    }
}

/// Lets exactly one of a completion handler and its timer win.
@MainActor
private final class CompletionGate {
    private var claimed = false

    func claim() -> Bool {
        if claimed { return false }
        claimed = true
        return true
    }
}
