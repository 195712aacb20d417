public import NotiplayCore

/// One `Notify` call in the center's terms: what ``FreedesktopMapping/map(_:id:)`` returns, and
/// the one form a desktop notification takes between its D-Bus arguments and what the center
/// receives.
///
/// ``FreedesktopMapping/content(for:id:)`` makes it without looking at any file (its sound
/// unresolved); ``complete(with:)`` adds the sound the hints asked for; the server may then
/// ``present(under:)`` it under a category an app's content extension claims. ``content`` and
/// ``encodedPayload`` are made from these fields whenever they are asked for, so the payload the
/// center stores and the content it shows cannot disagree.
///
/// The server adds it to the center with ``identifier``, the app (``desktopEntry`` when an app
/// is registered under that name), the payload and its attachments' bytes, and the traits
/// ``extras`` and ``expiry`` give its card; it logs ``warnings``.
public struct FreedesktopMapped: Sendable, Hashable {
    /// The freedesktop id, which `Notify` returns.
    public var id: UInt32
    /// The card's title: `summary`, clean, one line (the header's app name when both summary and
    /// body are empty).
    public var title: String
    /// The body's styled text.
    public var body: StyledText
    /// From `urgency`: 0 passive, 1 (or none) active, 2 critical.
    public var interruptionLevel: UNNotificationInterruptionLevel
    /// The payload's `freedesktop` object (its `sound` set by ``complete(with:)``).
    public var extras: FreedesktopExtras
    /// What the sound hints ask for.
    public var soundRequest: SoundRequest
    /// The sound file attached, once resolved.
    public var soundAttachment: UNNotificationAttachment?
    /// Whether the content asks for the default sound, once resolved.
    public var usesDefaultSound = false
    /// The category it is presented under, when an app's content extension draws it
    /// (``present(under:)``); `nil`: its own (``FreedesktopIDs/categoryIdentifier(for:)``), when it
    /// has buttons.
    public var presentedCategory: String?
    /// When it expires.
    public var expiry: FreedesktopExpiry
    /// Everything not taken as sent, keyed by argument (`actions[2]`, `body`, `expire_timeout`)
    /// or hint (`hints.urgency`).
    public var warnings: [Diagnostic]

    /// A mapped notification, its sound not looked at yet.
    public init(
        id: UInt32, title: String, body: StyledText, interruptionLevel: UNNotificationInterruptionLevel,
        extras: FreedesktopExtras, soundRequest: SoundRequest, expiry: FreedesktopExpiry, warnings: [Diagnostic]
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.interruptionLevel = interruptionLevel
        self.extras = extras
        self.soundRequest = soundRequest
        self.expiry = expiry
        self.warnings = warnings
    }

    /// Takes the sound the hints resolved to (and its warnings): pure.
    public mutating func complete(with sound: FreedesktopSound) {
        usesDefaultSound = sound.usesDefaultSound && interruptionLevel != .passive
        if let attachment = sound.attachment, let file = attachment.audioFile, let hint = sound.hint {
            extras.sound = SoundSource(hint: hint, file: file.path)
            soundAttachment = attachment
        }
        warnings += sound.warnings
    }

    /// Presents it under `category`, one an app's content extension claims: its buttons, if it
    /// has any, are registered under that identifier.
    public mutating func present(under category: String) {
        presentedCategory = category
    }

    /// The center's identifier: `freedesktop-ID` (a notification replacing another has its id,
    /// so its identifier, and the center replaces it).
    public var identifier: String { FreedesktopIDs.identifier(for: id) }

    /// The content: title, body, level, category, sound, attachments, and the payload's keys in
    /// `userInfo`.
    public var content: UNNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body.plainText
        content.interruptionLevel = interruptionLevel
        if let categoryIdentifier { content.categoryIdentifier = categoryIdentifier }
        if usesDefaultSound { content.sound = .default }
        if let soundAttachment { content.attachments = [soundAttachment] }
        content.jsonUserInfo = JSONObject([(FreedesktopExtras.payloadKey, extras.jsonValue)])
        return content.content
    }

    /// The payload the center stores, APNs JSON: `aps` (`alert.title`, `alert.body`,
    /// `category`, `interruption-level`, `sound`) and the `freedesktop` object
    /// (``FreedesktopExtras``), with the payload as `PayloadDecoder(sizeLimit: nil)` reads it back
    /// (``content`` but for the attachments, which are not part of a payload), made without
    /// parsing the text.
    public var encodedPayload: (json: String, payload: APNsPayload) { content.encodedPayload }

    /// The payload's JSON text alone.
    public var payloadJSON: String { content.payloadJSON }

    /// The card's header: `app_name`, clean, or `notiplay`.
    public var appName: String { extras.app }

    /// The `desktop-entry` hint: the name of an app registered with the center whose content
    /// extension presents the card, if there is one (the center matches it).
    public var desktopEntry: String? { extras.desktopEntry }

    /// The category its buttons are registered under, or `nil` without buttons.
    public var category: UNNotificationCategory? {
        guard let presentedCategory else { return extras.notificationCategory }
        return extras.actions.category(identifier: presentedCategory)
    }

    /// The payload's category identifier: the one it is presented under, else `freedesktop.ID`
    /// when it has buttons, else `nil`.
    public var categoryIdentifier: String? { presentedCategory ?? extras.notificationCategory?.identifier }

    /// The attachments: the sound, when a hint gave one.
    public var attachments: [UNNotificationAttachment] { soundAttachment.map { [$0] } ?? [] }

    /// Whether the first attachment is the hints' sound, for the card's `.default` media button
    /// to play on arrival (the center gates it on Focus: `SoundPolicy.mayAutoPlayMedia`).
    public var autoPlaysAttachment: Bool { extras.sound != nil }

    /// Whether it is kept in the history once it ends: not for a `transient` notification.
    public var keepsInHistory: Bool { !extras.transient }

    /// Whether choosing an action leaves it open (`resident`).
    public var isResident: Bool { extras.resident }
}
