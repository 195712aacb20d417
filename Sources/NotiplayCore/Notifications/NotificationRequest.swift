#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What caused a notification to be delivered (Apple: `UNNotificationTrigger`).
public protocol UNNotificationTrigger: Sendable {
    /// Whether the trigger fires again after it fired.
    var repeats: Bool { get }
}

/// A notification that came as a push payload (Apple: `UNPushNotificationTrigger`).
public struct UNPushNotificationTrigger: UNNotificationTrigger, Hashable {
    /// Push notifications do not repeat.
    public var repeats: Bool { false }
    /// A push trigger.
    public init() {}
}

/// A notification scheduled after a delay (Apple: `UNTimeIntervalNotificationTrigger`).
///
/// Apple's initializer raises an exception for an interval of 0 or less, and for one under 60 s
/// that repeats; this one keeps the values, and the center refuses the request with Apple's
/// message (``problem``) when it is added.
public struct UNTimeIntervalNotificationTrigger: UNNotificationTrigger, Hashable {
    /// Seconds from scheduling to delivery.
    public let timeInterval: Double
    /// Whether it fires every `timeInterval` seconds.
    public let repeats: Bool

    /// The least interval of a trigger that repeats, as on iOS.
    public static let leastRepeatingInterval = 60.0

    /// A trigger firing `timeInterval` seconds from now, and then again if `repeats`.
    public init(timeInterval: Double, repeats: Bool) {
        self.timeInterval = timeInterval
        self.repeats = repeats
    }

    /// The date it fires next if scheduled now (Apple: `nextTriggerDate()`).
    public func nextTriggerDate() -> Date? {
        problem == nil ? Date().addingTimeInterval(timeInterval) : nil
    }

    /// The first date after `date` it fires at, when it was scheduled at `scheduled`: one
    /// interval after `scheduled`, and for a repeating trigger every interval after that.
    package func nextDate(scheduledAt scheduled: Date, after date: Date) -> Date? {
        guard problem == nil else { return nil }
        let first = scheduled.addingTimeInterval(timeInterval)
        if first > date { return first }
        guard repeats else { return nil }
        let periods = (date.timeIntervalSince(first) / timeInterval).rounded(.down) + 1
        let next = first.addingTimeInterval(periods * timeInterval)
        // Rounding may land on `date` itself: then the period after.
        return next > date ? next : first.addingTimeInterval((periods + 1) * timeInterval)
    }

    /// What Apple's initializer raises for these values, if anything.
    public var problem: String? {
        if !(timeInterval > 0) || !timeInterval.isFinite { return "time interval must be greater than 0" }
        if repeats && timeInterval < Self.leastRepeatingInterval { return "time interval must be at least 60 if repeating" }
        return nil
    }
}

/// A request to show a notification (Apple: `UNNotificationRequest`).
public struct UNNotificationRequest: Sendable, Equatable {
    /// The request's identifier; a new request with the same identifier replaces the old one.
    public let identifier: String
    /// What to show.
    public let content: UNNotificationContent
    /// What delivers it; `nil` means at once.
    public let trigger: (any UNNotificationTrigger)?

    /// A request (Apple: `init(identifier:content:trigger:)`). It keeps an immutable copy of
    /// `content`: editing a ``UNMutableNotificationContent`` afterwards changes nothing here.
    public init(identifier: String, content: UNNotificationContent, trigger: (any UNNotificationTrigger)?) {
        self.identifier = identifier
        self.content = content.frozen
        self.trigger = trigger
    }

    public static func == (a: UNNotificationRequest, b: UNNotificationRequest) -> Bool {
        a.identifier == b.identifier && a.content == b.content && sameTrigger(a.trigger, b.trigger)
    }

    private static func sameTrigger(_ a: (any UNNotificationTrigger)?, _ b: (any UNNotificationTrigger)?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?):
            guard let a = a as? any Hashable, let b = b as? any Hashable else { return false }
            return AnyHashable(a) == AnyHashable(b)
        default: return false
        }
    }
}

/// A delivered notification (Apple: `UNNotification`).
public struct UNNotification: Sendable, Equatable {
    /// When it was delivered.
    public let date: Date
    /// The request it came from.
    public let request: UNNotificationRequest

    /// A notification delivered at `date`.
    public init(request: UNNotificationRequest, date: Date) {
        self.request = request
        self.date = date
    }
}

/// The action identifier of a response to the notification itself being opened.
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
/// The action identifier of a response to the notification being dismissed.
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

/// What a person did with a notification (Apple: `UNNotificationResponse`).
///
/// A protocol, so that `response as? UNTextInputNotificationResponse` works as on iOS.
public protocol UNNotificationResponse: Sendable {
    /// The notification responded to.
    var notification: UNNotification { get }
    /// The action chosen: an action's identifier, ``UNNotificationDefaultActionIdentifier`` or
    /// ``UNNotificationDismissActionIdentifier``.
    var actionIdentifier: String { get }
}

/// A response to an action button, the default action or a dismissal.
public struct UNNotificationActionResponse: UNNotificationResponse, Equatable {
    public let notification: UNNotification
    public let actionIdentifier: String

    /// A response.
    public init(notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
    }
}

/// A response to a text-input action, with the text typed (Apple: `UNTextInputNotificationResponse`).
public struct UNTextInputNotificationResponse: UNNotificationResponse, Equatable {
    public let notification: UNNotification
    public let actionIdentifier: String
    /// The text the person typed.
    public let userText: String

    /// A text-input response.
    public init(notification: UNNotification, actionIdentifier: String, userText: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        self.userText = userText
    }
}
