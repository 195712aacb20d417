import NotiplayCore
import NotiplayViews
/// The Swift types that implement content and service extensions, by the name their
/// `Info.plist` gives.
///
/// ```swift
/// var types = ExtensionTypes()
/// types.register(NotificationViewController.self, as: "NagMe.NotificationViewController")
/// types.registerService(NotificationService.self, as: "NagMeService.NotificationService")
/// ```
///
/// A manifest's ``ExtensionManifest/typeName`` is looked up as written; failing that, by its last
/// component (`NotificationViewController`) when exactly one registered type of that kind has
/// that name.
///
/// Built in: ``DefaultContentExtension`` (the default card) and ``MediaAttachmentService`` (fetches
/// the media a payload's `media-url` names), each under its `typeName`.
///
/// Let the module that holds the types register them (`public enum NagMeExtensions { public static
/// func register(in types: inout ExtensionTypes) }`), so that they can stay internal:
/// <doc:RegisteringExtensions>.
public struct ExtensionTypes: Sendable {
    /// Makes a new instance of a content extension.
    public typealias Factory = @MainActor @Sendable () -> any UNNotificationContentExtension & TerminalViewController
    /// Makes a new instance of a service extension.
    public typealias ServiceFactory = @MainActor @Sendable () -> UNNotificationServiceExtension

    private var factories: [String: Factory] = [:]
    private var serviceFactories: [String: ServiceFactory] = [:]

    /// The built-in types only: ``DefaultContentExtension`` and ``MediaAttachmentService``.
    public init() {
        register(DefaultContentExtension.self, as: DefaultContentExtension.typeName)
        registerService(MediaAttachmentService.self, as: MediaAttachmentService.typeName)
    }

    /// Registers the content extension `type` under `name` (the manifest's principal class, or
    /// its bundle's name).
    public mutating func register<T: TerminalViewController & UNNotificationContentExtension>(_ type: T.Type, as name: String) {
        factories[name] = { T() }
    }

    /// Registers a content extension under `name`, each instance made by `factory`: for a type
    /// that takes configuration when it is made (a folder, a setting its tool read).
    public mutating func register(as name: String, factory: @escaping Factory) {
        factories[name] = factory
    }

    /// Registers the service extension `type` under `name` (the manifest's principal class, or
    /// its bundle's name). Registering under ``MediaAttachmentService/typeName`` replaces the
    /// built-in media fetcher.
    public mutating func registerService<T: UNNotificationServiceExtension>(_ type: T.Type, as name: String) {
        serviceFactories[name] = { T() }
    }

    /// The registered content extension names, sorted.
    public var names: [String] { factories.keys.sorted() }

    /// The registered service extension names, sorted.
    public var serviceNames: [String] { serviceFactories.keys.sorted() }

    /// The content extension factory for `name`, as written or by its last component when that is
    /// unambiguous.
    public func factory(for name: String) -> Factory? {
        Self.lookup(name, in: factories)
    }

    /// The service extension factory for `name`, as written or by its last component when that is
    /// unambiguous.
    public func serviceFactory(for name: String) -> ServiceFactory? {
        Self.lookup(name, in: serviceFactories)
    }

    /// Checks that every extension in `registry` names a registered type of its kind.
    /// - Throws: ``RegistryError`` naming each manifest whose class is not registered, by the
    ///   `Info.plist` key that names it.
    public func check(_ registry: ExtensionRegistry) throws(RegistryError) {
        var failures: [InvalidFileError] = []
        for manifest in registry.extensions {
            let found: Bool
            let known: [String]
            let otherKind: Bool
            switch manifest.point {
            case .content:
                found = factory(for: manifest.typeName) != nil
                known = names.filter { $0 != DefaultContentExtension.typeName }
                otherKind = serviceFactory(for: manifest.typeName) != nil
            case .service:
                found = serviceFactory(for: manifest.typeName) != nil
                known = serviceNames
                otherKind = factory(for: manifest.typeName) != nil
            }
            guard !found else { continue }
            let key = manifest.principalClass != nil ? "NSExtension.NSExtensionPrincipalClass" : "NSExtension.NSExtensionMainStoryboard"
            let kind = manifest.point == .content ? "content" : "service"
            let typeKind = manifest.point == .content ? "extension type" : "service extension type"
            let reason =
                otherKind
                ? "names \(manifest.typeName), which is registered as a "
                    + "\(manifest.point == .content ? "service" : "content") extension, not a \(kind) extension"
                : "names \(manifest.typeName), which is not a registered \(typeKind) "
                    + (known.isEmpty ? "(none are registered)" : "(registered: \(known.joined(separator: ", ")))")
            failures.append(InvalidFileError(file: manifest.path, errors: [Diagnostic(key: key, reason)]))
        }
        if !failures.isEmpty { throw RegistryError(failures: failures) }
    }

    private static func lookup<F>(_ name: String, in table: [String: F]) -> F? {
        if let exact = table[name] { return exact }
        let last = lastComponent(name)
        let matches = table.filter { lastComponent($0.key) == last }
        return matches.count == 1 ? matches.first?.value : nil
    }

    static func lastComponent(_ name: String) -> Substring {
        name.split(separator: ".").last ?? Substring(name)
    }
}
