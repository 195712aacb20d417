#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Where a notification stands in the center.
public enum NotificationState: String, Codable, Sendable, CaseIterable {
    /// Stored, waiting for its trigger (a time interval or a calendar date).
    case pending
    /// Delivered: shown, or in the queue of cards to show.
    case delivered
    /// Dismissed by the user: only in the history now.
    case dismissed
    /// Removed by a program (`remove`, a desktop client's `CloseNotification`): only in the
    /// history now.
    case removed
    /// Its time on screen ran out (a desktop notification's `expire_timeout`): only in the
    /// history now.
    case expired
    /// Replaced by a notification with the same identifier: only in the history now.
    case replaced
}

/// `send`: store a notification durably and deliver it, or schedule it when its payload has a
/// trigger. The reply comes once it is stored.
public struct SendOperation: CenterOperation {
    /// The reply: the stored notification's identifier and state.
    public typealias Reply = SendReply
    /// `"send"`.
    public static let name = "send"

    /// The payload's text: an APNs-style JSON payload, as a `.apns` file holds it.
    public var payload: String
    /// The name of the app that sends it (what the card and the history show).
    public var app: String
    /// The notification's identifier; `nil` lets the server make one. A notification already
    /// delivered with the same identifier is replaced.
    public var identifier: String?
    /// Files that travel with it, inline.
    public var attachments: [AttachmentUpload]
    /// Whether the connection wants the user's response pushed to it (a ``CenterEvent``) once
    /// there is one.
    public var wait: Bool
    /// When to deliver it: `nil` (left out) for now; else it stays pending until the trigger
    /// fires.
    public var trigger: TriggerSpec?

    /// A `send` request.
    /// - Parameters:
    ///   - payload: The payload's JSON text.
    ///   - app: The sending app's name.
    ///   - identifier: The notification's identifier, or `nil` for one the server makes.
    ///   - attachments: Files to attach.
    ///   - wait: Whether to have the user's response pushed to this connection.
    public init(
        payload: String, app: String, identifier: String? = nil, attachments: [AttachmentUpload] = [],
        wait: Bool = false, trigger: TriggerSpec? = nil
    ) {
        self.trigger = trigger
        self.payload = payload
        self.app = app
        self.identifier = identifier
        self.attachments = attachments
        self.wait = wait
    }

    /// The operation as a case of ``CenterRequest/Operation``.
    public var operation: CenterRequest.Operation { .send(self) }

    private enum CodingKeys: String, CodingKey { case payload, app, identifier, attachments, wait, trigger }

    /// Reads it from a request object; `attachments` defaults to none, `wait` to `false` and
    /// `trigger` to none (deliver now).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        payload = try container.decode(String.self, forKey: .payload)
        app = try container.decode(String.self, forKey: .app)
        identifier = try container.decodeIfPresent(String.self, forKey: .identifier)
        attachments = try container.decodeIfPresent([AttachmentUpload].self, forKey: .attachments) ?? []
        wait = try container.decodeIfPresent(Bool.self, forKey: .wait) ?? false
        trigger = try container.decodeIfPresent(TriggerSpec.self, forKey: .trigger)
    }
}

/// A file sent inline with a notification.
public struct AttachmentUpload: Codable, Sendable, Equatable {
    /// The file's name, which is also the attachment's identifier.
    public var name: String
    /// What the file is.
    public var kind: Kind
    /// The file's bytes (base64 in the JSON).
    public var data: Data

    /// What an attachment is.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// Sound the center plays.
        case audio
        /// A picture, listed on the card by name.
        case image
    }

    /// An attachment.
    /// - Parameters:
    ///   - name: The file's name.
    ///   - kind: What it is.
    ///   - data: Its bytes.
    public init(name: String, kind: Kind, data: Data) {
        self.name = name
        self.kind = kind
        self.data = data
    }
}

/// `list`: the notifications the center holds, in one state or all.
public struct ListOperation: CenterOperation {
    /// The reply: the notifications.
    public typealias Reply = ListReply
    /// `"list"`.
    public static let name = "list"

    /// Only notifications in this state; `nil` (the member left out) for pending and delivered
    /// ones.
    public var state: NotificationState?
    /// Whether each notification comes with its payload and trigger (what an app's
    /// `getPendingNotificationRequests` needs).
    public var details: Bool?

    /// A `list` request.
    /// - Parameters:
    ///   - state: Only notifications in this state; `nil` for pending and delivered.
    ///   - details: Whether to include each one's payload and trigger.
    public init(state: NotificationState? = nil, details: Bool? = nil) {
        self.state = state
        self.details = details
    }

    /// The operation as a case of ``CenterRequest/Operation``.
    public var operation: CenterRequest.Operation { .list(self) }
}

/// `remove`: take notifications out of the center (delivered ones go to the history, pending
/// ones are cancelled).
public struct RemoveOperation: CenterOperation {
    /// The reply: the identifiers removed.
    public typealias Reply = RemoveReply
    /// `"remove"`.
    public static let name = "remove"

    /// Which notifications.
    public enum Target: Sendable, Equatable {
        /// Those with these identifiers (`"identifiers": [...]`).
        case identifiers([String])
        /// All of them (`"all": true`).
        case all
    }

    /// Which notifications.
    public var target: Target
    /// Only those in this state (`pending` or `delivered`); `nil` for both.
    public var state: NotificationState?

    /// A `remove` request.
    /// - Parameters:
    ///   - target: Which notifications.
    ///   - state: Only those in this state; `nil` for pending and delivered ones.
    public init(_ target: Target, state: NotificationState? = nil) {
        self.target = target
        self.state = state
    }

    /// The operation as a case of ``CenterRequest/Operation``.
    public var operation: CenterRequest.Operation { .remove(self) }

    private enum CodingKeys: String, CodingKey { case identifiers, all, state }

    /// Reads it from a request object, which has either `"identifiers"` or `"all": true`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let identifiers = try container.decodeIfPresent([String].self, forKey: .identifiers)
        let all = try container.decodeIfPresent(Bool.self, forKey: .all) ?? false
        switch (identifiers, all) {
        case (let identifiers?, false): target = .identifiers(identifiers)
        case (nil, true): target = .all
        default:
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "remove takes either \"identifiers\" or \"all\": true"))
        }
        state = try container.decodeIfPresent(NotificationState.self, forKey: .state)
    }

    /// Writes it as `"identifiers": [...]` or `"all": true`, with `"state"` when there is one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch target {
        case .identifiers(let identifiers): try container.encode(identifiers, forKey: .identifiers)
        case .all: try container.encode(true, forKey: .all)
        }
        try container.encodeIfPresent(state, forKey: .state)
    }
}

/// `history`: the latest notifications, newest first, those that ended (dismissed or removed)
/// included.
public struct HistoryOperation: CenterOperation {
    /// The reply: the notifications.
    public typealias Reply = HistoryReply
    /// `"history"`.
    public static let name = "history"
    /// How many notifications a `history` request without `"limit"` gets.
    public static let defaultLimit = 50

    /// At most this many (1 or more).
    public var limit: Int

    /// A `history` request.
    /// - Parameter limit: At most this many notifications (1 or more).
    public init(limit: Int = HistoryOperation.defaultLimit) {
        self.limit = limit
    }

    /// The operation as a case of ``CenterRequest/Operation``.
    public var operation: CenterRequest.Operation { .history(self) }

    private enum CodingKeys: String, CodingKey { case limit }

    /// Reads it from a request object; `"limit"` defaults to ``defaultLimit`` and must be 1 or
    /// more.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        limit = try container.decodeIfPresent(Int.self, forKey: .limit) ?? Self.defaultLimit
        guard limit >= 1 else {
            throw DecodingError.dataCorruptedError(forKey: .limit, in: container, debugDescription: "must be 1 or more")
        }
    }
}

/// `ping`: whether a server answers, and which protocol versions it speaks.
public struct PingOperation: CenterOperation {
    /// The reply: the server's versions and process.
    public typealias Reply = PingReply
    /// `"ping"`.
    public static let name = "ping"

    /// A `ping` request.
    public init() {}

    /// The operation as a case of ``CenterRequest/Operation``.
    public var operation: CenterRequest.Operation { .ping(self) }
}
