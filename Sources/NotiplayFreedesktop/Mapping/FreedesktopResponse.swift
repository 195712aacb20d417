internal import NotiplayCore

/// A signal the server sends on the bus about one notification.
public enum FreedesktopSignal: Sendable, Hashable {
    /// `ActionInvoked(id, action_key)`.
    case actionInvoked(id: UInt32, actionKey: String)
    /// KDE's `NotificationReplied(id, text)`, for an `inline-reply` answered on the card.
    case notificationReplied(id: UInt32, text: String)
    /// `NotificationClosed(id, reason)`.
    case notificationClosed(id: UInt32, reason: CloseReason)
}

/// Turns the user's response on a freedesktop card into the signals the client is owed.
///
/// | Response on the card | Signals |
/// |---|---|
/// | Enter (the default action), `default` offered | `ActionInvoked(id, "default")`, then `NotificationClosed(id, 2)` unless resident |
/// | Enter, no `default` offered | `NotificationClosed(id, 2)` |
/// | a button | `ActionInvoked(id, key)`, then `NotificationClosed(id, 2)` unless resident |
/// | the inline reply sent | `NotificationReplied(id, text)`, then `NotificationClosed(id, 2)` unless resident |
/// | dismissed | `NotificationClosed(id, 2)` |
/// | an identifier the client did not offer | nothing |
///
/// The server sends the spec 1.2 `ActivationToken` signal, when it has a token, before
/// `ActionInvoked`; a terminal has none to give.
public enum FreedesktopResponse {
    /// The signals for the response `actionIdentifier` (with `userText` for a text-input action)
    /// to the notification whose extras are `extras`, in the order to send them. The
    /// notification is to be closed when the last one is `notificationClosed`.
    public static func signals(
        forAction actionIdentifier: String, userText: String? = nil, extras: FreedesktopExtras
    ) -> [FreedesktopSignal] {
        let id = extras.id
        let closed = FreedesktopSignal.notificationClosed(id: id, reason: .dismissed)
        let closing = CenterEnding.actionInvoked(resident: extras.resident).closeReason == nil ? [] : [closed]
        switch actionIdentifier {
        case UNNotificationDismissActionIdentifier:
            return [closed]
        case UNNotificationDefaultActionIdentifier:
            guard extras.actions.defaultActionLabel != nil else { return [closed] }
            return [.actionInvoked(id: id, actionKey: FreedesktopActions.defaultKey)] + closing
        default:
            guard let action = extras.actions.buttons.first(where: { $0.key == actionIdentifier }) else { return [] }
            if action.reply != nil {
                return [.notificationReplied(id: id, text: userText ?? "")] + closing
            }
            return [.actionInvoked(id: id, actionKey: action.key)] + closing
        }
    }
}
