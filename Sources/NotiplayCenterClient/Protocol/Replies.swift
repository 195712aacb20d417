#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What a request handler answers: one case per operation's successful reply, or a failure.
///
/// The server writes it as `{"v": 1, "id": N, "ok": true, …}` with the reply's members beside
/// `ok`, or `{"v": 1, "id": N, "ok": false, "error": {…}}`; it fills in `v` and `id` itself.
public enum CenterReply: Sendable, Equatable {
    /// The answer to `send`.
    case sent(SendReply)
    /// The answer to `list`.
    case listed(ListReply)
    /// The answer to `remove`.
    case removed(RemoveReply)
    /// The answer to `history`.
    case history(HistoryReply)
    /// The answer to `ping`.
    case pong(PingReply)
    /// The answer to `focus`.
    case focus(FocusReply)
    /// The answer to `clock`.
    case clock(ClockReply)
    /// The answer to `categories`.
    case categories(CategoriesReply)
    /// The answer to `authorize`.
    case authorized(AuthorizeReply)
    /// The answer to `reload`.
    case reloaded(ReloadReply)
    /// The request failed.
    case failure(CenterFailure)

    /// Whether it is a failure, or the kind of reply `operation` expects (a handler that
    /// answers `send` with ``pong(_:)`` has a bug the server reports as an `internal` failure).
    public func answers(_ operation: CenterRequest.Operation) -> Bool {
        switch (self, operation) {
        case (.failure, _), (.sent, .send), (.listed, .list), (.removed, .remove), (.history, .history),
            (.pong, .ping), (.focus, .focus), (.clock, .clock), (.categories, .categories), (.authorized, .authorize),
            (.reloaded, .reload):
            true
        default: false
        }
    }
}

/// The reply to `send`: the notification is stored.
public struct SendReply: Codable, Sendable, Equatable {
    /// The notification's identifier (the one sent, or the one the server made).
    public var identifier: String
    /// Where it stands: `pending` until its trigger fires, else `delivered`.
    public var state: NotificationState
    /// When a pending request fires first.
    public var nextDate: Date?

    /// A `send` reply.
    /// - Parameters:
    ///   - identifier: The notification's identifier.
    ///   - state: Where it stands.
    ///   - nextDate: When a pending request fires first.
    public init(identifier: String, state: NotificationState, nextDate: Date? = nil) {
        self.identifier = identifier
        self.state = state
        self.nextDate = nextDate
    }
}

/// The reply to `list`.
public struct ListReply: Codable, Sendable, Equatable {
    /// The notifications, oldest first.
    public var notifications: [NotificationSummary]

    /// A `list` reply.
    /// - Parameter notifications: The notifications, oldest first.
    public init(notifications: [NotificationSummary]) {
        self.notifications = notifications
    }
}

/// The reply to `remove`.
public struct RemoveReply: Codable, Sendable, Equatable {
    /// The identifiers of the notifications removed (identifiers that named nothing are left
    /// out).
    public var removed: [String]

    /// A `remove` reply.
    /// - Parameter removed: The identifiers removed.
    public init(removed: [String]) {
        self.removed = removed
    }
}

/// The reply to `history`.
public struct HistoryReply: Codable, Sendable, Equatable {
    /// The notifications, newest first.
    public var notifications: [NotificationSummary]

    /// A `history` reply.
    /// - Parameter notifications: The notifications, newest first.
    public init(notifications: [NotificationSummary]) {
        self.notifications = notifications
    }
}

/// The reply to `ping`.
public struct PingReply: Codable, Sendable, Equatable {
    /// The protocol versions the server speaks.
    public var versions: [Int]
    /// The server's process id.
    public var pid: Int32

    /// A `ping` reply.
    /// - Parameters:
    ///   - versions: The protocol versions the server speaks.
    ///   - pid: The server's process id.
    public init(versions: [Int] = CenterProtocol.versions, pid: Int32) {
        self.versions = versions
        self.pid = pid
    }
}

/// One notification, as `list` and `history` show it.
public struct NotificationSummary: Codable, Sendable, Equatable {
    /// The notification's identifier.
    public var identifier: String
    /// The app that sent it.
    public var app: String
    /// Where it stands.
    public var state: NotificationState
    /// When it was delivered, or when it is due if it is pending (ISO 8601 in the JSON, whole
    /// seconds).
    public var date: Date
    /// The alert's title, if it has one.
    public var title: String?
    /// The alert's subtitle, if it has one.
    public var subtitle: String?
    /// The alert's body, if it has one.
    public var body: String?
    /// The thread it belongs to (`thread-id`), if any (`"thread"` in the JSON).
    public var threadIdentifier: String?
    /// A pending request's trigger (in `list`'s details).
    public var trigger: TriggerSpec?
    /// The payload's JSON text (in `list`'s details).
    public var payload: String?
    /// `true` when it was delivered late: its date passed while the server was down.
    public var late: Bool?

    /// A notification's summary.
    /// - Parameters:
    ///   - identifier: Its identifier.
    ///   - app: The app that sent it.
    ///   - state: Where it stands.
    ///   - date: When it was delivered, or is due.
    ///   - title: The alert's title.
    ///   - subtitle: The alert's subtitle.
    ///   - body: The alert's body.
    ///   - threadIdentifier: Its thread.
    public init(
        identifier: String, app: String, state: NotificationState, date: Date, title: String? = nil,
        subtitle: String? = nil, body: String? = nil, threadIdentifier: String? = nil
    ) {
        self.identifier = identifier
        self.app = app
        self.state = state
        self.date = date
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.threadIdentifier = threadIdentifier
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, app, state, date, title, subtitle, body, trigger, payload, late
        case threadIdentifier = "thread"
    }
}
