/// The notification center's configuration file (`notiplay.conf`): defaults for the server, and
/// rules that change what happens to the notifications they match.
///
/// The file is in the INI style of `dunstrc`: a `[global]` section with the defaults, then one
/// section per rule, applied in file order (``actions(for:)``). ``parse(_:file:)`` reads it.
public struct CenterConfig: Sendable, Equatable {
    /// The `[global]` section: each key left out is `nil` (the server's own default applies).
    public var defaults: ConfigDefaults
    /// The rules, in file order.
    public var rules: [NotificationRule]

    /// A configuration; by default no defaults and no rules (what a missing file means).
    public init(defaults: ConfigDefaults = ConfigDefaults(), rules: [NotificationRule] = []) {
        self.defaults = defaults
        self.rules = rules
    }

    /// What the rules say about a notification: every matching rule's keys, in file order, each
    /// overriding what an earlier one said.
    public func actions(for subject: RuleSubject) -> RuleActions {
        var actions = RuleActions()
        for rule in rules where rule.match.matches(subject) {
            actions.override(with: rule.actions)
        }
        return actions
    }
}

/// The `[global]` section's keys, each `nil` when the file leaves it out.
public struct ConfigDefaults: Sendable, Equatable {
    /// `expire`: seconds a low or normal desktop notification that leaves it to the server
    /// stays on screen (0: until dismissed).
    public var expire: Double?
    /// `expire-critical`: the same for a critical one.
    public var expireCritical: Double?
    /// `sounds`: whether arrival sounds play at all.
    public var sounds: Bool?
    /// `volume`: arrival sounds' volume, 0 to 100.
    public var volume: Int?
    /// `sound-theme`: the XDG sound theme the default sound is looked up in.
    public var soundTheme: String?
    /// `store`: the store's folder (an absolute path).
    public var store: String?
    /// `keep-history`: how many ended notifications the history keeps.
    public var keepHistory: Int?
    /// `keep-days`: after how many days the history forgets an ended notification.
    public var keepDays: Double?

    /// No defaults.
    public init() {}
}

/// One rule: a section other than `[global]`.
public struct NotificationRule: Sendable, Equatable {
    /// The section's name.
    public var name: String
    /// The line of its `[name]` header.
    public var line: Int
    /// Which notifications it applies to.
    public var match: RuleMatch
    /// What it does to them.
    public var actions: RuleActions

    /// A rule.
    public init(name: String, line: Int, match: RuleMatch, actions: RuleActions) {
        self.name = name
        self.line = line
        self.match = match
        self.actions = actions
    }
}

/// A notification's urgency, as rules name it (the desktop's three levels).
public enum RuleUrgency: String, Sendable, Equatable, CaseIterable {
    /// A passive notification (desktop urgency low).
    case low
    /// An active or time-sensitive one (desktop urgency normal).
    case normal
    /// A critical one.
    case critical
}

/// What a rule is matched against: the notification's app, urgency and text.
public struct RuleSubject: Sendable, Equatable {
    /// The app (or, for a desktop notification, the program that sent it).
    public var app: String
    /// Its urgency.
    public var urgency: RuleUrgency
    /// Its category identifier (empty when it has none).
    public var category: String
    /// Its title (a desktop notification's summary).
    public var summary: String
    /// Its body.
    public var body: String

    /// A subject.
    public init(app: String, urgency: RuleUrgency, category: String, summary: String, body: String) {
        self.app = app
        self.urgency = urgency
        self.category = category
        self.summary = summary
        self.body = body
    }
}

/// A rule's match keys: every one given must match (none given: the rule matches everything).
public struct RuleMatch: Sendable, Equatable {
    /// `app`: a glob on the app's name.
    public var app: ConfigGlob?
    /// `urgency`: the urgency, exactly.
    public var urgency: RuleUrgency?
    /// `category`: a glob on the category identifier.
    public var category: ConfigGlob?
    /// `summary`: a glob on the title.
    public var summary: ConfigGlob?
    /// `body`: a glob on the body.
    public var body: ConfigGlob?

    /// A match; by default it matches everything.
    public init(
        app: ConfigGlob? = nil, urgency: RuleUrgency? = nil, category: ConfigGlob? = nil, summary: ConfigGlob? = nil,
        body: ConfigGlob? = nil
    ) {
        self.app = app
        self.urgency = urgency
        self.category = category
        self.summary = summary
        self.body = body
    }

    /// Whether `subject` matches every key given.
    public func matches(_ subject: RuleSubject) -> Bool {
        (app?.matches(subject.app) ?? true) && (urgency.map { $0 == subject.urgency } ?? true)
            && (category?.matches(subject.category) ?? true) && (summary?.matches(subject.summary) ?? true)
            && (body?.matches(subject.body) ?? true)
    }
}

/// The arrival sound a rule gives a notification.
public enum RuleSound: Sendable, Equatable {
    /// `none`: no arrival sound.
    case none
    /// `default`: the default sound.
    case `default`
    /// A sound name, looked up in the app's sounds folder as the payload's `aps.sound` is.
    case named(String)
    /// An absolute path to an audio file.
    case file(String)
}

/// A rule's action keys, each `nil` when the rule leaves it to what came before.
public struct RuleActions: Sendable, Equatable {
    /// `sound`: the arrival sound instead of the payload's.
    public var sound: RuleSound?
    /// `volume`: the arrival sound's volume, 0 to 100.
    public var volume: Int?
    /// `autoplay`: the card's media starts by itself when it shows.
    public var autoplay: Bool?
    /// `timeout`: seconds on screen after it is delivered; 0: until dismissed.
    public var timeout: Double?
    /// `skip-queue`: its card goes ahead of the waiting ones and shows at once.
    public var skipQueue: Bool?
    /// `history`: `false` keeps it out of the history once it ends.
    public var history: Bool?
    /// `silence`: no arrival sound, whatever else says so.
    public var silence: Bool?

    /// No actions.
    public init(
        sound: RuleSound? = nil, volume: Int? = nil, autoplay: Bool? = nil, timeout: Double? = nil, skipQueue: Bool? = nil,
        history: Bool? = nil, silence: Bool? = nil
    ) {
        self.sound = sound
        self.volume = volume
        self.autoplay = autoplay
        self.timeout = timeout
        self.skipQueue = skipQueue
        self.history = history
        self.silence = silence
    }

    /// Whether no key is given.
    public var isEmpty: Bool { self == RuleActions() }

    /// Takes every key `later` gives, keeping the others.
    public mutating func override(with later: RuleActions) {
        sound = later.sound ?? sound
        volume = later.volume ?? volume
        autoplay = later.autoplay ?? autoplay
        timeout = later.timeout ?? timeout
        skipQueue = later.skipQueue ?? skipQueue
        history = later.history ?? history
        silence = later.silence ?? silence
    }
}
