/// The notification extensions found in a folder, checked together, and routing by category.
///
/// A folder holds `Name.appex/` bundles, each with its `Info.plist` (XML or binary), as Xcode
/// builds them. Loading reads every bundle and reports every problem at once; two content
/// extensions claiming one category, or two service extensions, are errors naming both — never a
/// silent pick.
public struct ExtensionRegistry: Sendable, Hashable {
    /// The extensions, by bundle name.
    public let extensions: [ExtensionManifest]
    /// The service extension, if the app has one.
    public let serviceExtension: ExtensionManifest?
    private let byCategory: [String: Int]
    /// The content extension for every category no other claims (a built-in app's), if any.
    private let everyCategory: Int?

    /// No extensions: every notification gets the default card.
    public static let empty = ExtensionRegistry(checked: [])

    private init(checked: [ExtensionManifest], everyCategory: Int? = nil) {
        extensions = checked
        serviceExtension = checked.first { $0.point == .service }
        var index: [String: Int] = [:]
        for (i, manifest) in checked.enumerated() where manifest.point == .content {
            for category in manifest.categories { index[category] = i }
        }
        byCategory = index
        self.everyCategory = everyCategory
    }

    /// A registry of one content extension that presents every notification of its app, whatever
    /// its category — those the app declares, those registered at run time, and none — in place of
    /// the default card. Its ``ExtensionManifest/categories`` are not looked at.
    ///
    /// Not something an `Info.plist` can ask for (Apple has no such key): it is for a built-in
    /// app whose categories are made as its notifications come, made in code.
    package init(presentingEveryCategory manifest: ExtensionManifest) {
        self.init(checked: [manifest], everyCategory: manifest.point == .content ? 0 : nil)
    }

    /// A registry of these manifests.
    /// - Throws: ``RegistryError`` if two content extensions claim one category or there are two
    ///   service extensions.
    public init(_ manifests: [ExtensionManifest], folder: String = "extensions") throws(RegistryError) {
        let sorted = manifests.sorted { $0.bundleName < $1.bundleName }
        var problems: [Diagnostic] = []
        var owner: [String: ExtensionManifest] = [:]
        var service: ExtensionManifest?
        for manifest in sorted {
            switch manifest.point {
            case .content:
                for category in manifest.categories {
                    if let first = owner[category] {
                        problems.append(
                            Diagnostic(
                                key: nil,
                                "category \"\(category)\" is claimed by both \(first.bundleName).appex and "
                                    + "\(manifest.bundleName).appex; each category belongs to one content extension"))
                    } else {
                        owner[category] = manifest
                    }
                }
            case .service:
                if let first = service {
                    problems.append(
                        Diagnostic(
                            key: nil,
                            "two service extensions, \(first.bundleName).appex and \(manifest.bundleName).appex; "
                                + "an app has at most one"))
                } else {
                    service = manifest
                }
            }
        }
        guard problems.isEmpty else {
            throw RegistryError(failures: [InvalidFileError(file: folder, errors: problems)])
        }
        self.init(checked: sorted)
    }

    /// The content extension that presents `category`, or `nil` for the default card.
    public func contentExtension(for category: String) -> ExtensionManifest? {
        (byCategory[category] ?? everyCategory).map { extensions[$0] }
    }

    /// Loads every `*.appex` bundle in `folder`.
    /// - Throws: ``RegistryError`` listing every bundle that failed and every conflict.
    public static func load(folder: String) throws(RegistryError) -> ExtensionRegistry {
        guard Path.isDirectory(folder) else {
            let missing = !Path.exists(folder)
            throw RegistryError(failures: [
                InvalidFileError(
                    file: folder, isMissing: missing,
                    errors: [Diagnostic(key: nil, missing ? "no such folder" : "is not a folder of Name.appex bundles")])
            ])
        }
        let names: [String]
        do {
            names = try Path.listing(of: folder)
        } catch {
            throw RegistryError(failures: [
                InvalidFileError(file: folder, errors: [Diagnostic(key: nil, "cannot be read: \(LocalFile.text(error))")])
            ])
        }
        var manifests: [ExtensionManifest] = []
        var failures: [InvalidFileError] = []
        for name in names where name.hasSuffix(".appex") {
            do {
                manifests.append(try ManifestFile.load(bundle: Path.join(folder, name)))
            } catch {
                failures.append(error)
            }
        }
        let registry: ExtensionRegistry
        do {
            registry = try ExtensionRegistry(manifests, folder: folder)
        } catch {
            throw RegistryError(failures: failures + error.failures)
        }
        guard failures.isEmpty else { throw RegistryError(failures: failures) }
        return registry
    }
}

/// Extensions that could not be loaded, each with its problems.
public struct RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One entry per bundle that failed, and one for the folder's conflicts.
    public var failures: [InvalidFileError]

    /// An error with these failures.
    public init(failures: [InvalidFileError]) {
        self.failures = failures
    }

    /// Every failure, one per line.
    public var description: String {
        failures.map(\.description).joined(separator: "\n")
    }
}

/// Reading manifests from disk: a `Name.appex` bundle or an `Info.plist` path.
public enum ManifestFile {
    /// The largest `Info.plist` read.
    public static let fileCap = 1 << 20

    /// Loads `bundle/Info.plist`, the bundle being named `Name.appex`.
    public static func load(bundle: String) throws(InvalidFileError) -> ExtensionManifest {
        let plist = Path.join(bundle, "Info.plist")
        guard Path.exists(plist) else {
            throw InvalidFileError(
                file: bundle, errors: [Diagnostic(key: nil, "has no Info.plist; an extension bundle holds one")])
        }
        return try load(plist: plist)
    }

    /// Loads an `Info.plist`; its bundle's name comes from the enclosing `Name.appex` folder, else
    /// from `CFBundleName`.
    public static func load(plist path: String) throws(InvalidFileError) -> ExtensionManifest {
        switch try decode(path: path) {
        case .success(let manifest): return manifest
        case .failure(let failure): throw failure.error
        }
    }

    /// Reads a manifest, keeping the extension point of an invalid one (for `validate`).
    static func decode(path: String) throws(InvalidFileError) -> Result<ExtensionManifest, ManifestFailure> {
        let bytes = try FileBytes.contents(of: path, cap: fileCap, what: "an Info.plist")
        let value: PropertyListValue
        do {
            value = try PropertyListParser.parse(bytes).value
        } catch {
            let diagnostic =
                if let line = error.line {
                    Diagnostic(line: line, column: error.column, error.message)
                } else if let offset = error.offset {
                    Diagnostic(key: nil, "byte \(offset): \(error.message)")
                } else {
                    Diagnostic(key: nil, error.message)
                }
            return .failure(ManifestFailure(point: nil, error: InvalidFileError(file: path, errors: [diagnostic])))
        }
        let folder = Path.lastComponent(Path.directory(of: path))
        let bundleName = folder.hasSuffix(".appex") && folder.count > 6 ? String(folder.dropLast(6)) : nil
        do {
            return .success(try ExtensionManifest.decode(value, bundleName: bundleName, path: path))
        } catch {
            return .failure(
                ManifestFailure(
                    point: error.pointIsKnown ? error.kind : nil,
                    error: InvalidFileError(file: path, errors: error.errors, warnings: error.warnings)))
        }
    }
}

/// An invalid manifest and the extension point it seemed to be for.
struct ManifestFailure: Error {
    var point: ExtensionPoint?
    var error: InvalidFileError
}
