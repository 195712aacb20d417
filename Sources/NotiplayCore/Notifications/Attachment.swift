#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A file attached to a notification (Apple: `UNNotificationAttachment`).
///
/// You can only get one that passed validation: it names a regular local file within its type's
/// size limit whose first bytes are a format notiplay knows. Audio attachments play; a PNG or
/// JPEG attachment is shown by the default card, and by an extension's `UIImageView`.
public struct UNNotificationAttachment: Sendable, Hashable {
    /// The attachment's identifier (its file name when none was given).
    public let identifier: String
    /// The file, as an absolute `file://` URL with symbolic links resolved.
    public let url: URL
    /// The type identifier of the content, as Apple names it (`public.mp3`, `com.apple.m4a-audio`…).
    public let type: String
    /// What the attachment is, found from its content.
    public let kind: Kind
    /// The file's size in bytes.
    public let byteCount: Int

    /// What an attachment is.
    public enum Kind: Sendable, Hashable {
        /// Audio the engine plays.
        case audio(AudioFile)
        /// A still image (PNG and JPEG are drawn where the terminal draws pictures; a stand-in
        /// with its name and size elsewhere).
        case image(ImageFormat)
    }

    /// The audio file to play, for an audio attachment.
    public var audioFile: AudioFile? {
        if case .audio(let file) = kind { file } else { nil }
    }

    /// Validates the file at `url` and makes an attachment of it (Apple:
    /// `init(identifier:url:options:)`).
    /// - Parameters:
    ///   - identifier: The identifier; empty means the file's name.
    ///   - url: A `file://` URL.
    ///   - limits: The size limits by type.
    /// - Throws: ``NotiplayError`` naming the file: missing (`.missingInput`), not a regular file,
    ///   too large for its type, or of a format notiplay does not know (`.badData`).
    public init(identifier: String, url: URL, limits: AttachmentLimits = .default) throws(NotiplayError) {
        guard url.isFileURL else {
            throw NotiplayError(
                .badData, file: url.absoluteString, "is not a file URL; attachments are local files")
        }
        self = try AttachmentValidator(limits: limits).validate(url.path, identifier: identifier)
    }

    init(identifier: String, path: String, type: String, kind: Kind, byteCount: Int) {
        self.identifier = identifier
        self.url = URL(fileURLWithPath: path)
        self.type = type
        self.kind = kind
        self.byteCount = byteCount
    }

    /// The file's name, safe to print on a terminal.
    public var displayName: String {
        TerminalText.clean(url.lastPathComponent)
    }
}

/// An image format recognised from a file's first bytes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case png, jpeg, gif, heic

    /// Apple's type identifier.
    public var typeIdentifier: String {
        switch self {
        case .png: "public.png"
        case .jpeg: "public.jpeg"
        case .gif: "com.compuserve.gif"
        case .heic: "public.heic"
        }
    }

    /// Recognises an image from the first bytes of a file.
    public static func sniff(_ header: [UInt8]) -> ImageFormat? {
        if header.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if header.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if header.starts(with: Array("GIF87a".utf8)) || header.starts(with: Array("GIF89a".utf8)) { return .gif }
        if header.count >= 12, Array(header[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: header[8..<12], as: UTF8.self)
            if ["heic", "heix", "mif1", "msf1"].contains(brand) { return .heic }
        }
        return nil
    }
}

extension AudioFormat {
    /// Apple's type identifier for the format (`org.xiph.*` for the formats iOS does not name).
    public var typeIdentifier: String {
        switch self {
        case .wav: "com.microsoft.waveform-audio"
        case .aiff: "public.aiff-audio"
        case .mp3: "public.mp3"
        case .aac: "public.aac-audio"
        case .m4a: "com.apple.m4a-audio"
        case .vorbis: "org.xiph.ogg-vorbis"
        case .opus: "org.xiph.opus"
        case .flac: "org.xiph.flac"
        }
    }
}

/// The largest attachment accepted for each type, in bytes (iOS's limits by default).
public struct AttachmentLimits: Sendable, Hashable {
    /// Audio: 5 MB by default.
    public var audio: Int
    /// Images: 10 MB by default.
    public var image: Int

    /// iOS's limits: audio 5 MB, images 10 MB.
    public static let `default` = AttachmentLimits(audio: 5 * 1_048_576, image: 10 * 1_048_576)

    /// Limits with each size given.
    public init(audio: Int, image: Int) {
        self.audio = audio
        self.image = image
    }
}

/// Checks attachment files: regular local files, within their type's size limit, recognised by
/// their content (never by their name).
public struct AttachmentValidator: Sendable {
    /// The size limits by type.
    public var limits: AttachmentLimits

    /// Creates a validator with these limits.
    public init(limits: AttachmentLimits = .default) {
        self.limits = limits
    }

    /// Validates the file at `argument` (a path as the user wrote it).
    /// - Parameter identifier: The attachment's identifier; empty means the file's name.
    /// - Throws: ``NotiplayError`` naming the file.
    public func validate(_ argument: String, identifier: String = "") throws(NotiplayError) -> UNNotificationAttachment {
        // Held to its own type's limit once its content is known: the message names that limit.
        let file = try LocalFile.inspect(argument, sizeLimit: Int.max, limitName: "attachments")
        let name = identifier.isEmpty ? String(file.path.split(separator: "/").last ?? "") : identifier
        switch try content(size: file.size, header: file.header, bytes: file.bytes, argument: argument) {
        case .image(let image):
            return UNNotificationAttachment(
                identifier: name, path: file.path, type: image.typeIdentifier, kind: .image(image), byteCount: file.size)
        case .audio(let format):
            let audio = AudioFile(
                path: file.path, argument: argument, format: format, byteCount: file.size, sizeLimit: limits.audio)
            return UNNotificationAttachment(
                identifier: name, path: file.path, type: format.typeIdentifier, kind: .audio(audio), byteCount: file.size)
        }
    }

    /// Checks an attachment's content received as `bytes` (from a client that read its file), as
    /// ``validate(_:identifier:)`` checks a file: not empty, an image or audio format notiplay
    /// knows, within its type's limit. `name` names it in the error.
    /// - Throws: ``NotiplayError`` naming `name`, with kind `.badData`.
    public func check(bytes: [UInt8], name: String) throws(NotiplayError) -> AttachmentContent {
        guard !bytes.isEmpty else { throw NotiplayError(.badData, file: name, "is empty (0 bytes)") }
        let read = { (count: Int, offset: Int) -> [UInt8] in
            guard offset < bytes.count else { return [] }
            return Array(bytes[offset..<min(bytes.count, offset + count)])
        }
        return try content(size: bytes.count, header: Array(bytes.prefix(64)), bytes: read, argument: name)
    }

    /// What content of `size` bytes starting with `header` is, within its type's limit.
    private func content(
        size: Int, header: [UInt8], bytes: (Int, Int) -> [UInt8], argument: String
    ) throws(NotiplayError) -> AttachmentContent {
        if let image = ImageFormat.sniff(header) {
            try check(size, argument, limit: limits.image, what: "image")
            return .image(image)
        }
        let format: AudioFormat
        do {
            format = try AudioFileValidator.audioFormat(header: header, bytes: bytes, argument: argument)
        } catch {
            throw NotiplayError(
                .badData, file: argument,
                error.reason.replacing("(expected WAV", with: "(expected PNG, JPEG, GIF or HEIC, or WAV"))
        }
        try check(size, argument, limit: limits.audio, what: "audio")
        return .audio(format)
    }

    private func check(_ size: Int, _ argument: String, limit: Int, what: String) throws(NotiplayError) {
        guard size <= limit else {
            throw NotiplayError(
                .badData, file: argument,
                "is \(LocalFile.megabytes(size)); the limit for \(what) attachments is \(LocalFile.megabytes(limit))")
        }
    }
}

/// What an attachment's content is, recognised from its bytes.
public enum AttachmentContent: Sendable, Hashable {
    /// A still image.
    case image(ImageFormat)
    /// Audio.
    case audio(AudioFormat)

    /// Apple's type identifier for it (`public.png`, `com.microsoft.waveform-audio`).
    public var typeIdentifier: String {
        switch self {
        case .image(let image): image.typeIdentifier
        case .audio(let audio): audio.typeIdentifier
        }
    }
}
