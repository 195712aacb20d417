public import NotiplayCore

/// What a freedesktop notification carries beyond `aps`: the payload's top-level
/// `"freedesktop"` object, which the center stores with the notification and reads back to
/// draw the card, answer `ActionInvoked`, re-register the buttons after a restart, and expire it.
///
/// The keys (every one but `id` and `app` left out when it has nothing to say):
///
/// | Key | Type | What |
/// |---|---|---|
/// | `id` | integer | The notification's freedesktop id (what `Notify` returned). |
/// | `app` | string | The card's header: `app_name`, clean, or `notiplay` when empty. |
/// | `icon` | string | `app_icon`, clean (listed, not drawn). |
/// | `desktop-entry` | string | The `desktop-entry` hint, clean. |
/// | `category` | string | The `category` hint (`email.arrived`…), clean. |
/// | `markup` | array | The body's styled runs: `{"text", "bold", "italic", "underline", "link"}` (only when some text is styled). |
/// | `image` | string | `image-path` (or the older `image_path`), clean (listed, not drawn). |
/// | `resident` | `true` | The `resident` hint: an action does not close the card. |
/// | `transient` | `true` | The `transient` hint: not kept in the history. |
/// | `actions` | array | The buttons, `{"key", "label"}`, and for `inline-reply` `"reply": {"button", "placeholder"}`. |
/// | `default-action` | string | The `default` action's label, when one was offered. |
/// | `sound` | object | `{"hint": "sound-file" or "sound-name", "file": path}`: the audio attachment came from this hint and plays on arrival. |
/// | `expire-timeout` | integer | Milliseconds after which the card expires (closed with reason 1); absent: never. |
public struct FreedesktopExtras: Sendable, Hashable {
    /// The payload's key for this object.
    public static let payloadKey = "freedesktop"

    /// The freedesktop id.
    public var id: UInt32
    /// The card's header.
    public var app: String
    /// `app_icon`, when given.
    public var icon: String?
    /// The `desktop-entry` hint.
    public var desktopEntry: String?
    /// The `category` hint.
    public var category: String?
    /// The body's styles, when any text is styled.
    public var markup: StyledText?
    /// `image-path`.
    public var image: String?
    /// The `resident` hint.
    public var resident: Bool
    /// The `transient` hint.
    public var transient: Bool
    /// The buttons and the default action (without warnings: those went with the mapping).
    public var actions: FreedesktopActions
    /// Where the sound attachment came from, when a hint gave one.
    public var sound: SoundSource?
    /// Milliseconds before the card expires; `nil` for never.
    public var expireTimeout: Int?

    /// Extras with an id and a header, and nothing else yet.
    public init(id: UInt32, app: String) {
        self.id = id
        self.app = app
        resident = false
        transient = false
        actions = FreedesktopActions()
    }

    /// The object as the payload holds it.
    public var jsonValue: JSONValue {
        var object = JSONObject([("id", .integer(Int64(id))), ("app", .string(app))])
        if let icon { object["icon"] = .string(icon) }
        if let desktopEntry { object["desktop-entry"] = .string(desktopEntry) }
        if let category { object["category"] = .string(category) }
        if let markup { object["markup"] = markup.jsonValue }
        if let image { object["image"] = .string(image) }
        if resident { object["resident"] = .bool(true) }
        if transient { object["transient"] = .bool(true) }
        if !actions.buttons.isEmpty { object["actions"] = .array(actions.buttons.map(Self.json)) }
        if let label = actions.defaultActionLabel { object["default-action"] = .string(label) }
        if let sound {
            object["sound"] = .object(JSONObject([("hint", .string(sound.hint)), ("file", .string(sound.file))]))
        }
        if let expireTimeout { object["expire-timeout"] = .integer(Int64(expireTimeout)) }
        return .object(object)
    }

    private static func json(_ action: FreedesktopAction) -> JSONValue {
        var object = JSONObject([("key", .string(action.key)), ("label", .string(action.label))])
        if let reply = action.reply {
            object["reply"] = .object(
                JSONObject([("button", .string(reply.buttonTitle)), ("placeholder", .string(reply.placeholder))]))
        }
        return .object(object)
    }

    /// The extras of a stored payload (its top-level object, as `userInfo` holds it), or `nil`
    /// when it has no `freedesktop` object with an `id`. Lenient past that: a key of the wrong
    /// type is skipped. Texts are cleaned again: a stored payload is input too.
    public init?(payload: JSONObject) {
        guard let object = payload[Self.payloadKey]?.objectValue, let number = object["id"]?.intValue,
            let id = UInt32(exactly: number)
        else { return nil }
        func text(_ key: String) -> String? { object[key]?.stringValue.map { TerminalText.clean($0) } }
        self.init(id: id, app: text("app") ?? FreedesktopMapping.defaultAppName)
        icon = text("icon")
        desktopEntry = text("desktop-entry")
        category = text("category")
        markup = object["markup"].flatMap { StyledText(json: $0) }
        image = text("image")
        resident = object["resident"]?.boolValue == true
        transient = object["transient"]?.boolValue == true
        var buttons: [FreedesktopAction] = []
        for item in object["actions"]?.arrayValue ?? [] {
            guard let action = item.objectValue, let key = action["key"]?.stringValue, !key.isEmpty else { continue }
            let label = action["label"]?.stringValue.map(FreedesktopActions.clean) ?? key
            let reply = action["reply"]?.objectValue.map { prompt in
                ReplyPrompt(
                    buttonTitle: prompt["button"]?.stringValue.map(FreedesktopActions.clean) ?? ReplyPrompt.defaultButtonTitle,
                    placeholder: prompt["placeholder"]?.stringValue.map(FreedesktopActions.clean) ?? "")
            }
            buttons.append(FreedesktopAction(key: key, label: label, reply: reply))
        }
        actions = FreedesktopActions(
            buttons: Array(buttons.prefix(FreedesktopActions.maximumButtons)),
            defaultActionLabel: object["default-action"]?.stringValue.map(FreedesktopActions.clean))
        if let sound = object["sound"]?.objectValue, let hint = sound["hint"]?.stringValue {
            self.sound = SoundSource(hint: hint, file: sound["file"]?.stringValue ?? "")
        }
        expireTimeout = object["expire-timeout"]?.intValue.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The category to register for the notification's buttons (after a restart too), or `nil`
    /// when it has none.
    public var notificationCategory: UNNotificationCategory? {
        actions.category(identifier: FreedesktopIDs.categoryIdentifier(for: id))
    }
}

/// Where a notification's sound attachment came from: the hint and the file it named.
public struct SoundSource: Sendable, Hashable {
    /// `sound-file` or `sound-name`.
    public var hint: String
    /// The file's path, as validated.
    public var file: String

    /// A source.
    public init(hint: String, file: String) {
        self.hint = hint
        self.file = file
    }
}
