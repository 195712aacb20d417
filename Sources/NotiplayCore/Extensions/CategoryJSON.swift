/// Categories as an app file writes them (see ``AppDefinition``): what an app's
/// `setNotificationCategories` hands the notification center, which reads them back as it reads
/// an app file's `categories`.
///
/// ```json
/// [{"identifier": "reminder",
///   "actions": [{"identifier": "cancel", "title": "Cancel", "options": ["destructive"]},
///               {"identifier": "reply", "title": "Reply", "textInput": {"buttonTitle": "Send", "placeholder": "Message"}}],
///   "options": ["customDismissAction"]}]
/// ```
/// Empty option lists, intent identifiers and a missing placeholder are left out.
public enum CategoryJSON {
    /// `categories` as a JSON array, in identifier order (a `Set`'s order is not kept).
    public static func encode(_ categories: some Sequence<UNNotificationCategory>) -> String {
        JSONValue.array(categories.sorted { $0.identifier < $1.identifier }.map(value)).jsonText
    }

    /// One category as an app file's object.
    public static func value(_ category: UNNotificationCategory) -> JSONValue {
        var object = JSONObject([("identifier", .string(category.identifier)), ("actions", .array(category.actions.map(value)))])
        if let options = names(category.options, UNNotificationCategoryOptions.names) { object["options"] = options }
        if !category.intentIdentifiers.isEmpty {
            object["intentIdentifiers"] = .array(category.intentIdentifiers.map { .string($0) })
        }
        if let placeholder = category.hiddenPreviewsBodyPlaceholder {
            object["hiddenPreviewsBodyPlaceholder"] = .string(placeholder)
        }
        return .object(object)
    }

    /// One action as an app file's object.
    static func value(_ action: UNNotificationAction) -> JSONValue {
        var object = JSONObject([("identifier", .string(action.identifier)), ("title", .string(action.title))])
        if let options = names(action.options, UNNotificationActionOptions.names) { object["options"] = options }
        if let input = action.textInput {
            object["textInput"] = .object(
                JSONObject([("buttonTitle", .string(input.buttonTitle)), ("placeholder", .string(input.placeholder))]))
        }
        return .object(object)
    }

    /// The names of the options in `set`, in the app file's order; `nil` when there are none.
    private static func names<Options: OptionSet>(_ set: Options, _ names: [(String, Options)]) -> JSONValue?
    where Options.Element == Options {
        let chosen = names.filter { set.contains($0.1) }.map { JSONValue.string($0.0) }
        return chosen.isEmpty ? nil : .array(chosen)
    }
}
