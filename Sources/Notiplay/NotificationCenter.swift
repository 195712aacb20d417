import NotiplayCenterClient
import NotiplayCore
import NotiplayViews

/// The app's notification center (Apple: `UNUserNotificationCenter`): in an app's program, the
/// server of the user's session (`notiplay serve`); in extension code presenting a notification,
/// the notifications of the app presenting.
///
/// An app's program — any Swift program, often a short command-line tool — asks for
/// authorization, declares its categories and adds requests with Apple's calls
/// (<doc:SendingFromAnApp>):
///
/// ```swift
/// let center = UNUserNotificationCenter.current()
/// center.requestAuthorization(options: [.alert]) { authorized, error in
///     if authorized {
///         center.add(request, withCompletionHandler: nil)
///     }
/// }
/// ```
///
/// The forms that take a completion handler do their work and call the handler before they
/// return (Apple calls it later, on a queue of its own), so a program that exits right after
/// `add` has its request stored. The `async` forms wait on a thread of the client's, not on the
/// main actor.
///
/// An extension, while it presents a notification, reaches the app's delivered and pending
/// notifications, which seed 001's NagMe removes when its reminder is cancelled:
///
/// ```swift
/// let identifiers = [response.notification.request.identifier]
/// UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: identifiers)
/// UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: identifiers)
/// ```
///
/// Each removal there is recorded as a `removed` event (`kind` pending or delivered,
/// `identifiers` comma-separated). A delivered notification removed while its card is shown
/// stays on the card, as on iOS, where the expanded notification stays until the person closes
/// it.
@MainActor
public final class UNUserNotificationCenter {
    /// The presentation's notifications, inside one.
    weak var store: NotificationStore?
    /// The server, outside a presentation.
    let server: AppServerLink?

    private init(store: NotificationStore?) {
        self.store = store
        self.server = nil
    }

    /// The center of an app's program, reaching `server`.
    package init(server: AppServerLink) {
        self.store = nil
        self.server = server
    }

    /// The center of the code calling: inside a presentation (while the runtime calls an
    /// extension, or in a `Task` it started then), the presenting app's notifications; outside
    /// one, the server of the user's session, for the app this program speaks for:
    /// `$NOTIPLAY_APP` when set, else the program's name, matched to the server's apps ignoring
    /// case, spaces and punctuation (a program `custom-number` speaks for "Custom Number"). The
    /// server's socket is `$XDG_RUNTIME_DIR/notiplay/center.sock`, else
    /// `/tmp/notiplay-UID/center.sock`.
    public static func current() -> UNUserNotificationCenter {
        if let scope = PresentationScope.current { return UNUserNotificationCenter(store: scope.notifications) }
        return UNUserNotificationCenter(server: .forThisProcess())
    }

    /// The notifications delivered and not removed, oldest first. Outside a presentation it
    /// asks the server and waits for the answer (none when the server cannot be reached); in
    /// `async` code, `await center.deliveredNotifications()` is Apple's form, which waits off the
    /// main actor.
    public func deliveredNotifications() -> [UNNotification] {
        guard let server else { return store?.delivered ?? [] }
        return (try? server.perform(ListOperation(state: .delivered, details: true)))
            .map { AppRequestCoding.notifications($0, app: server.app) } ?? []
    }

    /// The requests waiting to be delivered. Outside a presentation it asks the server and waits
    /// for the answer (none when the server cannot be reached); in `async` code,
    /// `await center.pendingNotificationRequests()` is Apple's form.
    public func pendingNotificationRequests() -> [UNNotificationRequest] {
        guard let server else { return store?.pending ?? [] }
        return (try? server.perform(ListOperation(state: .pending, details: true)))
            .map { AppRequestCoding.requests($0, app: server.app) } ?? []
    }

    /// Removes the delivered notifications with these request identifiers (outside a
    /// presentation, the app's own at the server, before returning; failures are not reported,
    /// as on iOS).
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        guard let server else {
            store?.removeDelivered(identifiers)
            return
        }
        remove(identifiers, state: .delivered, at: server)
    }

    /// Removes every delivered notification of the app.
    public func removeAllDeliveredNotifications() {
        guard let server else {
            store.map { $0.removeDelivered($0.delivered.map(\.request.identifier)) }
            return
        }
        remove(nil, state: .delivered, at: server)
    }

    /// Removes the pending requests with these identifiers (outside a presentation, the app's
    /// own at the server, before returning; failures are not reported, as on iOS).
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        guard let server else {
            store?.removePending(identifiers)
            return
        }
        remove(identifiers, state: .pending, at: server)
    }

    /// Removes every pending request of the app.
    public func removeAllPendingNotificationRequests() {
        guard let server else {
            store.map { $0.removePending($0.pending.map(\.identifier)) }
            return
        }
        remove(nil, state: .pending, at: server)
    }

    /// Removes the app's notifications in `state` with these identifiers (`nil`: all of them)
    /// at the server: the server's identifiers are shared by every app, so those of other apps
    /// are left alone.
    private func remove(_ identifiers: [String]?, state: NotificationState, at server: AppServerLink) {
        guard let listed = try? server.perform(ListOperation(state: state)) else { return }
        var own = listed.notifications.filter { AppRequestCoding.belongs($0, to: server.app) }.map(\.identifier)
        if let identifiers { own = own.filter(Set(identifiers).contains) }
        guard !own.isEmpty else { return }
        _ = try? server.perform(RemoveOperation(.identifiers(own), state: state))
    }
}
