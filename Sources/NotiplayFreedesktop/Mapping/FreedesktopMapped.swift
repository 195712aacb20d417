public import NotiplayCore

/// A `Notify` call read into the center's terms, before its sound files are looked at: what
/// ``FreedesktopMapping/content(for:id:)`` returns.
public struct FreedesktopContent: Sendable, Hashable {
    /// The freedesktop id.
    public var id: UInt32
    /// The card's title: `summary`, clean, one line (the header's app name when both summary and
    /// body are empty).
    public var title: String
    /// The body's styled text.
    public var body: StyledText
    /// From `urgency`: 0 passive, 1 (or none) active, 2 critical.
    public var interruptionLevel: UNNotificationInterruptionLevel
    /// The payload's `freedesktop` object, but for its `sound` (set once the sound is known).
    public var extras: FreedesktopExtras
    /// What the sound hints ask for.
    public var soundRequest: SoundRequest
    /// When it expires.
    public var expiry: FreedesktopExpiry
    /// Everything not taken as sent, keyed by argument (`actions[2]`, `body`, `expire_timeout`)
    /// or hint (`hints.urgency`).
    public var warnings: [Diagnostic]

    /// The notification with its sound: pure.
    public func completed(with sound: FreedesktopSound) -> FreedesktopMapped {
        var extras = extras
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body.plainText
        content.interruptionLevel = interruptionLevel
        if let category = extras.notificationCategory { content.categoryIdentifier = category.identifier }
        if sound.usesDefaultSound && interruptionLevel != .passive { content.sound = .default }
        if let attachment = sound.attachment, let file = attachment.audioFile, let hint = sound.hint {
            extras.sound = SoundSource(hint: hint, file: file.path)
            content.attachments = [attachment]
        }
        content.jsonUserInfo = JSONObject([(FreedesktopExtras.payloadKey, extras.jsonValue)])
        return FreedesktopMapped(
            id: id, content: content.content, extras: extras, expiry: expiry, warnings: warnings + sound.warnings)
    }
}

/// Everything the center needs for one `Notify` call: what ``FreedesktopMapping/map(_:id:)``
/// returns.
///
/// The server adds it to the center as an `IncomingNotification` with ``identifier``, the app
/// (``desktopEntry`` when an app is registered under that name, else ``appName``), ``payloadJSON``,
/// ``categoryIdentifier`` and ``attachments`` (their bytes read from their files), after
/// registering ``category``; it arms a timer for ``expiry``, leaves the notification out of the
/// history when ``keepsInHistory`` is false, and logs ``warnings``.
public struct FreedesktopMapped: Sendable, Hashable {
    /// The freedesktop id, which `Notify` returns.
    public var id: UInt32
    /// The content: title, body, level, category, sound, attachments, and the payload's keys in
    /// `userInfo`.
    public var content: UNNotificationContent
    /// The payload's `freedesktop` object.
    public var extras: FreedesktopExtras
    /// When it expires.
    public var expiry: FreedesktopExpiry
    /// Everything not taken as sent, and why.
    public var warnings: [Diagnostic]

    /// A mapped notification.
    public init(
        id: UInt32, content: UNNotificationContent, extras: FreedesktopExtras, expiry: FreedesktopExpiry,
        warnings: [Diagnostic]
    ) {
        self.id = id
        self.content = content
        self.extras = extras
        self.expiry = expiry
        self.warnings = warnings
    }

    /// The center's identifier: `freedesktop-ID` (a notification replacing another has its id,
    /// so its identifier, and the center replaces it).
    public var identifier: String { FreedesktopIDs.identifier(for: id) }

    /// The payload the center stores, APNs JSON: `aps` (`alert.title`, `alert.body`,
    /// `category`, `interruption-level`, `sound`) and the `freedesktop` object
    /// (``FreedesktopExtras``). `PayloadDecoder(sizeLimit: nil)` reads it back into ``content``
    /// (but for the attachments, which are not part of a payload).
    public var payloadJSON: String { content.payloadJSON }

    /// The card's header: `app_name`, clean, or `notiplay`.
    public var appName: String { extras.app }

    /// The `desktop-entry` hint: the name of an app registered with the center whose content
    /// extension presents the card, if there is one (the center matches it).
    public var desktopEntry: String? { extras.desktopEntry }

    /// The category to register before adding the notification (its buttons), or `nil`.
    public var category: UNNotificationCategory? { extras.notificationCategory }

    /// The payload's category identifier (`freedesktop.ID`), or `nil` without buttons.
    public var categoryIdentifier: String? { category?.identifier }

    /// The attachments: the sound, when a hint gave one.
    public var attachments: [UNNotificationAttachment] { content.attachments }

    /// Whether the first attachment is the hints' sound, for the card's `.default` media button
    /// to play on arrival (the center gates it on Focus: `SoundPolicy.mayAutoPlayMedia`).
    public var autoPlaysAttachment: Bool { extras.sound != nil }

    /// Whether it is kept in the history once it ends: not for a `transient` notification.
    public var keepsInHistory: Bool { !extras.transient }

    /// Whether choosing an action leaves it open (`resident`).
    public var isResident: Bool { extras.resident }
}
