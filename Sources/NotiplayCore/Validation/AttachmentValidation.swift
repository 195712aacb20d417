internal import NotiplaySystem
internal import SystemPackage

/// `validate` on an audio or image file: judged as an attachment would be (``AttachmentValidator``),
/// not read as a payload.
extension FileValidator {
    /// The name endings of the audio and image files notiplay attaches: a file named so is judged
    /// as an attachment even when its content is not one (it is then invalid, saying so).
    static let attachmentSuffixes: Set<String> = [
        "wav", "wave", "aif", "aiff", "aifc", "mp3", "aac", "adts", "m4a", "mp4", "ogg", "oga", "opus", "flac",
        "png", "jpg", "jpeg", "gif", "heic", "heif",
    ]

    /// Whether `path` is an audio or image file: named like one (``attachmentSuffixes``), or a
    /// regular file whose first bytes are a format ``AttachmentValidator`` accepts.
    static func isAttachment(_ path: String) -> Bool {
        let name = Path.lastComponent(path)
        if let dot = name.lastIndex(of: "."), attachmentSuffixes.contains(name[name.index(after: dot)...].lowercased()) {
            return true
        }
        guard let header = header(of: path) else { return false }
        return AudioFormat.sniff(header) != nil || AudioFormat.id3TagLength(header) != nil || ImageFormat.sniff(header) != nil
    }

    /// The first 64 bytes of the regular file at `path`, or `nil`.
    private static func header(of path: String) -> [UInt8]? {
        guard let info = try? Posix.status(of: path), info.type == .regular,
            let file = try? Posix.open(path, .readOnly, options: [.closeOnExec, .noControllingTerminal, .nonBlocking])
        else { return nil }
        defer { Posix.close(file) }
        return try? Posix.read(file, count: 64, at: 0)
    }

    /// The verdict on the audio or image file at `path`, as ``AttachmentValidator`` (iOS's limits)
    /// judges an attachment: a regular local file within its type's limit (audio 5 MB, images
    /// 10 MB) whose first bytes are a format notiplay knows. Details: `media` (`audio` or
    /// `image`), `format` (`aiff`, `png`…), `type` (Apple's type identifier), `bytes`.
    func attachment(_ path: String) -> ValidationResult {
        var details = JSONObject()
        details["media"] = .null
        details["format"] = .null
        details["type"] = .null
        details["bytes"] = .null
        do {
            let attachment = try AttachmentValidator().validate(path)
            switch attachment.kind {
            case .audio(let file):
                details["media"] = .string("audio")
                details["format"] = .string(file.format.rawValue)
            case .image(let format):
                details["media"] = .string("image")
                details["format"] = .string(format.rawValue)
            }
            details["type"] = .string(attachment.type)
            details["bytes"] = .integer(Int64(attachment.byteCount))
            return ValidationResult(file: path, kind: .attachment, errors: [], warnings: [], isMissing: false, details: details)
        } catch {
            // Too large, say, but recognisable: say what it is.
            if let header = Self.header(of: path) {
                if let format = AudioFormat.sniff(header) ?? (AudioFormat.id3TagLength(header) != nil ? .mp3 : nil) {
                    details["media"] = .string("audio")
                    details["format"] = .string(format.rawValue)
                } else if let format = ImageFormat.sniff(header) {
                    details["media"] = .string("image")
                    details["format"] = .string(format.rawValue)
                }
            }
            return ValidationResult(
                file: path, kind: .attachment, errors: [Diagnostic(key: nil, error.reason)], warnings: [],
                isMissing: error.kind == .missingInput, details: details)
        }
    }
}
