#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The content of a notification, as the app or a payload gave it (Apple: `UNNotificationContent`).
///
/// A value: a copy never changes behind your back. A service extension edits a
/// ``UNMutableNotificationContent`` from ``mutableCopy()`` and hands it back.
///
/// `userInfo` holds the payload's keys as typed JSON — the whole payload, `aps` included, as on
/// iOS — so `userInfo["customNumber"]?.intValue` replaces iOS's `userInfo["customNumber"] as? Int`.
public struct UNNotificationContent: Sendable, Hashable {
    /// The fields; a mutable copy is this value handed out.
    private var fields: UNMutableNotificationContent

    /// The title (APNs `alert.title`, or `alert.title-loc-key` with its arguments).
    public var title: String { fields.title }
    /// The subtitle.
    public var subtitle: String { fields.subtitle }
    /// The body (APNs `alert` as a string, `alert.body`, or `alert.loc-key` with its arguments).
    public var body: String { fields.body }
    /// The badge number; `nil` leaves the badge as it is, 0 removes it.
    public var badge: Int? { fields.badge }
    /// The sound to play on arrival, or `nil` for none.
    public var sound: UNNotificationSound? { fields.sound }
    /// The launch image name (APNs `alert.launch-image`); kept, not shown.
    public var launchImageName: String { fields.launchImageName }
    /// The payload's keys as typed JSON values, `aps` included.
    public var userInfo: JSONObject { fields.userInfo }
    /// The category, which chooses the content extension and the actions.
    public var categoryIdentifier: String { fields.categoryIdentifier }
    /// The thread: a new notification of the shown card's thread is delivered to the same extension.
    public var threadIdentifier: String { fields.threadIdentifier }
    /// The attachments, each validated when it was made.
    public var attachments: [UNNotificationAttachment] { fields.attachments }
    /// How urgently the notification asks for attention.
    public var interruptionLevel: UNNotificationInterruptionLevel { fields.interruptionLevel }
    /// How relevant the notification is among its app's notifications, from 0 to 1.
    public var relevanceScore: Double { fields.relevanceScore }
    /// The identifier of the app content to bring forward when the notification is opened.
    public var targetContentIdentifier: String? { fields.targetContentIdentifier }
    /// The focus filter criteria (APNs `filter-criteria`).
    public var filterCriteria: String? { fields.filterCriteria }

    /// Empty content.
    public init() {
        fields = UNMutableNotificationContent()
    }

    /// The content a mutable content holds now.
    public init(_ content: UNMutableNotificationContent) {
        fields = content
    }

    /// A mutable copy, for a service extension to edit (Apple: `mutableCopy()`).
    public func mutableCopy() -> UNMutableNotificationContent {
        fields
    }

    /// Whether the content has alert text (a title, subtitle or body), which is what lets a
    /// service extension run and what its edits may not remove.
    public var hasAlertText: Bool { fields.hasAlertText }
}

/// Notification content a service extension or an app edits (Apple: `UNMutableNotificationContent`).
public struct UNMutableNotificationContent: Sendable, Hashable {
    /// The title.
    public var title = ""
    /// The subtitle.
    public var subtitle = ""
    /// The body.
    public var body = ""
    /// The badge number; `nil` leaves the badge as it is, 0 removes it.
    public var badge: Int?
    /// The sound to play on arrival, or `nil` for none.
    public var sound: UNNotificationSound?
    /// The launch image name.
    public var launchImageName = ""
    /// Custom keys as typed JSON values.
    public var userInfo = JSONObject()
    /// The category, which chooses the content extension and the actions.
    public var categoryIdentifier = ""
    /// The thread identifier.
    public var threadIdentifier = ""
    /// The attachments; each was validated when it was made.
    public var attachments: [UNNotificationAttachment] = []
    /// How urgently the notification asks for attention.
    public var interruptionLevel = UNNotificationInterruptionLevel.active
    /// Relevance among the app's notifications, from 0 to 1.
    public var relevanceScore = 0.0
    /// The identifier of the app content to bring forward.
    public var targetContentIdentifier: String?
    /// The focus filter criteria.
    public var filterCriteria: String?

    /// Empty content.
    public init() {}

    /// A copy of `content` to edit.
    public init(_ content: UNNotificationContent) {
        self = content.mutableCopy()
    }

    /// Whether the content has alert text (a title, subtitle or body).
    public var hasAlertText: Bool {
        !title.isEmpty || !subtitle.isEmpty || !body.isEmpty
    }

    /// The content as it is now, immutable.
    public var content: UNNotificationContent { UNNotificationContent(self) }
}

/// A notification's sound (Apple: `UNNotificationSound`; APNs `aps.sound`).
public struct UNNotificationSound: Sendable, Hashable {
    /// The sound file's name, or `nil` for the system's default sound.
    public var name: String?
    /// Whether this is a critical alert sound, played even when the device is silenced.
    public var isCritical: Bool
    /// The volume of a critical sound, from 0 to 1, if one was given.
    public var volume: Double?

    /// The default sound.
    public static let `default` = UNNotificationSound(name: nil, isCritical: false, volume: nil)
    /// The default critical sound.
    public static let defaultCritical = UNNotificationSound(name: nil, isCritical: true, volume: nil)

    /// A sound by file name (Apple: `UNNotificationSound(named:)`).
    public init(named name: String) {
        self.init(name: name, isCritical: false, volume: nil)
    }

    /// A critical sound by file name with a volume (Apple: `criticalSoundNamed(_:withAudioVolume:)`).
    public static func criticalSoundNamed(_ name: String, withAudioVolume volume: Double) -> UNNotificationSound {
        UNNotificationSound(name: name, isCritical: true, volume: volume)
    }

    /// A sound with every field given.
    public init(name: String?, isCritical: Bool, volume: Double?) {
        self.name = name
        self.isCritical = isCritical
        self.volume = volume
    }
}

/// How urgently a notification asks for attention (Apple: `UNNotificationInterruptionLevel`).
public enum UNNotificationInterruptionLevel: String, Sendable, Hashable, CaseIterable {
    /// Added quietly, no sound.
    case passive
    /// Presented at once, with sound (the default).
    case active
    /// Presented at once, breaking through focus.
    case timeSensitive = "time-sensitive"
    /// Presented at once with sound even when silenced.
    case critical

    /// The name APNs uses in `aps.interruption-level`.
    public var apnsName: String { rawValue }
}
