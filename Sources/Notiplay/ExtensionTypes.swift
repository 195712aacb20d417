/// The Swift types that implement content extensions, by the name their `Info.plist` gives.
///
/// ```swift
/// var types = ExtensionTypes()
/// types.register(NotificationViewController.self, as: "NagMe.NotificationViewController")
/// ```
///
/// A manifest's ``ExtensionManifest/typeName`` is looked up as written; failing that, by its last
/// component (`NotificationViewController`) when exactly one registered type has that name.
public struct ExtensionTypes: Sendable {
    /// Makes a new instance of an extension.
    public typealias Factory = @MainActor @Sendable () -> any UNNotificationContentExtension & TerminalViewController

    private var factories: [String: Factory] = [:]

    /// The built-in types only (the default card).
    public init() {
        register(DefaultContentExtension.self, as: DefaultContentExtension.typeName)
    }

    /// Registers `type` under `name` (the manifest's principal class, or its bundle's name).
    public mutating func register<T: TerminalViewController & UNNotificationContentExtension>(_ type: T.Type, as name: String) {
        factories[name] = { T() }
    }

    /// The registered names, sorted.
    public var names: [String] { factories.keys.sorted() }

    /// The factory for `name`, as written or by its last component when that is unambiguous.
    public func factory(for name: String) -> Factory? {
        if let exact = factories[name] { return exact }
        let last = Self.lastComponent(name)
        let matches = factories.filter { Self.lastComponent($0.key) == last }
        return matches.count == 1 ? matches.first?.value : nil
    }

    /// Checks that every content extension in `registry` names a registered type.
    /// - Throws: ``RegistryError`` naming each manifest whose class is not registered.
    public func check(_ registry: ExtensionRegistry) throws(RegistryError) {
        var failures: [InvalidFileError] = []
        for manifest in registry.extensions where manifest.point == .content && factory(for: manifest.typeName) == nil {
            let key = manifest.principalClass != nil ? "NSExtension.NSExtensionPrincipalClass" : "NSExtension.NSExtensionMainStoryboard"
            let known = names.filter { $0 != DefaultContentExtension.typeName }
            failures.append(
                InvalidFileError(
                    file: manifest.path,
                    errors: [
                        Diagnostic(
                            key: key,
                            "names \(manifest.typeName), which is not a registered extension type "
                                + (known.isEmpty ? "(none are registered)" : "(registered: \(known.joined(separator: ", ")))"))
                    ]))
        }
        if !failures.isEmpty { throw RegistryError(failures: failures) }
    }

    static func lastComponent(_ name: String) -> Substring {
        name.split(separator: ".").last ?? Substring(name)
    }
}
