import NotiplayCore
package import NotiplayCenterClient

/// Focus, and the categories apps declare at run time.
extension CenterService {
    /// The registered app `name` stands for: the one with that name, else the only one whose
    /// name is the same ignoring case, spaces and punctuation (a program `custom-number` speaks
    /// for "Custom Number").
    package func appName(matching name: String) -> String? {
        if apps[name] != nil { return name }
        let key = Self.loose(name)
        let matches = apps.keys.filter { Self.loose($0) == key }
        return matches.count == 1 ? matches[0] : nil
    }

    /// Whether app `name` (or the app it stands for) is refused notifications (`serve --deny`).
    package func isDenied(_ name: String) -> Bool {
        let key = Self.loose(name)
        return deniedApps.contains { Self.loose($0) == key }
    }

    private static func loose(_ name: String) -> String {
        CenterAddress.appKey(name)
    }

    /// A setting kept in the store (it survives a restart), or `nil` when it was never set or
    /// cannot be read.
    package func setting(_ key: String) -> String? {
        (try? store.setting(key)) ?? nil
    }

    /// Keeps setting `key` in the store.
    package func setSetting(_ key: String, to value: String) {
        try? store.setSetting(key, to: value)
    }

    /// The store's key for Focus.
    static let focusSetting = "focus"

    /// Whether Focus is on (kept in the store: it survives a restart).
    package var focus: Bool {
        (try? store.setting(Self.focusSetting)) == "on"
    }

    /// Turns Focus on or off.
    package func setFocus(_ on: Bool) {
        try? store.setSetting(Self.focusSetting, to: on ? "on" : "off")
        emit(.focus(on))
    }

    /// App `name` declares its categories (`json`: an app file's `categories` array); they
    /// replace the app's categories with the same identifiers. Returns the app's categories' identifiers.
    package func setCategories(_ json: String, for name: String) throws(CenterFailure) -> [String] {
        guard let name = appName(matching: name), var app = apps[name] else {
            throw CenterFailure(.unknownApp, CenterServiceError.unknownApp(name, known: appNames).description)
        }
        let declared: [UNNotificationCategory]
        do {
            let list = try JSONParser.parse(Array(json.utf8))
            let file = JSONValue.object(JSONObject([("name", .string(name)), ("categories", list)]))
            let definition = try AppDefinition.decode(file, path: "the categories of \(name)")
            declared = definition.categories
        } catch {
            throw CenterFailure(.invalidCategories, "\(error)")
        }
        let identifiers = Set(declared.map(\.identifier))
        app.definition.categories = app.definition.categories.filter { !identifiers.contains($0.identifier) } + declared
        apps[name] = app
        return app.definition.categories.map(\.identifier)
    }

    /// The categories app `name`'s content extensions claim (the registered app `name` stands
    /// for), in the order of its extensions; empty for an unknown app or one with none.
    package func claimedCategories(of name: String) -> [String] {
        guard let name = appName(matching: name), let app = apps[name] else { return [] }
        return app.registry.extensions.filter { $0.point == .content }.flatMap(\.categories)
    }
}
