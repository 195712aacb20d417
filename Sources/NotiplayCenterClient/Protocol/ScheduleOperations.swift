#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A scheduled request's trigger as the protocol carries it, in `send` and in `list`'s details:
///
/// ```json
/// {"type": "timeInterval", "timeInterval": 30, "repeats": false}
/// {"type": "calendar", "dateComponents": {"hour": 9, "minute": 0}, "timeZone": "Europe/Berlin", "repeats": true}
/// ```
/// A calendar trigger's `dateComponents` are those of `DateComponents` a date can match (`year`,
/// `month`, `day`, `hour`, `minute`, `second`, `weekday` (1 is Sunday), …); without `timeZone`
/// they are the server's local time.
public struct TriggerSpec: Codable, Sendable, Equatable {
    /// `timeInterval` or `calendar`.
    public var type: String
    /// Seconds from the request's arrival (a `timeInterval` trigger).
    public var timeInterval: Double?
    /// The components a date must match (a `calendar` trigger), by name.
    public var dateComponents: [String: Int]?
    /// The time zone of the components (an IANA name), if not the server's.
    public var timeZone: String?
    /// Whether it fires again after it fired.
    public var repeats: Bool

    /// A trigger.
    /// - Parameters:
    ///   - type: `timeInterval` or `calendar`.
    ///   - timeInterval: Seconds, for a time-interval trigger.
    ///   - dateComponents: Components by name, for a calendar trigger.
    ///   - timeZone: The components' time zone, if not the server's.
    ///   - repeats: Whether it fires again.
    public init(
        type: String, timeInterval: Double? = nil, dateComponents: [String: Int]? = nil, timeZone: String? = nil,
        repeats: Bool
    ) {
        self.type = type
        self.timeInterval = timeInterval
        self.dateComponents = dateComponents
        self.timeZone = timeZone
        self.repeats = repeats
    }
}

/// `focus`: reads Focus, or turns it on or off. With Focus on, arrival sounds are silenced but
/// those of time-sensitive and critical notifications.
public struct FocusOperation: CenterOperation {
    /// The reply: whether Focus is on now.
    public typealias Reply = FocusReply
    /// `"focus"`.
    public static let name = "focus"

    /// On (`true`) or off; `nil` (left out) only reads it.
    public var set: Bool?

    /// A `focus` request.
    /// - Parameter set: Turn Focus on or off; `nil` to read it.
    public init(set: Bool? = nil) {
        self.set = set
    }

    /// The operation as a case of ``CenterRequest/Operation``.
    public var operation: CenterRequest.Operation { .focus(self) }
}

/// The reply to `focus`.
public struct FocusReply: Codable, Sendable, Equatable {
    /// Whether Focus is on.
    public var focus: Bool

    /// A `focus` reply.
    public init(focus: Bool) {
        self.focus = focus
    }
}

/// `clock`: the server's time; on a virtual clock (`serve --clock virtual`), moves it on, and
/// what falls due meanwhile fires in date order, each at its own date.
public struct ClockOperation: CenterOperation {
    /// The reply: the server's time after.
    public typealias Reply = ClockReply
    /// `"clock"`.
    public static let name = "clock"

    /// Seconds to move a virtual clock on (more than 0); `nil` only reads the time.
    public var advance: Double?

    /// A `clock` request.
    /// - Parameter advance: Seconds to move a virtual clock on, or `nil`.
    public init(advance: Double? = nil) {
        self.advance = advance
    }

    /// The operation as a case of ``CenterRequest/Operation``.
    public var operation: CenterRequest.Operation { .clock(self) }
}

/// The reply to `clock`.
public struct ClockReply: Codable, Sendable, Equatable {
    /// The server's time.
    public var now: Date
    /// Whether the clock is virtual.
    public var virtual: Bool

    /// A `clock` reply.
    public init(now: Date, virtual: Bool) {
        self.now = now
        self.virtual = virtual
    }
}

/// `categories`: an app declares its notification categories (Apple:
/// `setNotificationCategories`), which replace those of its app file with the same identifiers.
public struct CategoriesOperation: CenterOperation {
    /// The reply: how many categories the app has now.
    public typealias Reply = CategoriesReply
    /// `"categories"`.
    public static let name = "categories"

    /// The app.
    public var app: String
    /// The categories, as JSON text in the app file's form: an array of objects with
    /// `identifier`, `actions` and `options`.
    public var categories: String

    /// A `categories` request.
    public init(app: String, categories: String) {
        self.app = app
        self.categories = categories
    }

    /// The operation as a case of ``CenterRequest/Operation``.
    public var operation: CenterRequest.Operation { .categories(self) }
}

/// The reply to `categories`.
public struct CategoriesReply: Codable, Sendable, Equatable {
    /// The identifiers of the app's categories now.
    public var categories: [String]

    /// A `categories` reply.
    public init(categories: [String]) {
        self.categories = categories
    }
}

/// `authorize`: an app asks to send notifications (Apple: `requestAuthorization`). Granted
/// unless the server was started with `--deny APP`; an app the server does not present for fails
/// with ``CenterFailure/Code/unknownApp``, as its `send` would.
public struct AuthorizeOperation: CenterOperation {
    /// The reply: granted or not.
    public typealias Reply = AuthorizeReply
    /// `"authorize"`.
    public static let name = "authorize"

    /// The app.
    public var app: String

    /// An `authorize` request.
    public init(app: String) {
        self.app = app
    }

    /// The operation as a case of ``CenterRequest/Operation``.
    public var operation: CenterRequest.Operation { .authorize(self) }
}

/// The reply to `authorize`.
public struct AuthorizeReply: Codable, Sendable, Equatable {
    /// Whether the app may send notifications.
    public var granted: Bool

    /// An `authorize` reply.
    public init(granted: Bool) {
        self.granted = granted
    }
}
