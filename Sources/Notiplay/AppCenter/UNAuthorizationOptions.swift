/// What an app asks to be allowed to do when it requests authorization (Apple:
/// `UNAuthorizationOptions`).
///
/// The notification center grants or refuses an app as a whole (`notiplay serve --deny APP`
/// refuses it); the options are kept for source compatibility and not looked at.
public struct UNAuthorizationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Update the app's badge.
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    /// Play sounds.
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    /// Show alerts.
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    /// Show notifications in CarPlay.
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    /// Play sounds for critical alerts, through Focus and the mute switch.
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    /// The app has a notification settings screen of its own.
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    /// Deliver quietly, without asking first.
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
}
