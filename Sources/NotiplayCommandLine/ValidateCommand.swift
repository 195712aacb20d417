import ArgumentParser
import NotiplayCore
import SystemPackage

/// `notiplay validate`: judges payloads, extension manifests, app files and playback scripts.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check payloads, extension Info.plists, app files, playback scripts and notiplay.conf.",
        discussion: """
            Each file is judged by its name, then its content: *.apns and JSON with "aps" are \
            payloads; *.app.json and JSON with "name" and no "aps" are app files; Info.plist, \
            *.plist, Name.appex and other folders are extension manifests; *.playback files \
            are playback scripts, whose steps are parsed and whose app, extensions folder, \
            payloads and attachments must exist; audio and image files (by name or first \
            bytes) are checked as attachments: a known format, within 5 MB for audio and 10 MB \
            for images; *.conf files are the server's configuration (notiplay.conf), each \
            problem printed as FILE:LINE:COLUMN: message; anything else is judged as a payload.

            Prints valid or invalid with the reasons (by line and column in a script), per \
            file; an invalid file's verdict says what it was taken for and what told that. \
            Exit status 65 if any file is invalid, 66 if one is missing.
            """)

    @Argument(
        help: ArgumentHelp("A payload, Info.plist, .appex folder, app file, .playback script, attachment or .conf file.", valueName: "file"),
        completion: .file())
    var files: [String]

    @Flag(help: "One JSON object per file and line: file, kind, valid, errors, warnings…")
    var json = false

    @Flag(help: "Accept payloads above APNs' 4096 bytes.")
    var noPayloadLimit = false

    func run() throws {
        let validator = FileValidator(payloads: PayloadDecoder(sizeLimit: noPayloadLimit ? nil : PayloadDecoder.apnsLimit))
        var output = BufferedOutput(fd: .standardOutput)
        var anyInvalid = false
        var anyMissing = false
        for file in files {
            if ConfigValidation.isConfig(file) {
                let verdict = ConfigValidation.validate(file)
                if !verdict.valid {
                    if verdict.missing { anyMissing = true } else { anyInvalid = true }
                }
                output.append(json ? verdict.json.jsonText + "\n" : verdict.text)
                continue
            }
            let result = (ScriptValidation.isScript(file) ? ScriptValidation.validate(file) : validator.validate(file))
                .withCommandLineHints
            if !result.valid {
                if result.isMissing { anyMissing = true } else { anyInvalid = true }
            }
            if json {
                output.append(JSONValue.object(result.jsonObject).jsonText)
                output.append("\n")
            } else {
                output.append(Self.text(result))
            }
        }
        output.flush()
        if anyInvalid { throw ExitCode(ExitStatus.badData) }
        if anyMissing { throw ExitCode(ExitStatus.missingInput) }
    }

    /// The human form: a verdict line, then one indented line per error and warning. An invalid
    /// file's verdict says what it was taken for and what told that (its name, its content…).
    static func text(_ result: ValidationResult) -> String {
        var line = "\(TerminalText.visible(result.file)): \(result.valid ? "valid" : "invalid") \(kindName(result))"
        if result.valid, !result.details.memberNames.isEmpty {
            line += " (" + summary(result) + ")"
        } else if !result.valid {
            line += " (" + takenFor(result.basis) + ")"
        }
        var text = line + "\n"
        for error in result.errors { text += "  error: \(error)\n" }
        for warning in result.warnings { text += "  warning: \(warning)\n" }
        return text
    }

    /// The kind of file, as the verdict names it.
    static func kindName(_ result: ValidationResult) -> String {
        switch result.kind {
        case .payload: return "payload"
        case .contentExtension where result.pointUnknown:
            // Not read far enough to tell a content extension from a service one.
            return result.basis == .folder || Path.lastComponent(result.file).hasSuffix(".appex")
                ? "extension bundle" : "extension manifest"
        case .contentExtension: return "content extension"
        case .serviceExtension: return "service extension"
        case .app: return "app file"
        case .script: return "playback script"
        case .attachment: return (result.details["media"]?.stringValue).map { "\($0) attachment" } ?? "attachment"
        }
    }

    /// Why a file was judged as its kind, after "invalid KIND".
    static func takenFor(_ basis: ValidationBasis) -> String {
        switch basis {
        case .name: "taken for one by its name"
        case .content: "taken for one by its content"
        case .folder: "taken for one as a folder"
        case .fallback: "taken for one: neither its name nor its content says otherwise"
        }
    }

    static func summary(_ result: ValidationResult) -> String {
        let d = result.details
        func quoted(_ key: String) -> String? {
            guard let s = d[key]?.stringValue, !s.isEmpty else { return nil }
            return "\"\(TerminalText.clean(s))\""
        }
        func list(_ key: String) -> String {
            (d[key]?.arrayValue ?? []).compactMap(\.stringValue).map { TerminalText.clean($0) }.joined(separator: ", ")
        }
        var parts: [String] = []
        switch result.kind {
        case .payload:
            parts.append(quoted("category").map { "category \($0)" } ?? "no category")
            if let thread = quoted("threadIdentifier") { parts.append("thread \(thread)") }
            if d["mutableContent"]?.boolValue == true { parts.append("mutable content") }
            if let bytes = d["bytes"]?.intValue { parts.append("\(bytes) bytes") }
        case .contentExtension:
            parts.append("\(quoted("principalClass") ?? "?") for \(list("categories"))")
            if let ratio = d["contentSizeRatio"]?.doubleValue { parts.append("ratio \(ratio)") }
            if d["defaultContentHidden"]?.boolValue == true { parts.append("default content hidden") }
            if d["overridesDefaultTitle"]?.boolValue == true { parts.append("overrides title") }
            if d["userInteractionEnabled"]?.boolValue == true { parts.append("interactive") }
        case .serviceExtension:
            parts.append(quoted("principalClass") ?? "?")
        case .app:
            parts.append(quoted("name") ?? "?")
            let categories = list("categories")
            parts.append(categories.isEmpty ? "no categories" : "categories \(categories)")
        case .script:
            if let steps = d["steps"]?.intValue { parts.append(steps == 1 ? "1 step" : "\(steps) steps") }
        case .attachment:
            if let format = d["format"]?.stringValue { parts.append(format) }
            if let bytes = d["bytes"]?.intValue { parts.append("\(bytes) bytes") }
        }
        return parts.joined(separator: ", ")
    }
}

/// Collects output and writes it in large blocks (validate may judge thousands of files).
struct BufferedOutput {
    let fd: FileDescriptor
    private var buffer = ""

    init(fd: FileDescriptor) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    mutating func append(_ text: String) {
        buffer += text
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        _ = try? fd.writeAll(buffer.utf8)
        buffer.removeAll(keepingCapacity: true)
    }
}
