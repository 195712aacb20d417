import NotiplayCenterClient
import NotiplayCore

/// What an app's program asks of the server (Apple's calls, both forms where Apple has both).
///
/// The completion-handler forms do their work, then call the handler, before they return: a
/// program that ends right after them has had its request stored. The `async` forms wait on a
/// thread of the client's. Inside a presentation, authorization and adding fail with
/// ``NotificationCenterError/insidePresentation(operation:)`` and categories are ignored; the
/// lists are the presentation's.
extension UNUserNotificationCenter {
    // MARK: Authorization

    /// Asks the server whether the app may send notifications; calls `completionHandler` with
    /// the answer before returning. Granted unless the server was started with
    /// `--deny APP`; `false` and the error when the server cannot be reached, or does not present
    /// for the app (``NotificationCenterError/unknownApp(message:)``, naming the apps it knows).
    /// - Parameters:
    ///   - options: What the app asks for (kept for source compatibility).
    ///   - completionHandler: Called once, before this returns, with whether the app may send
    ///     notifications and the error that kept the server from answering.
    public func requestAuthorization(
        options: UNAuthorizationOptions, completionHandler: @escaping @MainActor (Bool, (any Error)?) -> Void
    ) {
        do {
            completionHandler(try link("requestAuthorization").perform(AuthorizeOperation(app: app)).granted, nil)
        } catch {
            completionHandler(false, error)
        }
    }

    /// Asks the server whether the app may send notifications.
    /// - Parameter options: What the app asks for (kept for source compatibility).
    /// - Returns: Whether it may (granted unless the server was started with `--deny APP`).
    /// - Throws: ``NotificationCenterError`` when the server cannot be reached, or does not
    ///   present for the app (``NotificationCenterError/unknownApp(message:)``).
    public func requestAuthorization(options: UNAuthorizationOptions) async throws -> Bool {
        try await link("requestAuthorization").perform(AuthorizeOperation(app: app)).granted
    }

    // MARK: Categories

    /// Declares the app's categories to the server before returning: they replace the app
    /// file's categories with the same identifiers, until the server stops. As on iOS, nothing
    /// is reported; a category the server refuses is left out of what it presents.
    public func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        guard let server else { return }
        _ = try? server.perform(AppRequestCoding.categories(categories, app: server.app))
    }

    // MARK: Adding

    /// Hands `request` to the server, which stores it durably and delivers it when its trigger
    /// fires (at once without one); calls `completionHandler` before returning.
    /// - Parameters:
    ///   - request: The request; one with the identifier of a pending or delivered request
    ///     replaces it.
    ///   - completionHandler: Called once, before this returns: `nil` once the request is
    ///     stored, else a ``UNError`` (Apple's codes) or a ``NotificationCenterError``.
    public func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@MainActor ((any Error)?) -> Void)? = nil) {
        do {
            let server = try link("add")
            _ = try server.perform(try AppRequestCoding.send(request, app: server.app))
            completionHandler?(nil)
        } catch {
            completionHandler?(error)
        }
    }

    /// Hands `request` to the server, which stores it durably and delivers it when its trigger
    /// fires (at once without one); returns once it is stored.
    /// - Throws: A ``UNError`` with Apple's code (``UNError/Code-swift.enum/notificationsNotAllowed``,
    ///   ``UNError/Code-swift.enum/notificationInvalidNoDate``, …), or a
    ///   ``NotificationCenterError`` (no server running, an app the server does not know).
    public func add(_ request: UNNotificationRequest) async throws {
        let server = try link("add")
        _ = try await server.perform(try AppRequestCoding.send(request, app: server.app))
    }

    // MARK: Reading

    /// Calls `completionHandler`, before returning, with the app's pending requests (none when
    /// the server cannot be reached).
    public func getPendingNotificationRequests(completionHandler: @escaping @MainActor ([UNNotificationRequest]) -> Void) {
        completionHandler(pendingNotificationRequests())
    }

    /// The app's pending requests, oldest first (none when the server cannot be reached).
    public func pendingNotificationRequests() async -> [UNNotificationRequest] {
        guard let server else { return store?.pending ?? [] }
        let reply = try? await server.perform(ListOperation(state: .pending, details: true))
        return reply.map { AppRequestCoding.requests($0, app: server.app) } ?? []
    }

    /// Calls `completionHandler`, before returning, with the app's delivered notifications
    /// still in the center (none when the server cannot be reached).
    public func getDeliveredNotifications(completionHandler: @escaping @MainActor ([UNNotification]) -> Void) {
        completionHandler(deliveredNotifications())
    }

    /// The app's delivered notifications still in the center, oldest first (none when the
    /// server cannot be reached).
    public func deliveredNotifications() async -> [UNNotification] {
        guard let server else { return store?.delivered ?? [] }
        let reply = try? await server.perform(ListOperation(state: .delivered, details: true))
        return reply.map { AppRequestCoding.notifications($0, app: server.app) } ?? []
    }

    // MARK: Helpers

    /// The app this center speaks for (empty inside a presentation).
    private var app: String { server?.app ?? "" }

    /// The server, or the error for `operation` asked for inside a presentation.
    private func link(_ operation: String) throws(NotificationCenterError) -> AppServerLink {
        guard let server else { throw .insidePresentation(operation: operation) }
        return server
    }
}
