#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A notification as the store keeps it: what was received, and what became of it.
public struct StoredNotification: Sendable, Equatable {
    /// Where a notification is in its life. Pending and delivered ones are *live*; dismissed and
    /// removed ones have *ended* and stay in the history until ``CenterStore/prune(keepingHistory:olderThan:)``.
    public enum State: String, Sendable, Equatable, CaseIterable {
        /// Stored, waiting for its trigger.
        case pending
        /// Delivered: shown or queued to be shown.
        case delivered
        /// The user (or the app, through a response) dismissed it.
        case dismissed
        /// Removed by a program (`remove`, `removeAll`, a desktop client's `CloseNotification`).
        case removed
        /// Its time on screen ran out (a desktop notification's `expire_timeout`).
        case expired
        /// Replaced by a notification with the same identifier (``StoredNotification/replacedBy``
        /// says by which, when the store knows it).
        case replaced

        /// Whether the notification is still pending or delivered.
        public var isLive: Bool { self == .pending || self == .delivered }
    }

    /// How a program ends a live notification: removed, or expired.
    public enum EndedState: Sendable, Equatable {
        /// Removed by a program.
        case removed
        /// Its time on screen ran out.
        case expired

        /// The state it ends in.
        public var state: State { self == .removed ? .removed : .expired }
    }

    /// The store's number for it: unique, never reused, and increasing in the order the store
    /// received notifications (so also in each sender's order).
    public var sequence: Int64
    /// The request's identifier (unique among live notifications).
    public var identifier: String
    /// The name of the app that sent it.
    public var app: String
    /// The payload's JSON text, as received.
    public var payload: String
    /// The payload's `thread-id`, if any.
    public var threadIdentifier: String?
    /// The payload's `category`, if any.
    public var categoryIdentifier: String?
    /// A pending request's trigger, as JSON text, if any.
    public var trigger: String?
    /// The attached files, in the order they were given.
    public var attachments: [StoredAttachment]
    /// Where it is in its life.
    public var state: State
    /// Who sent it, if known.
    public var sender: String?
    /// When the store received it.
    public var arrivedAt: Date
    /// When it was delivered, once it was.
    public var deliveredAt: Date?
    /// When it was dismissed or removed, once it was.
    public var endedAt: Date?
    /// The user's response, as JSON text, once there is one.
    public var response: String?
    /// The ``sequence`` of the notification that replaced this one (same identifier), if one did.
    public var replacedBy: Int64?
    /// When a pending request fires next.
    public var nextDate: Date?
    /// When a delivered request was due: later than ``deliveredAt`` by more than a second when
    /// it was missed while the server was down (``isLate``).
    public var dueAt: Date?

    /// Whether it was delivered late: its date passed while the server was down.
    public var isLate: Bool {
        guard let dueAt, let deliveredAt else { return false }
        return deliveredAt.timeIntervalSince(dueAt) > 1
    }

    /// Creates a stored notification (the store makes them; tests and clients may too).
    public init(
        sequence: Int64, identifier: String, app: String, payload: String, threadIdentifier: String? = nil,
        categoryIdentifier: String? = nil, trigger: String? = nil, attachments: [StoredAttachment] = [],
        state: State, sender: String? = nil, arrivedAt: Date, deliveredAt: Date? = nil, endedAt: Date? = nil,
        response: String? = nil, replacedBy: Int64? = nil, nextDate: Date? = nil, dueAt: Date? = nil
    ) {
        self.nextDate = nextDate
        self.dueAt = dueAt
        self.sequence = sequence
        self.identifier = identifier
        self.app = app
        self.payload = payload
        self.threadIdentifier = threadIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.trigger = trigger
        self.attachments = attachments
        self.state = state
        self.sender = sender
        self.arrivedAt = arrivedAt
        self.deliveredAt = deliveredAt
        self.endedAt = endedAt
        self.response = response
        self.replacedBy = replacedBy
    }
}

/// A file attached to a ``StoredNotification``; its content is in the store's `attachments/`
/// folder (``CenterStore/attachmentPath(for:)``).
public struct StoredAttachment: Sendable, Hashable {
    /// The file's original name.
    public var name: String
    /// The content's type identifier, as the sender gave it.
    public var kind: String
    /// The SHA-256 of the content, 64 lowercase hex digits: the stored file's name.
    public var sha256: String
    /// The content's size in bytes.
    public var byteCount: Int

    /// Creates an attachment record.
    public init(name: String, kind: String, sha256: String, byteCount: Int) {
        self.name = name
        self.kind = kind
        self.sha256 = sha256
        self.byteCount = byteCount
    }
}
