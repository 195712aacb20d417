/// A message the server pushes, unasked, to a connection that asked for it: on the wire
/// `{"v": 1, "event": "response", "id": N, …}`, where `id` is the request that asked.
public enum CenterEvent: Sendable, Equatable {
    /// The user answered a notification sent with `"wait": true`.
    case response(ResponseEvent)

    /// The `event` it is written with.
    public var name: String {
        switch self {
        case .response: ResponseEvent.name
        }
    }

    /// The id of the request it answers.
    public var requestID: Int {
        switch self {
        case .response(let response): response.requestID
        }
    }
}

/// The user's response to a notification whose `send` had `"wait": true` (Apple:
/// `UNNotificationResponse`).
public struct ResponseEvent: Codable, Sendable, Equatable {
    /// `"response"`.
    public static let name = "response"
    /// The action identifier Apple uses when the user opened the notification.
    public static let defaultAction = "com.apple.UNNotificationDefaultActionIdentifier"
    /// The action identifier Apple uses when the user dismissed it.
    public static let dismissAction = "com.apple.UNNotificationDismissActionIdentifier"

    /// The id of the `send` request that asked to wait (`"id"` in the JSON).
    public var requestID: Int
    /// The notification's identifier.
    public var identifier: String
    /// The action chosen: one of the category's action identifiers, ``defaultAction`` or
    /// ``dismissAction``.
    public var action: String
    /// What the user typed, for a text-input action.
    public var text: String?

    /// A response.
    /// - Parameters:
    ///   - requestID: The id of the `send` request that asked to wait.
    ///   - identifier: The notification's identifier.
    ///   - action: The action chosen.
    ///   - text: What the user typed, for a text-input action.
    public init(requestID: Int, identifier: String, action: String, text: String? = nil) {
        self.requestID = requestID
        self.identifier = identifier
        self.action = action
        self.text = text
    }

    private enum CodingKeys: String, CodingKey {
        case requestID = "id"
        case identifier, action, text
    }
}
