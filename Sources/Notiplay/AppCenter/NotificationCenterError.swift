/// Why an app's ``UNUserNotificationCenter`` could not do what it was asked, where Apple has no
/// ``UNError`` code for it.
///
/// ```swift
/// do {
///     try await center.add(request)
/// } catch let error as NotificationCenterError {
///     print(error)   // no notification center is running at …; start one with `notiplay serve`
/// }
/// ```
public enum NotificationCenterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No server runs for this user's session: nothing listens at the socket's path.
    case noServer(socketPath: String)
    /// The server does not present for the app this program speaks for (its name, or
    /// `$NOTIPLAY_APP`); the message lists the apps it knows.
    case unknownApp(message: String)
    /// The server could not be reached, did not answer in time, or answered with something
    /// unexpected.
    case unavailable(String)
    /// The server refused the request for a reason Apple has no code for: the protocol's code
    /// (`invalid-categories`, `store-io-error`, …) and its message.
    case refused(code: String, message: String)
    /// Extension code, while it presents a notification, asked for what only an app's program
    /// does (authorization, categories, adding requests).
    case insidePresentation(operation: String)

    /// What went wrong, for a person, with what to do when there is something to do.
    public var description: String {
        switch self {
        case .noServer(let path): "no notification center is running at \(path); start one with `notiplay serve`"
        case .unknownApp(let message): message + "; name the app with NOTIPLAY_APP, or name the program after it"
        case .unavailable(let reason): reason
        case .refused(let code, let message): "the notification center refused the request: \(message) (\(code))"
        case .insidePresentation(let operation):
            "\(operation) is for an app's program; an extension presenting a notification cannot do it"
        }
    }
}
