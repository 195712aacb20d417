#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A notification as `notiplay send` hands it to the store: what ``CenterStore/add(_:)`` keeps.
///
/// The caller has read the payload already: it gives the thread and category found in it (the
/// store copies them into columns for queries and does not parse the payload for them), and the
/// attachments' bytes and kinds.
public struct IncomingNotification: Sendable, Equatable {
    /// When the notification is to be shown.
    public enum Delivery: Sendable, Equatable {
        /// It waits for its trigger: stored as ``StoredNotification/State/pending`` until
        /// ``CenterStore/markDelivered(_:)``.
        case pending
        /// It is delivered on arrival: stored as ``StoredNotification/State/delivered``.
        case now
    }

    /// The request's identifier; a live notification with the same one is replaced.
    public var identifier: String
    /// The name of the app that sent it.
    public var app: String
    /// The payload as received: JSON text whose top level is an object.
    public var payload: String
    /// The payload's `thread-id`, if any.
    public var threadIdentifier: String?
    /// The payload's `category`, if any.
    public var categoryIdentifier: String?
    /// The trigger of a pending request, as JSON text the center writes and reads back, if any.
    public var trigger: String?
    /// The files attached, in order.
    public var attachments: [IncomingAttachment]
    /// Who sent it (a client's name or process), if known.
    public var sender: String?
    /// Whether it waits for a trigger or is delivered now.
    public var delivery: Delivery
    /// When a pending request fires first.
    public var nextDate: Date?

    /// Creates a notification to add.
    /// - Parameters:
    ///   - identifier: The request's identifier.
    ///   - app: The sending app's name.
    ///   - payload: The payload's JSON text (an object).
    ///   - threadIdentifier: The payload's `thread-id`.
    ///   - categoryIdentifier: The payload's `category`.
    ///   - trigger: A pending request's trigger, as JSON text.
    ///   - attachments: The attached files, in order.
    ///   - sender: Who sent it.
    ///   - delivery: Pending (scheduled) or delivered now.
    public init(
        identifier: String, app: String, payload: String, threadIdentifier: String? = nil,
        categoryIdentifier: String? = nil, trigger: String? = nil, attachments: [IncomingAttachment] = [],
        sender: String? = nil, delivery: Delivery = .now, nextDate: Date? = nil
    ) {
        self.nextDate = nextDate
        self.identifier = identifier
        self.app = app
        self.payload = payload
        self.threadIdentifier = threadIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.trigger = trigger
        self.attachments = attachments
        self.sender = sender
        self.delivery = delivery
    }
}

/// A file attached to an ``IncomingNotification``: its bytes, which the store copies.
public struct IncomingAttachment: Sendable, Equatable {
    /// The file's original name (`memo.m4a`), kept for display.
    public var name: String
    /// The content's type identifier as the caller found it (`public.mp3`, `com.apple.m4a-audio`).
    public var kind: String
    /// The file's content.
    public var bytes: [UInt8]

    /// Creates an attachment.
    /// - Parameters:
    ///   - name: The original file name.
    ///   - kind: The content's type identifier.
    ///   - bytes: The content.
    public init(name: String, kind: String, bytes: [UInt8]) {
        self.name = name
        self.kind = kind
        self.bytes = bytes
    }
}
