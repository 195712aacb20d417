/// The app a notification belongs to, as an app file declares it (JSON; see `Media/NagMe.app.json`).
///
/// ```json
/// {
///   "name": "NagMe",
///   "categories": [
///     { "identifier": "reminder",
///       "actions": [
///         { "identifier": "cancel", "title": "Cancel reminder", "options": ["destructive"] },
///         { "identifier": "reply", "title": "Reply",
///           "textInput": { "buttonTitle": "Send", "placeholder": "Message" } } ],
///       "options": ["customDismissAction"] } ],
///   "extensions": "Extensions",
///   "forwardedActions": { "print": true, "command": ["./on-action.sh"] }
/// }
/// ```
///
/// - `name` (required): shown in the card's header.
/// - `categories`: each with a unique `identifier`, its `actions` (`identifier`, `title`,
///   `options` from `foreground`, `destructive`, `authenticationRequired`, and `textInput` for a
///   text-input action), `options` (`customDismissAction`, `allowInCarPlay`,
///   `hiddenPreviewsShowTitle`, `hiddenPreviewsShowSubtitle`, `allowAnnouncement`),
///   `intentIdentifiers` and `hiddenPreviewsBodyPlaceholder`.
/// - `extensions`: the folder of `Name.appex` bundles, relative to the app file.
/// - `forwardedActions`: what happens to actions forwarded to the app — `print` them as JSON
///   lines (default true) and run `command` (an array: the program and its arguments, relative to
///   the app file) with the response in its environment.
public struct AppDefinition: Sendable, Hashable {
    /// The app's name.
    public var name: String
    /// The categories with their actions.
    public var categories: [UNNotificationCategory]
    /// The folder holding the app's extensions, resolved against the app file's folder.
    public var extensionsDirectory: String?
    /// What to do with forwarded actions.
    public var forwardedActions: ForwardedActions
    /// Doubts found when the file was read.
    public var warnings: [Diagnostic]

    /// What happens to an action forwarded to the app.
    public struct ForwardedActions: Sendable, Hashable {
        /// Print each forwarded response as a JSON line.
        public var print: Bool
        /// A program and its arguments to run for each forwarded response, or `nil`.
        public var command: [String]?

        /// Print only.
        public static let printOnly = ForwardedActions(print: true, command: nil)

        /// A handling with each part given.
        public init(print: Bool, command: [String]?) {
            self.print = print
            self.command = command
        }
    }

    /// The app used when no app file is given: named "notiplay", no categories.
    public static let standard = AppDefinition(
        name: "notiplay", categories: [], extensionsDirectory: nil, forwardedActions: .printOnly)

    /// An app with each part given.
    public init(
        name: String, categories: [UNNotificationCategory], extensionsDirectory: String?,
        forwardedActions: ForwardedActions, warnings: [Diagnostic] = []
    ) {
        self.name = name
        self.categories = categories
        self.extensionsDirectory = extensionsDirectory
        self.forwardedActions = forwardedActions
        self.warnings = warnings
    }

    /// The category with this identifier, if the app declares it.
    public func category(_ identifier: String) -> UNNotificationCategory? {
        categories.first { $0.identifier == identifier }
    }

    /// The largest app file read.
    public static let fileCap = 1 << 20

    /// Reads and checks the app file at `path`.
    public static func decodeFile(_ path: String) throws(InvalidFileError) -> AppDefinition {
        let bytes = try FileBytes.contents(of: path, cap: fileCap, what: "an app")
        let value: JSONValue
        var duplicates: [JSONDuplicateKey] = []
        do {
            value = try JSONParser.parse(bytes, duplicateKeys: &duplicates)
        } catch {
            throw InvalidFileError(file: path, errors: [Diagnostic(line: error.line, column: error.column, error.message)])
        }
        return try decode(value, path: path, warnings: duplicates.map(Diagnostic.init))
    }

    /// Checks a parsed app file; relative paths in it are resolved against `path`'s folder.
    public static func decode(_ value: JSONValue, path: String) throws(InvalidFileError) -> AppDefinition {
        try decode(value, path: path, warnings: [])
    }

    /// The same, after `warnings` found while parsing it.
    static func decode(_ value: JSONValue, path: String, warnings: [Diagnostic]) throws(InvalidFileError) -> AppDefinition {
        var reader = AppReader(base: Path.directory(of: path))
        reader.log.warnings = warnings
        if let app = reader.app(value), reader.log.errors.isEmpty { return app }
        throw InvalidFileError(file: path, errors: reader.log.errors, warnings: reader.log.warnings)
    }
}

private struct AppReader {
    var log = DiagnosticLog()
    let base: String

    static let topKeys: Set<String> = ["name", "categories", "extensions", "forwardedActions"]

    mutating func app(_ value: JSONValue) -> AppDefinition? {
        guard let object = value.objectValue else {
            log.error(nil, "an app file is a JSON object with a \"name\"; found \(value.found)")
            return nil
        }
        var name = ""
        switch object["name"] {
        case nil: log.error("name", "missing: the app's name, shown in the card's header")
        case .string(let s)? where !s.trimmingSpaces.isEmpty: name = s
        case let other?: expected("name", "a non-empty string", other)
        }
        var categories: [UNNotificationCategory] = []
        if let list = object["categories"] {
            if let items = list.arrayValue {
                var seen: [String: Int] = [:]
                for (i, item) in items.enumerated() {
                    guard let category = category(item, at: "categories[\(i)]") else { continue }
                    if let first = seen[category.identifier] {
                        log.error(
                            "categories[\(i)].identifier",
                            "\"\(category.identifier)\" is already the identifier of categories[\(first)]")
                    } else {
                        seen[category.identifier] = i
                        categories.append(category)
                    }
                }
            } else {
                expected("categories", "an array of categories", list)
            }
        }
        var extensions: String?
        if let value = object["extensions"] {
            if let folder = value.stringValue, !folder.isEmpty {
                let resolved = Path.resolve(folder, against: base)
                if Path.isDirectory(resolved) {
                    extensions = resolved
                } else {
                    log.error("extensions", "\"\(folder)\" is not a folder (looked for \(resolved))")
                }
            } else {
                expected("extensions", "a folder of Name.appex bundles, relative to the app file", value)
            }
        }
        var forwarded = AppDefinition.ForwardedActions.printOnly
        if let value = object["forwardedActions"] {
            forwarded = forwardedActions(value)
        }
        for key in object.memberNames where !Self.topKeys.contains(key) {
            log.warning(key, "is not an app-file key and is ignored")
        }
        return AppDefinition(
            name: name, categories: categories, extensionsDirectory: extensions, forwardedActions: forwarded,
            warnings: log.warnings)
    }

    mutating func category(_ value: JSONValue, at path: String) -> UNNotificationCategory? {
        guard let object = value.objectValue else {
            expected(path, "an object with an \"identifier\" and \"actions\"", value)
            return nil
        }
        guard let identifier = requiredString(object, "identifier", at: path) else { return nil }
        var actions: [UNNotificationAction] = []
        if let list = object["actions"] {
            if let items = list.arrayValue {
                var seen: [String: Int] = [:]
                for (i, item) in items.enumerated() {
                    guard let action = action(item, at: "\(path).actions[\(i)]") else { continue }
                    if let first = seen[action.identifier] {
                        log.error(
                            "\(path).actions[\(i)].identifier",
                            "\"\(action.identifier)\" is already the identifier of \(path).actions[\(first)]")
                    } else {
                        seen[action.identifier] = i
                        actions.append(action)
                    }
                }
                if items.count > 10 {
                    log.warning("\(path).actions", "has \(items.count) actions; iOS shows at most 10, keys 1–9 reach the first nine")
                }
            } else {
                expected("\(path).actions", "an array of actions", list)
            }
        }
        let options = optionSet(
            object["options"], at: "\(path).options", names: UNNotificationCategoryOptions.names,
            empty: UNNotificationCategoryOptions())
        let intents = stringArray(object["intentIdentifiers"], at: "\(path).intentIdentifiers")
        var placeholder: String?
        if let value = object["hiddenPreviewsBodyPlaceholder"] {
            placeholder = value.stringValue
            if placeholder == nil { expected("\(path).hiddenPreviewsBodyPlaceholder", "a string", value) }
        }
        let known: Set<String> = ["identifier", "actions", "options", "intentIdentifiers", "hiddenPreviewsBodyPlaceholder"]
        for key in object.memberNames where !known.contains(key) {
            log.warning("\(path).\(key)", "is not a category key and is ignored")
        }
        return UNNotificationCategory(
            identifier: identifier, actions: actions, intentIdentifiers: intents,
            hiddenPreviewsBodyPlaceholder: placeholder, options: options)
    }

    mutating func action(_ value: JSONValue, at path: String) -> UNNotificationAction? {
        guard let object = value.objectValue else {
            expected(path, "an object with an \"identifier\" and a \"title\"", value)
            return nil
        }
        let identifier = requiredString(object, "identifier", at: path)
        let title = requiredString(object, "title", at: path, allowEmpty: true)
        if let identifier, identifier == UNNotificationDefaultActionIdentifier || identifier == UNNotificationDismissActionIdentifier {
            log.error("\(path).identifier", "\"\(identifier)\" is reserved for the default and dismiss responses")
        }
        let options = optionSet(
            object["options"], at: "\(path).options", names: UNNotificationActionOptions.names,
            empty: UNNotificationActionOptions())
        var textInput: UNNotificationAction.TextInput?
        if let value = object["textInput"] {
            if let input = value.objectValue {
                var button = "Send"
                var placeholder = ""
                for (key, item) in input {
                    switch key {
                    case "buttonTitle", "placeholder":
                        guard let text = item.stringValue else {
                            expected("\(path).textInput.\(key)", "a string", item)
                            continue
                        }
                        if key == "buttonTitle" { button = text } else { placeholder = text }
                    default:
                        log.warning("\(path).textInput.\(key)", "is not a text-input key (buttonTitle, placeholder) and is ignored")
                    }
                }
                textInput = .init(buttonTitle: button, placeholder: placeholder)
            } else {
                expected("\(path).textInput", "an object with \"buttonTitle\" and \"placeholder\"", value)
            }
        }
        let known: Set<String> = ["identifier", "title", "options", "textInput"]
        for key in object.memberNames where !known.contains(key) {
            log.warning("\(path).\(key)", "is not an action key and is ignored")
        }
        guard let identifier, let title else { return nil }
        return UNNotificationAction(identifier: identifier, title: title, options: options, textInput: textInput)
    }

    mutating func forwardedActions(_ value: JSONValue) -> AppDefinition.ForwardedActions {
        guard let object = value.objectValue else {
            expected("forwardedActions", "an object with \"print\" and \"command\"", value)
            return .printOnly
        }
        var result = AppDefinition.ForwardedActions.printOnly
        for (key, item) in object {
            switch key {
            case "print":
                if let flag = item.boolValue { result.print = flag } else { expected("forwardedActions.print", "true or false", item) }
            case "command":
                guard let parts = item.arrayValue, !parts.isEmpty else {
                    expected("forwardedActions.command", "a non-empty array: the program and its arguments", item)
                    continue
                }
                var command: [String] = []
                for (i, part) in parts.enumerated() {
                    if let s = part.stringValue, !s.isEmpty, !s.utf8.contains(0) {
                        command.append(s)
                    } else {
                        expected("forwardedActions.command[\(i)]", "a non-empty string", part)
                    }
                }
                if command.count == parts.count {
                    if command[0].contains("/") { command[0] = Path.resolve(command[0], against: base) }
                    result.command = command
                }
            default:
                log.warning("forwardedActions.\(key)", "is not a forwardedActions key (print, command) and is ignored")
            }
        }
        return result
    }

    mutating func optionSet<Options: OptionSet>(
        _ value: JSONValue?, at path: String, names: [(String, Options)], empty: Options
    ) -> Options where Options.Element == Options {
        guard let value else { return empty }
        guard let items = value.arrayValue else {
            expected(path, "an array of option names", value)
            return empty
        }
        var result = empty
        for (i, item) in items.enumerated() {
            guard let name = item.stringValue, let option = names.first(where: { $0.0 == name })?.1 else {
                let valid = names.map(\.0).joined(separator: ", ")
                expected("\(path)[\(i)]", "one of \(valid)", item)
                continue
            }
            result.insert(option)
        }
        return result
    }

    mutating func stringArray(_ value: JSONValue?, at path: String) -> [String] {
        guard let value else { return [] }
        guard let items = value.arrayValue else {
            expected(path, "an array of strings", value)
            return []
        }
        return items.enumerated().compactMap { i, item in
            if let s = item.stringValue { return s }
            expected("\(path)[\(i)]", "a string", item)
            return nil
        }
    }

    mutating func requiredString(_ object: JSONObject, _ key: String, at path: String, allowEmpty: Bool = false) -> String? {
        switch object[key] {
        case nil:
            log.error("\(path).\(key)", "missing")
            return nil
        case .string(let s)? where allowEmpty || !s.isEmpty:
            return s
        case let other?:
            expected("\(path).\(key)", allowEmpty ? "a string" : "a non-empty string", other)
            return nil
        }
    }

    mutating func expected(_ path: String, _ what: String, _ value: JSONValue) {
        log.error(path, "expected \(what); found \(value.found)")
    }
}
