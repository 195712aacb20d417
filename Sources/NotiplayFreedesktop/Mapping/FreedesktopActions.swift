public import NotiplayCore

/// One action button a `Notify` call offered (the `default` action is not a button).
public struct FreedesktopAction: Sendable, Hashable {
    /// The action's key as the client sent it: what `ActionInvoked` reports, and the
    /// `UNNotificationAction`'s identifier.
    public var key: String
    /// The button's label, clean (no control characters, one line); the key when the label
    /// was empty.
    public var label: String
    /// For KDE's `inline-reply`, the text field's prompt; `nil` for a plain button.
    public var reply: ReplyPrompt?

    /// An action.
    public init(key: String, label: String, reply: ReplyPrompt? = nil) {
        self.key = key
        self.label = label
        self.reply = reply
    }

    /// The action on the card: a button, or a text-input action for `inline-reply`.
    public var notificationAction: UNNotificationAction {
        if let reply {
            return UNNotificationAction(
                identifier: key, title: label, textInputButtonTitle: reply.buttonTitle,
                textInputPlaceholder: reply.placeholder)
        }
        return UNNotificationAction(identifier: key, title: label)
    }
}

/// What KDE's `inline-reply` action asks for: the send button's title and the empty field's
/// placeholder (from the hints `x-kde-reply-submit-button-text` and
/// `x-kde-reply-placeholder-text`).
public struct ReplyPrompt: Sendable, Hashable {
    /// The send button's title ("Send" unless the hint gives one).
    public var buttonTitle: String
    /// The placeholder of the empty field ("" unless the hint gives one).
    public var placeholder: String

    /// A prompt.
    public init(buttonTitle: String = ReplyPrompt.defaultButtonTitle, placeholder: String = "") {
        self.buttonTitle = buttonTitle
        self.placeholder = placeholder
    }

    /// The send button's title when the client gives none.
    public static let defaultButtonTitle = "Send"
}

/// A `Notify` call's `actions` array read into buttons and a default action.
///
/// The array is flat, `[key, label, key, label, …]`. Read in order:
/// - `default` is the card's default action (Enter), never a button; its label is kept.
/// - `inline-reply` (KDE's extension, answered by the `NotificationReplied` signal) is a
///   text-input action: the button opens a text field; its label is the button's title
///   ("Reply" when empty).
/// - Any other key is a button, labelled by its label (by its key when the label is empty).
///
/// And what is not right, each with a warning keyed `actions` or `actions[i]` (i the index of
/// the key in the array):
/// - an odd-length array: the last key has no label and is ignored;
/// - an empty key: ignored;
/// - a key seen before (`default` included): the first wins, the later pair is ignored;
/// - the response identifiers `com.apple.UNNotificationDefaultActionIdentifier` and
///   `…DismissActionIdentifier`: ignored (they would be mistaken for the card's own responses);
/// - more than ``maximumButtons`` buttons: the rest are ignored (the card reaches ten).
public struct FreedesktopActions: Sendable, Hashable {
    /// The buttons, in the order given.
    public var buttons: [FreedesktopAction]
    /// The `default` action's label when the client offered one (it may be empty); `nil` when it
    /// did not (then Enter sends no `ActionInvoked`).
    public var defaultActionLabel: String?
    /// What was ignored, and why.
    public var warnings: [Diagnostic]

    /// The most buttons kept: the card shows ten, keys 1–9 reach the first nine.
    public static let maximumButtons = 10
    /// The spec's key for the default action.
    public static let defaultKey = "default"
    /// KDE's key for the inline reply.
    public static let inlineReplyKey = "inline-reply"
    /// The inline reply's button title when its label is empty.
    public static let defaultReplyLabel = "Reply"

    /// Buttons and a default action as given.
    public init(buttons: [FreedesktopAction] = [], defaultActionLabel: String? = nil, warnings: [Diagnostic] = []) {
        self.buttons = buttons
        self.defaultActionLabel = defaultActionLabel
        self.warnings = warnings
    }

    /// Reads a `Notify` call's `actions` array.
    /// - Parameters:
    ///   - flat: The array, `[key, label, …]`.
    ///   - reply: The prompt an `inline-reply` action gets.
    /// Actions whose key's index in `flat` is in `skipping` are left out without a word (their
    /// caller has said why).
    public init(reading flat: [String], reply: ReplyPrompt = ReplyPrompt(), skipping: Set<Int> = []) {
        self.init()
        var seen = Set<String>()
        if flat.count % 2 == 1 {
            warnings.append(
                Diagnostic(
                    key: "actions",
                    "has \(flat.count) strings, an odd number: the last key, \"\(flat[flat.count - 1])\", has no label and is ignored"))
        }
        var dropped = 0
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            let key = flat[index]
            let label = Self.clean(flat[index + 1])
            let place = "actions[\(index)]"
            guard !skipping.contains(index) else { continue }
            guard !key.isEmpty else {
                warnings.append(Diagnostic(key: place, "an empty key is not an action; \"\(label)\" is ignored"))
                continue
            }
            guard !seen.contains(key) else {
                warnings.append(Diagnostic(key: place, "\"\(key)\" was offered before; the first one is kept"))
                continue
            }
            seen.insert(key)
            if key == UNNotificationDefaultActionIdentifier || key == UNNotificationDismissActionIdentifier {
                warnings.append(Diagnostic(key: place, "\"\(key)\" is reserved for the card's own responses and is ignored"))
                continue
            }
            if key == Self.defaultKey {
                defaultActionLabel = label
                continue
            }
            guard buttons.count < Self.maximumButtons else {
                dropped += 1
                continue
            }
            if key == Self.inlineReplyKey {
                buttons.append(FreedesktopAction(key: key, label: label.isEmpty ? Self.defaultReplyLabel : label, reply: reply))
            } else {
                buttons.append(FreedesktopAction(key: key, label: label.isEmpty ? Self.clean(key) : label))
            }
        }
        if dropped > 0 {
            warnings.append(
                Diagnostic(
                    key: "actions",
                    "offers \(Self.maximumButtons + dropped) buttons; the card has room for \(Self.maximumButtons), the last \(dropped) are ignored"))
        }
    }

    /// Whether the client offered an action with `key` (`default` included).
    public func offers(_ key: String) -> Bool {
        key == Self.defaultKey ? defaultActionLabel != nil : buttons.contains { $0.key == key }
    }

    /// The category carrying the buttons, to register for the notification, or `nil` when there
    /// are no buttons (the default action needs none: Enter is every card's default action).
    public func category(identifier: String) -> UNNotificationCategory? {
        guard !buttons.isEmpty else { return nil }
        return UNNotificationCategory(identifier: identifier, actions: buttons.map(\.notificationAction))
    }

    /// A label or prompt made fit for a button: one line, no control characters, no white space
    /// at its ends.
    static func clean(_ text: String) -> String {
        String(TerminalText.clean(text).trimmingSpaces())
    }
}

extension String {
    /// The string without spaces at its ends.
    func trimmingSpaces() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
