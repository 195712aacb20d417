/// The two notification extension points (`NSExtensionPointIdentifier`).
public enum ExtensionPoint: String, Sendable, Hashable, CaseIterable {
    /// A content extension: draws the card for its categories.
    case content = "com.apple.usernotifications.content-extension"
    /// A service extension: edits alert payloads with `mutable-content: 1` before they are shown.
    case service = "com.apple.usernotifications.service"

    /// `content-extension` or `service-extension`, as ``ValidatedKind`` names the kind.
    public var kindName: String {
        switch self {
        case .content: "content-extension"
        case .service: "service-extension"
        }
    }
}

/// An extension's `Info.plist`, as Xcode writes it, read and checked (the keys and their rules:
/// <doc:NotificationsAndExtensions>).
///
/// The class that implements the extension is found by ``typeName``: the principal class with
/// Xcode's `$(PRODUCT_MODULE_NAME)` (or `$(PRODUCT_NAME)`) prefix replaced by the bundle's name,
/// or — for Xcode's template, which names a storyboard instead — the bundle's name itself.
public struct ExtensionManifest: Sendable, Hashable {
    /// The bundle's name: `NagMe` for `NagMe.appex`.
    public var bundleName: String
    /// The `Info.plist` file, as it was named when loaded.
    public var path: String
    /// The extension point.
    public var point: ExtensionPoint
    /// `NSExtensionPrincipalClass` as written, if present.
    public var principalClass: String?
    /// `NSExtensionMainStoryboard`, if present.
    public var mainStoryboard: String?
    /// The name the implementing Swift type is registered under.
    public var typeName: String
    /// `CFBundleIdentifier`, if present.
    public var bundleIdentifier: String?
    /// `CFBundleDisplayName` or `CFBundleName`, if present.
    public var displayName: String?
    /// `UNNotificationExtensionCategory`: the categories a content extension presents.
    public var categories: [String]
    /// `UNNotificationExtensionInitialContentSizeRatio`: height over width (0 allowed).
    /// A card `width` columns wide starts `ratio × width / 2` rows tall, cells being about twice
    /// as tall as they are wide.
    public var initialContentSizeRatio: Double
    /// `UNNotificationExtensionDefaultContentHidden`.
    public var defaultContentHidden: Bool
    /// `UNNotificationExtensionOverridesDefaultTitle`.
    public var overridesDefaultTitle: Bool
    /// `UNNotificationExtensionUserInteractionEnabled`.
    public var userInteractionEnabled: Bool
    /// Doubts that did not make the manifest invalid.
    public var warnings: [Diagnostic]

    /// A manifest made in code (for extensions registered without an `Info.plist`, and tests).
    public init(
        bundleName: String, path: String, point: ExtensionPoint, principalClass: String?, mainStoryboard: String?,
        typeName: String, bundleIdentifier: String?, displayName: String?, categories: [String],
        initialContentSizeRatio: Double, defaultContentHidden: Bool, overridesDefaultTitle: Bool,
        userInteractionEnabled: Bool, warnings: [Diagnostic]
    ) {
        self.bundleName = bundleName
        self.path = path
        self.point = point
        self.principalClass = principalClass
        self.mainStoryboard = mainStoryboard
        self.typeName = typeName
        self.bundleIdentifier = bundleIdentifier
        self.displayName = displayName
        self.categories = categories
        self.initialContentSizeRatio = initialContentSizeRatio
        self.defaultContentHidden = defaultContentHidden
        self.overridesDefaultTitle = overridesDefaultTitle
        self.userInteractionEnabled = userInteractionEnabled
        self.warnings = warnings
    }

    /// The view rows for a card `width` columns wide, from the ratio.
    public func initialRows(forWidth width: Int) -> Int {
        let rows = initialContentSizeRatio * Double(width) / 2
        guard rows.isFinite, rows > 0 else { return 0 }
        return Int(min(rows.rounded(), 1_000))
    }

    /// Checks a parsed `Info.plist`.
    /// - Parameters:
    ///   - plist: The parsed file.
    ///   - bundleName: The bundle's name (from `Name.appex`), or `nil` to take `CFBundleName`.
    ///   - path: The file, for ``path``.
    /// - Throws: ``ManifestError`` with every problem, each naming its key.
    public static func decode(
        _ plist: PropertyListValue, bundleName: String?, path: String
    ) throws(ManifestError) -> ExtensionManifest {
        var reader = ManifestReader()
        if let manifest = reader.manifest(plist, bundleName: bundleName, path: path), reader.log.errors.isEmpty {
            return manifest
        }
        throw ManifestError(
            kind: reader.point ?? .content, errors: reader.log.errors, warnings: reader.log.warnings,
            pointIsKnown: reader.point != nil)
    }
}

/// An `Info.plist` that is not a valid notification extension manifest.
public struct ManifestError: Error, Sendable, Equatable {
    /// The extension point it seems to be for (content when it cannot be told).
    public var kind: ExtensionPoint
    /// The problems; never empty.
    public var errors: [Diagnostic]
    /// Doubts found on the way.
    public var warnings: [Diagnostic]
    /// Whether the extension point was read; when not, ``kind`` is content as a default.
    public var pointIsKnown = true
}

private struct ManifestReader {
    var log = DiagnosticLog()
    var point: ExtensionPoint?

    static let extensionKey = "NSExtension"
    static let attributesKey = "NSExtension.NSExtensionAttributes"
    static let categoryKey = "UNNotificationExtensionCategory"
    static let ratioKey = "UNNotificationExtensionInitialContentSizeRatio"
    static let knownAttributes: Set<String> = [
        categoryKey, ratioKey, "UNNotificationExtensionDefaultContentHidden",
        "UNNotificationExtensionOverridesDefaultTitle", "UNNotificationExtensionUserInteractionEnabled",
    ]

    mutating func manifest(_ plist: PropertyListValue, bundleName: String?, path: String) -> ExtensionManifest? {
        guard let root = plist.dictionaryValue else {
            log.error(nil, "an Info.plist is a dictionary at the top; found \(plist.found)")
            return nil
        }
        let bundleIdentifier = optionalString(root, "CFBundleIdentifier", at: "CFBundleIdentifier")
        let displayName =
            optionalString(root, "CFBundleDisplayName", at: "CFBundleDisplayName")
            ?? optionalString(root, "CFBundleName", at: "CFBundleName")
        guard let extensionValue = root[Self.extensionKey] else {
            log.error(Self.extensionKey, "missing: a notification extension's Info.plist has an NSExtension dictionary")
            return nil
        }
        guard let ext = extensionValue.dictionaryValue else {
            expected(Self.extensionKey, "a <dict>", extensionValue)
            return nil
        }

        let pointKey = "NSExtension.NSExtensionPointIdentifier"
        switch ext["NSExtensionPointIdentifier"] {
        case nil:
            log.error(pointKey, "missing: expected \(ExtensionPoint.content.rawValue) or \(ExtensionPoint.service.rawValue)")
        case .string(let name)?:
            if let known = ExtensionPoint(rawValue: name) {
                point = known
            } else {
                log.error(
                    pointKey,
                    "unknown extension point \"\(name)\"; expected \(ExtensionPoint.content.rawValue) "
                        + "or \(ExtensionPoint.service.rawValue)")
            }
        case let other?:
            expected(pointKey, "a <string> naming the extension point", other)
        }
        if point == nil, ext["NSExtensionAttributes"]?[Self.categoryKey] == nil, ext["NSExtensionPrincipalClass"] != nil,
            ext["NSExtensionMainStoryboard"] == nil
        {
            point = .service  // For the kind reported with the errors.
        }

        let name = bundleName ?? displayName ?? "Extension"
        let principal = optionalString(ext, "NSExtensionPrincipalClass", at: "NSExtension.NSExtensionPrincipalClass")
        let storyboard = optionalString(ext, "NSExtensionMainStoryboard", at: "NSExtension.NSExtensionMainStoryboard")
        var typeName = name
        if let principal {
            typeName = Self.expand(principal, module: Self.moduleName(name))
            if typeName.isEmpty || typeName.hasSuffix(".") {
                log.error("NSExtension.NSExtensionPrincipalClass", "expected a Swift type name; found <string>\(principal)</string>")
            }
            if storyboard != nil {
                log.warning(
                    "NSExtension.NSExtensionMainStoryboard",
                    "ignored: NSExtensionPrincipalClass names the class")
            }
        } else if storyboard == nil || point == .service {
            log.error(
                "NSExtension.NSExtensionPrincipalClass",
                point == .service
                    ? "missing: a service extension names its class in NSExtensionPrincipalClass"
                    : "missing: expected NSExtensionPrincipalClass (the Swift type) or NSExtensionMainStoryboard")
        }

        var manifest = ExtensionManifest(
            bundleName: name, path: path, point: point ?? .content, principalClass: principal,
            mainStoryboard: storyboard, typeName: typeName, bundleIdentifier: bundleIdentifier,
            displayName: displayName, categories: [], initialContentSizeRatio: 0, defaultContentHidden: false,
            overridesDefaultTitle: false, userInteractionEnabled: false, warnings: [])

        let attributes: PropertyListDictionary?
        switch ext["NSExtensionAttributes"] {
        case nil: attributes = nil
        case .dictionary(let dict)?: attributes = dict
        case let other?:
            expected(Self.attributesKey, "a <dict>", other)
            attributes = nil
        }
        if point == .service {
            if let attributes, attributes.keys.contains(where: Self.knownAttributes.contains) {
                log.warning(Self.attributesKey, "content-extension attributes are ignored for a service extension")
            }
        } else if let attributes {
            contentAttributes(attributes, into: &manifest)
        } else if ext["NSExtensionAttributes"] == nil {
            log.error(
                Self.attributesKey,
                "missing: a content extension needs NSExtensionAttributes with \(Self.categoryKey) and \(Self.ratioKey)")
        }
        manifest.warnings = log.warnings
        return manifest
    }

    mutating func contentAttributes(_ attributes: PropertyListDictionary, into manifest: inout ExtensionManifest) {
        let categoryPath = "\(Self.attributesKey).\(Self.categoryKey)"
        switch attributes[Self.categoryKey] {
        case nil:
            log.error(categoryPath, "missing: the category (a <string>) or categories (an <array> of <string>) this extension presents")
        case .string(let category)?:
            if category.isEmpty {
                log.error(categoryPath, "is an empty <string>; expected a category identifier")
            } else {
                manifest.categories = [category]
            }
        case .array(let items)?:
            if items.isEmpty {
                log.error(categoryPath, "is an empty <array>; expected at least one category identifier")
            }
            for (i, item) in items.enumerated() {
                guard case .string(let category) = item, !category.isEmpty else {
                    expected("\(categoryPath)[\(i)]", "a non-empty <string>", item)
                    continue
                }
                if manifest.categories.contains(category) {
                    log.warning("\(categoryPath)[\(i)]", "repeats the category \"\(category)\"")
                } else {
                    manifest.categories.append(category)
                }
            }
        case let other?:
            expected(categoryPath, "a <string> or an <array> of <string>", other)
        }

        let ratioPath = "\(Self.attributesKey).\(Self.ratioKey)"
        switch attributes[Self.ratioKey] {
        case nil:
            log.error(ratioPath, "missing: the view's initial height over its width, a <real> such as 0.5")
        case .real(let ratio)?: manifest.initialContentSizeRatio = checkRatio(ratio, ratioPath, attributes[Self.ratioKey]!)
        case .integer(let ratio)?: manifest.initialContentSizeRatio = checkRatio(Double(ratio), ratioPath, attributes[Self.ratioKey]!)
        case .string(let text)?:
            if let ratio = Double(text.trimmingSpaces), ratio.isFinite {
                manifest.initialContentSizeRatio = checkRatio(ratio, ratioPath, .string(text))
                log.warning(ratioPath, "is a <string>; accepted as \(ratio), but Xcode writes a <real>")
            } else {
                expected(ratioPath, "a <real> such as 0.5", .string(text))
            }
        case let other?:
            expected(ratioPath, "a <real> such as 0.5", other)
        }

        manifest.defaultContentHidden = flag(attributes, "UNNotificationExtensionDefaultContentHidden")
        manifest.overridesDefaultTitle = flag(attributes, "UNNotificationExtensionOverridesDefaultTitle")
        manifest.userInteractionEnabled = flag(attributes, "UNNotificationExtensionUserInteractionEnabled")
        for key in attributes.keys where !Self.knownAttributes.contains(key) {
            log.warning("\(Self.attributesKey).\(key)", "is not a notification content-extension attribute and is ignored")
        }
    }

    mutating func checkRatio(_ ratio: Double, _ path: String, _ value: PropertyListValue) -> Double {
        guard ratio.isFinite, ratio >= 0 else {
            log.error(path, "must be a number of 0 or more; found \(value.found)")
            return 0
        }
        if ratio > 10 { log.warning(path, "makes the view \(ratio) times as tall as it is wide") }
        return ratio
    }

    mutating func flag(_ attributes: PropertyListDictionary, _ key: String) -> Bool {
        let path = "\(Self.attributesKey).\(key)"
        switch attributes[key] {
        case nil: return false
        case .bool(let b)?: return b
        case .string(let text)?:
            switch text.lowercased() {
            case "yes", "true", "1":
                log.warning(path, "is a <string>; accepted as <true/>, but Xcode writes a Boolean")
                return true
            case "no", "false", "0":
                log.warning(path, "is a <string>; accepted as <false/>, but Xcode writes a Boolean")
                return false
            default:
                expected(path, "<true/> or <false/>", .string(text))
                return false
            }
        case .integer(let n)? where n == 0 || n == 1:
            log.warning(path, "is an <integer>; accepted as \(n == 1 ? "<true/>" : "<false/>"), but Xcode writes a Boolean")
            return n == 1
        case let other?:
            expected(path, "<true/> or <false/>", other)
            return false
        }
    }

    mutating func optionalString(_ dict: PropertyListDictionary, _ key: String, at path: String) -> String? {
        guard let value = dict[key] else { return nil }
        if case .string(let s) = value { return s }
        expected(path, "a <string>", value)
        return nil
    }

    mutating func expected(_ path: String, _ what: String, _ value: PropertyListValue) {
        log.error(path, "expected \(what); found \(value.found)")
    }

    /// `$(PRODUCT_MODULE_NAME).Type` → `Module.Type` (any `$(…)` build-setting prefix).
    static func expand(_ principal: String, module: String) -> String {
        var text = principal.trimmingSpaces
        while let start = text.firstRange(of: "$("), let end = text[start.upperBound...].firstIndex(of: ")") {
            text.replaceSubrange(start.lowerBound...end, with: module)
        }
        return text
    }

    /// A bundle name as Xcode turns it into a module name: characters not allowed in an
    /// identifier become `_`, and a leading digit gets a `_` before it.
    static func moduleName(_ bundle: String) -> String {
        var out = ""
        for scalar in bundle.unicodeScalars {
            let ok = scalar == "_" || (scalar.properties.isAlphabetic) || ("0"..."9").contains(scalar)
            out.unicodeScalars.append(ok ? scalar : "_")
        }
        if let first = out.unicodeScalars.first, ("0"..."9").contains(first) { out = "_" + out }
        return out.isEmpty ? "_" : out
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

}
