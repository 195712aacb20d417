/// How an action behaves (Apple: `UNNotificationActionOptions`).
public struct UNNotificationActionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Requires the device to be unlocked.
    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    /// Destructive: drawn in red.
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    /// Brings the app to the foreground: the action is forwarded to the app.
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)

    /// Each option with the name the app file uses.
    public static let names: [(String, UNNotificationActionOptions)] = [
        ("authenticationRequired", .authenticationRequired), ("destructive", .destructive),
        ("foreground", .foreground),
    ]
}

/// A button under a notification (Apple: `UNNotificationAction` and `UNTextInputNotificationAction`).
///
/// One value type for both: a text-input action is an action with ``textInput`` set, made with
/// `UNTextInputNotificationAction(identifier:title:options:textInputButtonTitle:textInputPlaceholder:)`
/// as on iOS, and stored in the same `[UNNotificationAction]` arrays.
public struct UNNotificationAction: Sendable, Hashable {
    /// The identifier reported in the response.
    public let identifier: String
    /// The button's title.
    public let title: String
    /// How the action behaves.
    public let options: UNNotificationActionOptions
    /// For a text-input action, its prompt; `nil` for a plain button.
    public let textInput: TextInput?

    /// What a text-input action asks for.
    public struct TextInput: Sendable, Hashable {
        /// The title of the send button.
        public let buttonTitle: String
        /// The placeholder shown in the empty field.
        public let placeholder: String

        /// A prompt.
        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    /// An action button (Apple: `init(identifier:title:options:)`).
    public init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(identifier: identifier, title: title, options: options, textInput: nil)
    }

    /// An action, a text-input one when `textInput` is given.
    public init(identifier: String, title: String, options: UNNotificationActionOptions, textInput: TextInput?) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.textInput = textInput
    }

    /// Whether the action asks for text.
    public var isTextInput: Bool { textInput != nil }
}

/// A text-input action is a ``UNNotificationAction`` with ``UNNotificationAction/textInput`` set.
public typealias UNTextInputNotificationAction = UNNotificationAction

extension UNNotificationAction {
    /// A text-input action (Apple: `UNTextInputNotificationAction(identifier:title:options:textInputButtonTitle:textInputPlaceholder:)`).
    public init(
        identifier: String, title: String, options: UNNotificationActionOptions = [],
        textInputButtonTitle: String, textInputPlaceholder: String
    ) {
        self.init(
            identifier: identifier, title: title, options: options,
            textInput: TextInput(buttonTitle: textInputButtonTitle, placeholder: textInputPlaceholder))
    }
}

/// How a category behaves (Apple: `UNNotificationCategoryOptions`).
public struct UNNotificationCategoryOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Dismissing the card sends a response with ``UNNotificationDismissActionIdentifier``.
    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
    /// Allowed in CarPlay (kept, no effect here).
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
    /// With previews hidden, still show the title (kept, no effect here).
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
    /// With previews hidden, still show the subtitle (kept, no effect here).
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
    /// May be announced by Siri (kept, no effect here).
    public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)

    /// Each option with the name the app file uses.
    public static let names: [(String, UNNotificationCategoryOptions)] = [
        ("customDismissAction", .customDismissAction), ("allowInCarPlay", .allowInCarPlay),
        ("hiddenPreviewsShowTitle", .hiddenPreviewsShowTitle),
        ("hiddenPreviewsShowSubtitle", .hiddenPreviewsShowSubtitle), ("allowAnnouncement", .allowAnnouncement),
    ]
}

/// A kind of notification with its actions (Apple: `UNNotificationCategory`).
public struct UNNotificationCategory: Sendable, Hashable {
    /// The identifier payloads name in `aps.category`.
    public let identifier: String
    /// The action buttons, in order (at most 10 are shown; keys 1–9 reach the first nine).
    public let actions: [UNNotificationAction]
    /// Siri intents (kept, no effect here).
    public let intentIdentifiers: [String]
    /// How the category behaves.
    public let options: UNNotificationCategoryOptions
    /// The body shown when previews are hidden (kept, no effect here).
    public let hiddenPreviewsBodyPlaceholder: String?

    /// A category (Apple: `init(identifier:actions:intentIdentifiers:options:)`).
    public init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String] = [],
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: nil, options: options)
    }

    /// A category with a placeholder for hidden previews.
    public init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        hiddenPreviewsBodyPlaceholder: String?, options: UNNotificationCategoryOptions
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.options = options
    }
}
