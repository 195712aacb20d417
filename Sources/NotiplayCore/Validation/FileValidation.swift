/// What kind of file a ``FileValidator`` judged.
public enum ValidatedKind: String, Sendable, Hashable {
    case payload
    case contentExtension = "content-extension"
    case serviceExtension = "service-extension"
    case app
    case script
    /// An audio or image file, judged as an attachment.
    case attachment
}

/// What told ``FileValidator`` the kind of a file.
public enum ValidationBasis: String, Sendable, Hashable {
    /// Its name: `*.apns`, `*.app.json`, `*.plist`, `Info.plist`, `Name.appex`, `*.playback`,
    /// `*.wav`…
    case name
    /// Its content: JSON with `aps`, or with `name` or `categories` and no `aps`; a property
    /// list's first bytes; an audio or image file's first bytes.
    case content
    /// It is a folder: an extension bundle holding an `Info.plist`.
    case folder
    /// Neither its name nor its content: a file that is not JSON (or not an object) is judged as
    /// a payload, the commonest input.
    case fallback
}

/// The verdict on one file: its kind, valid or not, why, and what it declares.
public struct ValidationResult: Sendable, Equatable {
    /// The file as named on the command line.
    public var file: String
    /// What the file is.
    public var kind: ValidatedKind
    /// What told the kind: the file's name, its content, its being a folder, or nothing (the
    /// fallback).
    public var basis: ValidationBasis
    /// For an extension manifest that could not be read far enough to tell its extension point:
    /// ``kind`` is then ``ValidatedKind/contentExtension`` as a default, not a finding.
    public var pointUnknown = false
    /// Whether it may be used.
    public var valid: Bool { errors.isEmpty }
    /// Why not.
    public var errors: [Diagnostic]
    /// Doubts that do not make it invalid.
    public var warnings: [Diagnostic]
    /// Whether the file does not exist.
    public var isMissing: Bool
    /// What the file declares, by kind, in ``jsonObject``'s field order: for a payload
    /// `category`, `threadIdentifier`, `mutableContent`, `bytes`; for a content extension
    /// `categories`, `contentSizeRatio`, `defaultContentHidden`, `overridesDefaultTitle`,
    /// `userInteractionEnabled` (and `name`, `principalClass`); for an app `name`, `categories`;
    /// for an attachment `media`, `format`, `type`, `bytes`.
    public var details: JSONObject

    /// A verdict on `file` (for validators outside this module, such as the playback scripts' one).
    public init(
        file: String, kind: ValidatedKind, basis: ValidationBasis = .name, errors: [Diagnostic], warnings: [Diagnostic],
        isMissing: Bool, details: JSONObject
    ) {
        self.file = file
        self.kind = kind
        self.basis = basis
        self.errors = errors
        self.warnings = warnings
        self.isMissing = isMissing
        self.details = details
    }

    /// The verdict as one JSON object: `file`, `kind`, `judgedBy` (the ``basis``), `valid`,
    /// `errors` and `warnings` (as strings), then the ``details``.
    public var jsonObject: JSONObject {
        var object = JSONObject()
        object["file"] = .string(file)
        object["kind"] = .string(kind.rawValue)
        object["judgedBy"] = .string(basis.rawValue)
        object["valid"] = .bool(valid)
        object["errors"] = .array(errors.map { .string($0.plainDescription) })
        object["warnings"] = .array(warnings.map { .string($0.plainDescription) })
        for (key, value) in details { object[key] = value }
        return object
    }
}

extension ValidationResult {
    /// The same verdict, with `basis` as what told the kind.
    func judged(by basis: ValidationBasis) -> ValidationResult {
        var result = self
        result.basis = basis
        return result
    }
}

extension Diagnostic {
    /// The description without terminal cleaning, for JSON (whose escaping makes it safe).
    var plainDescription: String {
        if let key { return "\(key): \(message)" }
        if let line, let column { return "line \(line), column \(column): \(message)" }
        return message
    }
}

/// Judges payloads, extension manifests and app files, telling them apart by name and content
/// (and saying which told it: ``ValidationResult/basis``).
///
/// - By name: `*.apns` is a payload, `*.app.json` an app file, `*.plist` (`Info.plist`) an
///   extension manifest and a `Name.appex` folder an extension bundle. `*.playback`: a script,
///   which this core validator does not read (the language lives in `NotiplayScript`, whose
///   parser reads scripts). A file named like audio or an image (`*.aif`, `*.png`…) is judged as
///   an attachment.
/// - Any other folder: an extension bundle, which must hold an `Info.plist`.
/// - By content: a file starting like audio or an image is an attachment, one starting like a
///   property list a manifest; a JSON object with `aps` is a payload, one with `name` or
///   `categories` and no `aps` an app file.
/// - Anything else (not JSON, or an object with none of those keys) is judged as a payload.
public struct FileValidator: Sendable {
    /// The payload decoder (its size limit applies).
    public var payloads: PayloadDecoder

    /// A validator with this payload decoder.
    public init(payloads: PayloadDecoder = PayloadDecoder()) {
        self.payloads = payloads
    }

    /// Judges the file at `path`.
    public func validate(_ path: String) -> ValidationResult {
        let name = Path.lastComponent(path)
        if name.hasSuffix(".appex") { return manifest(Path.join(path, "Info.plist"), shownAs: path).judged(by: .name) }
        if Path.isDirectory(path) { return manifest(Path.join(path, "Info.plist"), shownAs: path).judged(by: .folder) }
        if name.hasSuffix(".plist") { return manifest(path, shownAs: path).judged(by: .name) }
        if name.hasSuffix(".playback") {
            return ValidationResult(
                file: path, kind: .script,
                errors: [Diagnostic(key: nil, "playback scripts are checked with NotiplayScript's ScriptParser, not here")],
                warnings: [], isMissing: !Path.exists(path), details: JSONObject())
        }
        if name.hasSuffix(".apns") { return payload(path).judged(by: .name) }
        if name.hasSuffix(".app.json") { return app(path).judged(by: .name) }
        if Self.isAttachment(path) { return attachment(path).judged(by: Self.isNamedAsAttachment(name) ? .name : .content) }
        // Anything else: look at the content.
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.contents(of: path, cap: PayloadDecoder.fileCap, what: "a payload")
        } catch {
            return failure(path, .payload, error).judged(by: .fallback)
        }
        let start = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        if bytes.starts(with: Array("bplist".utf8)) || start.starts(with: Array("<".utf8)) {
            return manifest(path, shownAs: path).judged(by: .content)
        }
        let object = try? JSONParser.parse(bytes).objectValue
        if let object, object["aps"] == nil, object["name"] != nil || object["categories"] != nil {
            return app(path).judged(by: .content)
        }
        return payload(path, bytes: bytes).judged(by: object?["aps"] != nil ? .content : .fallback)
    }

    /// Whether a file named `name` is an audio or image file by its name (``attachmentSuffixes``).
    static func isNamedAsAttachment(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return attachmentSuffixes.contains(name[name.index(after: dot)...].lowercased())
    }

    func payload(_ path: String, bytes: [UInt8]? = nil) -> ValidationResult {
        var details = JSONObject()
        details["category"] = .null
        details["threadIdentifier"] = .null
        details["mutableContent"] = .null
        details["bytes"] = .null
        do throws(InvalidFileError) {
            let data: [UInt8]
            if let bytes {
                data = bytes
            } else {
                data = try FileBytes.contents(of: path, cap: PayloadDecoder.fileCap, what: "a payload")
            }
            details["bytes"] = .integer(Int64(PayloadDecoder.compactSize(data)))
            let payload: APNsPayload
            do {
                payload = try payloads.decode(data)
            } catch {
                return ValidationResult(
                    file: path, kind: .payload, errors: error.errors, warnings: error.warnings, isMissing: false,
                    details: details)
            }
            details["category"] = .string(payload.content.categoryIdentifier)
            details["threadIdentifier"] = .string(payload.content.threadIdentifier)
            details["mutableContent"] = .bool(payload.mutableContent)
            return ValidationResult(
                file: path, kind: .payload, errors: [], warnings: payload.warnings, isMissing: false, details: details)
        } catch {
            var result = failure(path, .payload, error)
            result.details = details
            return result
        }
    }

    func manifest(_ plist: String, shownAs path: String) -> ValidationResult {
        let outcome: Result<ExtensionManifest, ManifestFailure>
        do {
            outcome = try ManifestFile.decode(path: plist)
        } catch {
            var failed = failure(path, .contentExtension, error)
            failed.pointUnknown = true
            if plist != path, !Path.exists(plist), Path.exists(path) {
                failed.isMissing = false
                failed.errors = [Diagnostic(key: nil, "has no Info.plist; an extension bundle holds one")]
            }
            return failed
        }
        switch outcome {
        case .success(let manifest):
            let kind: ValidatedKind = manifest.point == .content ? .contentExtension : .serviceExtension
            return ValidationResult(
                file: path, kind: kind, errors: [], warnings: manifest.warnings, isMissing: false,
                details: Self.details(manifest))
        case .failure(let failed):
            let kind: ValidatedKind = failed.point == .service ? .serviceExtension : .contentExtension
            var result = ValidationResult(
                file: path, kind: kind, errors: failed.error.errors, warnings: failed.error.warnings,
                isMissing: false, details: JSONObject())
            result.pointUnknown = failed.point == nil
            return result
        }
    }

    static func details(_ manifest: ExtensionManifest) -> JSONObject {
        var details = JSONObject()
        details["name"] = .string(manifest.bundleName)
        details["principalClass"] = .string(manifest.typeName)
        if manifest.point == .content {
            details["categories"] = .array(manifest.categories.map(JSONValue.string))
            details["contentSizeRatio"] = .number(manifest.initialContentSizeRatio)
            details["defaultContentHidden"] = .bool(manifest.defaultContentHidden)
            details["overridesDefaultTitle"] = .bool(manifest.overridesDefaultTitle)
            details["userInteractionEnabled"] = .bool(manifest.userInteractionEnabled)
        }
        return details
    }

    func app(_ path: String) -> ValidationResult {
        do {
            let app = try AppDefinition.decodeFile(path)
            var details = JSONObject()
            details["name"] = .string(app.name)
            details["categories"] = .array(app.categories.map { .string($0.identifier) })
            details["extensions"] = app.extensionsDirectory.map(JSONValue.string) ?? .null
            return ValidationResult(
                file: path, kind: .app, errors: [], warnings: app.warnings, isMissing: false, details: details)
        } catch {
            return failure(path, .app, error)
        }
    }

    func failure(_ path: String, _ kind: ValidatedKind, _ error: InvalidFileError) -> ValidationResult {
        ValidationResult(
            file: path, kind: kind, errors: error.errors, warnings: error.warnings, isMissing: error.isMissing,
            details: JSONObject())
    }
}
