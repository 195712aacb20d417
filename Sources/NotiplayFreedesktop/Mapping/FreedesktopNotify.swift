/// The arguments of one `org.freedesktop.Notifications.Notify` call (Desktop Notifications
/// Specification 1.2), as the D-Bus layer read them off the message: the input of
/// ``FreedesktopMapping``.
///
/// Nothing here is trusted or cleaned yet: every string is as the client sent it.
public struct FreedesktopNotify: Sendable, Hashable {
    /// `app_name`: the sending program's name, for the card's header (may be empty).
    public var appName: String
    /// `replaces_id`: the id of a notification this one replaces, or 0 for none.
    public var replacesID: UInt32
    /// `app_icon`: an icon name or a `file://` URI (may be empty); listed, not drawn.
    public var appIcon: String
    /// `summary`: one line of plain text, the card's title.
    public var summary: String
    /// `body`: the body, in the spec's small markup (`<b>`, `<i>`, `<u>`, `<a href>`, `<img>`).
    public var body: String
    /// `actions`: a flat list, `[id, label, id, label, …]`.
    public var actions: [String]
    /// `hints`: the hint dictionary, each value with the type its variant held.
    public var hints: [String: HintValue]
    /// `expire_timeout`: milliseconds; -1 for the server's default, 0 for never.
    public var expireTimeout: Int32
    /// The strings the D-Bus layer cut to 64 KiB, with the length each had in UTF-8 bytes, by the
    /// name warnings give them: `app_name`, `app_icon`, `summary`, `body`, `actions[2]`,
    /// `hints.sound-file` (a hint's value), `hints` (a hint whose name was cut, left out).
    public var cutStrings: [String: Int] = [:]

    /// The arguments of a `Notify` call, in the order of its signature `susssasa{sv}i`.
    public init(
        appName: String = "", replacesID: UInt32 = 0, appIcon: String = "", summary: String, body: String = "",
        actions: [String] = [], hints: [String: HintValue] = [:], expireTimeout: Int32 = -1
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }
}

/// A hint's value: the D-Bus variant's content, for the types hints use.
///
/// The D-Bus layer turns every variant into one of these; containers and the types no standard
/// hint uses (`image-data`'s `(iiibiiay)`, arrays, object paths…) become ``unsupported(_:)``
/// with their signature, so that a warning can name what was sent.
public enum HintValue: Sendable, Hashable {
    /// A string (`s`).
    case string(String)
    /// A boolean (`b`).
    case bool(Bool)
    /// A byte (`y`): the type of `urgency`.
    case byte(UInt8)
    /// A signed integer (`n`, `i` or `x`).
    case int(Int64)
    /// An unsigned integer (`q`, `u` or `t`).
    case uint(UInt64)
    /// A double (`d`).
    case double(Double)
    /// Any other type, by its D-Bus signature (`(iiibiiay)`, `as`, `o`…).
    case unsupported(String)

    /// The type in words with its signature, for warnings: `a string (s)`, `a byte (y)`…
    public var typeDescription: String {
        switch self {
        case .string: "a string (s)"
        case .bool: "a boolean (b)"
        case .byte: "a byte (y)"
        case .int: "a signed integer"
        case .uint: "an unsigned integer"
        case .double: "a double (d)"
        case .unsupported(let signature): "a value of type \(signature)"
        }
    }

    /// The integer, for the integer types (a byte, a signed or an unsigned integer).
    public var integerValue: Int64? {
        switch self {
        case .byte(let b): Int64(b)
        case .int(let i): i
        case .uint(let u): Int64(exactly: u)
        default: nil
        }
    }
}

