#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The content of a notification, as the app or a payload gave it (Apple: `UNNotificationContent`).
///
/// A class, as on iOS, and immutable: a request keeps its own copy, so content never changes
/// behind your back. To edit, take a ``UNMutableNotificationContent`` — `mutableCopy()` returns
/// one (as `Any`, as Apple's does: `request.content.mutableCopy() as? UNMutableNotificationContent`),
/// or make one with `UNMutableNotificationContent()` — and hand it wherever content is taken.
///
/// ``userInfo`` is Apple's `[AnyHashable: Any]` — the whole payload, `aps` included — so
/// `userInfo["customNumber"] as? Int` works as on iOS; ``jsonUserInfo`` holds the same keys as typed
/// JSON (`jsonUserInfo["customNumber"]?.intValue`).
public class UNNotificationContent: @unchecked Sendable, Hashable {
    // `@unchecked`: the class holds one value and no instance of this class ever changes it; the
    // mutable subclass is not `Sendable` (see below), and a request copies what it is given.

    /// The fields. Only ``UNMutableNotificationContent`` (in this file) sets them.
    package fileprivate(set) var fields: NotificationFields

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
    /// The payload's keys as Apple gives them: `String`, `Int`, `Double`, `Bool`, `[Any]` and
    /// `[String: Any]` values (JSON `null` is an `Optional<Any>.none`), `aps` included.
    public var userInfo: [AnyHashable: Any] { fields.userInfo.anyDictionary }
    /// The payload's keys as typed JSON values, `aps` included.
    public var jsonUserInfo: JSONObject { fields.userInfo }
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
        fields = NotificationFields()
    }

    /// Content with these fields.
    package init(fields: NotificationFields) {
        self.fields = fields
    }

    /// A ``UNMutableNotificationContent`` with the same fields, to edit (Apple: `mutableCopy()`,
    /// which returns `Any`): `request.content.mutableCopy() as? UNMutableNotificationContent`.
    public func mutableCopy() -> Any {
        UNMutableNotificationContent(fields: fields)
    }

    /// An immutable copy (Apple: `copy()`, which returns `Any`).
    public func copy() -> Any {
        frozen
    }

    /// This content if it is immutable, else an immutable copy of it: what a request keeps.
    public var frozen: UNNotificationContent {
        type(of: self) == UNNotificationContent.self ? self : UNNotificationContent(fields: fields)
    }

    /// Whether the content has alert text (a title, subtitle or body), which is what lets a
    /// service extension run and what its edits may not remove.
    public var hasAlertText: Bool { fields.hasAlertText }

    public static func == (lhs: UNNotificationContent, rhs: UNNotificationContent) -> Bool {
        lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }
}

/// Notification content a service extension or an app edits (Apple: `UNMutableNotificationContent`).
///
/// ```swift
/// let content = UNMutableNotificationContent()
/// content.title = "Reminder"
/// content.userInfo = ["customNumber": 33]
/// let request = UNNotificationRequest(identifier: "memo", content: content, trigger: nil)
/// ```
///
/// A request, a content handler or the center takes a copy of it, so later edits change nothing
/// already handed over. Values in ``userInfo`` must be JSON-like (`String`, integers, floating
/// point, `Bool`, arrays and dictionaries of these, `nil`); a key whose value is not is left out.
public final class UNMutableNotificationContent: UNNotificationContent {
    /// The title.
    public override var title: String {
        get { fields.title }
        set { fields.title = newValue }
    }
    /// The subtitle.
    public override var subtitle: String {
        get { fields.subtitle }
        set { fields.subtitle = newValue }
    }
    /// The body.
    public override var body: String {
        get { fields.body }
        set { fields.body = newValue }
    }
    /// The badge number; `nil` leaves the badge as it is, 0 removes it.
    public override var badge: Int? {
        get { fields.badge }
        set { fields.badge = newValue }
    }
    /// The sound to play on arrival, or `nil` for none.
    public override var sound: UNNotificationSound? {
        get { fields.sound }
        set { fields.sound = newValue }
    }
    /// The launch image name.
    public override var launchImageName: String {
        get { fields.launchImageName }
        set { fields.launchImageName = newValue }
    }
    /// Custom keys, as Apple's `[AnyHashable: Any]`; values that are not JSON-like are left out.
    public override var userInfo: [AnyHashable: Any] {
        get { fields.userInfo.anyDictionary }
        set { fields.userInfo = JSONObject(anyDictionary: newValue) }
    }
    /// Custom keys as typed JSON values.
    public override var jsonUserInfo: JSONObject {
        get { fields.userInfo }
        set { fields.userInfo = newValue }
    }
    /// The category, which chooses the content extension and the actions.
    public override var categoryIdentifier: String {
        get { fields.categoryIdentifier }
        set { fields.categoryIdentifier = newValue }
    }
    /// The thread identifier.
    public override var threadIdentifier: String {
        get { fields.threadIdentifier }
        set { fields.threadIdentifier = newValue }
    }
    /// The attachments; each was validated when it was made.
    public override var attachments: [UNNotificationAttachment] {
        get { fields.attachments }
        set { fields.attachments = newValue }
    }
    /// How urgently the notification asks for attention.
    public override var interruptionLevel: UNNotificationInterruptionLevel {
        get { fields.interruptionLevel }
        set { fields.interruptionLevel = newValue }
    }
    /// Relevance among the app's notifications, from 0 to 1.
    public override var relevanceScore: Double {
        get { fields.relevanceScore }
        set { fields.relevanceScore = newValue }
    }
    /// The identifier of the app content to bring forward.
    public override var targetContentIdentifier: String? {
        get { fields.targetContentIdentifier }
        set { fields.targetContentIdentifier = newValue }
    }
    /// The focus filter criteria.
    public override var filterCriteria: String? {
        get { fields.filterCriteria }
        set { fields.filterCriteria = newValue }
    }

    /// Empty content.
    public override init() {
        super.init()
    }

    /// Content with these fields, to edit.
    package override init(fields: NotificationFields) {
        super.init(fields: fields)
    }

    /// A copy of `content` to edit.
    public convenience init(_ content: UNNotificationContent) {
        self.init(fields: content.fields)
    }

    /// The content as it is now, immutable.
    public var content: UNNotificationContent { UNNotificationContent(fields: fields) }
}

// Mutable content is a class whose fields change: it may not cross isolation domains.
@available(*, unavailable)
extension UNMutableNotificationContent: @unchecked Sendable {}

/// A notification's fields, as a value: what ``UNNotificationContent`` holds.
package struct NotificationFields: Sendable, Hashable {
    package var title = ""
    package var subtitle = ""
    package var body = ""
    package var badge: Int?
    package var sound: UNNotificationSound?
    package var launchImageName = ""
    package var userInfo = JSONObject()
    package var categoryIdentifier = ""
    package var threadIdentifier = ""
    package var attachments: [UNNotificationAttachment] = []
    package var interruptionLevel = UNNotificationInterruptionLevel.active
    package var relevanceScore = 0.0
    package var targetContentIdentifier: String?
    package var filterCriteria: String?

    package init() {}

    /// Whether the content has alert text (a title, subtitle or body).
    package var hasAlertText: Bool {
        !title.isEmpty || !subtitle.isEmpty || !body.isEmpty
    }
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
