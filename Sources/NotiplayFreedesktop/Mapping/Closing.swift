public import NotiplayCore

/// When a notification expires, from `Notify`'s `expire_timeout`.
///
/// - `-1` (the server's default) → ``FreedesktopMapping/Options/defaultExpiry`` for the
///   notification's urgency: 10 s for low and normal, never for critical (as dunst), unless the
///   server chooses otherwise. An expired card leaves the screen; the center keeps it in the
///   history (it advertises `persistence`).
/// - `0` → ``never``.
/// - `> 0` → ``after(milliseconds:)``, at whatever urgency (an explicit timeout is the client's
///   choice, as dunst honours it too).
/// - Any other negative value → the default, with a warning.
public enum FreedesktopExpiry: Sendable, Hashable {
    /// It stays until dismissed, removed or closed.
    case never
    /// It is closed with reason 1 (expired) this many milliseconds after it arrives.
    case after(milliseconds: Int)

    /// The milliseconds, or `nil` for never.
    public var milliseconds: Int? {
        if case .after(let ms) = self { ms } else { nil }
    }

    /// The time to wait, or `nil` for never.
    public var duration: Duration? {
        milliseconds.map { .milliseconds($0) }
    }
}

/// What `expire_timeout` -1 means, by urgency.
public struct FreedesktopExpiryDefaults: Sendable, Hashable {
    /// For urgency 0 (low).
    public var low: FreedesktopExpiry
    /// For urgency 1 (normal), or none given.
    public var normal: FreedesktopExpiry
    /// For urgency 2 (critical).
    public var critical: FreedesktopExpiry

    /// Defaults as dunst's: low and normal after 10 s, critical never.
    public init(
        low: FreedesktopExpiry = .after(milliseconds: 10_000), normal: FreedesktopExpiry = .after(milliseconds: 10_000),
        critical: FreedesktopExpiry = .never
    ) {
        self.low = low
        self.normal = normal
        self.critical = critical
    }

    /// The same expiry at every urgency.
    public static func always(_ expiry: FreedesktopExpiry) -> Self {
        Self(low: expiry, normal: expiry, critical: expiry)
    }

    /// The default for a notification of interruption level `level` (urgency 0 is passive, 2
    /// critical).
    public func expiry(for level: UNNotificationInterruptionLevel) -> FreedesktopExpiry {
        switch level {
        case .passive: low
        case .critical: critical
        default: normal
        }
    }
}

/// The reasons `NotificationClosed` gives, as the spec numbers them.
public enum CloseReason: UInt32, Sendable, Hashable, CaseIterable {
    /// 1: the notification expired.
    case expired = 1
    /// 2: the user dismissed it.
    case dismissed = 2
    /// 3: a `CloseNotification` call closed it.
    case closedByCall = 3
    /// 4: undefined or reserved reasons.
    case undefined = 4
}

/// How a notification left the center: what the server turns into a `NotificationClosed`
/// signal with ``closeReason``.
public enum CenterEnding: Sendable, Hashable {
    /// The user dismissed the card (Escape, or the dismiss action).
    case dismissedByUser
    /// The user chose an action (a button, the default action with Enter, or sent an inline
    /// reply): the card closes after `ActionInvoked` unless the notification is resident.
    case actionInvoked(resident: Bool)
    /// The client's `CloseNotification` call.
    case closeNotificationCall
    /// `notiplay remove` (or `removeAll`), or the sending app's removal through the center:
    /// a program closed it, as `CloseNotification` would.
    case removed
    /// Its `expire_timeout` passed.
    case expired
    /// A `Notify` with its id as `replaces_id` took its place.
    case replaced
    /// The server is stopping; the notification stays in the center's store.
    case serverStopping
    /// The center ended it for a reason of its own (its history trimmed, the store refused it…).
    case other
}

extension CenterEnding {
    /// The `NotificationClosed` reason for this ending, or `nil` when no signal is sent.
    ///
    /// | Ending | Reason |
    /// |---|---|
    /// | dismissed by the user | 2 dismissed |
    /// | an action chosen, not resident | 2 dismissed (the user closed it by choosing) |
    /// | an action chosen, resident | none: it stays |
    /// | `CloseNotification` | 3 closed by call |
    /// | `notiplay remove` | 3 closed by call (a program closed it) |
    /// | `expire_timeout` passed | 1 expired |
    /// | replaced by `replaces_id` | none: the notification goes on under the same id |
    /// | the server stopping | none: it is still live in the center's store, and the client sees the bus name's owner go |
    /// | anything else | 4 undefined |
    public var closeReason: CloseReason? {
        switch self {
        case .dismissedByUser: .dismissed
        case .actionInvoked(let resident): resident ? nil : .dismissed
        case .closeNotificationCall, .removed: .closedByCall
        case .expired: .expired
        case .replaced, .serverStopping: nil
        case .other: .undefined
        }
    }
}
