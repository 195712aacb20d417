internal import NotiplaySystem
internal import SystemPackage

/// A local audio file that passed validation: the only thing the playback engine will open.
///
/// You get one from ``AudioFileValidator/validate(_:)``. It names an existing regular file by its
/// absolute, symlink-free path, small enough for its limit, whose first bytes are a format
/// notiplay plays. Its initializer is internal to this module, so no other code can make one
/// from an unchecked string. A player opens it with ``open()``, which checks the open file again:
/// the path may name something else by then.
public struct AudioFile: Sendable, Hashable, CustomStringConvertible {
    /// The absolute path with symbolic links resolved; never a URL.
    public let path: String
    /// The path as the user gave it, for messages.
    public let argument: String
    /// The format recognised from the file's content.
    public let format: AudioFormat
    /// The file's size in bytes.
    public let byteCount: Int
    /// The largest size it was allowed, in bytes; ``open()`` checks it again.
    public let sizeLimit: Int

    init(path: String, argument: String, format: AudioFormat, byteCount: Int, sizeLimit: Int) {
        self.path = path
        self.argument = argument
        self.format = format
        self.byteCount = byteCount
        self.sizeLimit = sizeLimit
    }

    /// Opens the file to play it, and checks what it opened as validation did.
    ///
    /// The path is opened once, without following a symbolic link and without waiting, and the
    /// open file is checked (`fstat` on its descriptor, its first bytes read through it): still a
    /// regular file, not empty, within ``sizeLimit``, in a format notiplay plays. A file swapped
    /// for a FIFO, a device or a link since it was validated is refused here, and what was
    /// checked is what plays: the player reads the returned descriptor, never the path.
    /// - Throws: ``NotiplayError`` naming the file (`.missingInput` if it is gone, else
    ///   `.badData`), with the same messages as validation.
    public func open() throws(NotiplayError) -> OpenAudioFile {
        let file = try LocalFile.open(path, argument: argument, sizeLimit: sizeLimit, limitName: "audio attachments")
        let format = try AudioFileValidator.audioFormat(of: file, argument: argument)
        let checked = AudioFile(path: path, argument: argument, format: format, byteCount: file.size, sizeLimit: sizeLimit)
        return OpenAudioFile(file: checked, handle: file.handle)
    }

    /// The file's name, without its folder, safe to print on a terminal.
    public var displayName: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return TerminalText.clean(name)
    }

    public var description: String { displayName }
}

/// Checks that a path names a local audio file notiplay may hand to libmpv.
///
/// Rejected, each with a ``NotiplayError`` that names the file: URLs of any scheme (`http://`,
/// `file://`, `av://`…), missing paths (`.missingInput`), directories, devices, FIFOs and sockets, empty
/// or oversize files, unreadable files, and files whose first bytes are not WAV, AIFF, MP3, AAC,
/// MP4/M4A, Ogg Vorbis, Opus or FLAC (`.badData`). The extension of the name plays no part.
public struct AudioFileValidator: Sendable {
    /// The largest audio file accepted, in bytes: 5 MB by default, as on iOS.
    public var sizeLimit: Int
    /// What the limit is for, as an error over it says (`"audio attachments"`).
    public var limitName: String

    /// The audio attachment limit, 5 MB (5,242,880 bytes): iOS's, so that what plays here plays on
    /// an iPhone.
    public static let defaultSizeLimit = 5 * 1024 * 1024

    /// The limit of a file played by itself (`notiplay play`), 256 MB: not an attachment, so not
    /// held to iOS's limit; libmpv reads it from the disk as it plays, and 256 MB is over 25
    /// minutes of CD-quality WAV.
    public static let playLimit = 256 * 1024 * 1024

    /// Creates a validator.
    /// - Parameters:
    ///   - sizeLimit: The largest file accepted, in bytes.
    ///   - limitName: What the limit is for, as an error over it says.
    public init(sizeLimit: Int = AudioFileValidator.defaultSizeLimit, limitName: String = "audio attachments") {
        self.sizeLimit = sizeLimit
        self.limitName = limitName
    }

    /// Validates `argument`, a path as the user wrote it (relative to the working directory).
    /// - Returns: The validated file.
    /// - Throws: ``NotiplayError`` with kind `.missingInput` or `.badData`.
    public func validate(_ argument: String) throws(NotiplayError) -> AudioFile {
        let file = try LocalFile.inspect(argument, sizeLimit: sizeLimit, limitName: limitName)
        let format = try Self.audioFormat(of: file, argument: argument)
        return AudioFile(path: file.path, argument: argument, format: format, byteCount: file.size, sizeLimit: sizeLimit)
    }

    /// The audio format of an inspected file, or an error saying why it is not audio.
    static func audioFormat(of file: LocalFile, argument: String) throws(NotiplayError) -> AudioFormat {
        try audioFormat(header: file.header, bytes: file.bytes, argument: argument)
    }

    /// The audio format of content whose first bytes are `header` (`bytes(count, offset)` reads
    /// more of it), or an error about `argument` saying why it is not audio.
    static func audioFormat(
        header: [UInt8], bytes: (_ count: Int, _ offset: Int) -> [UInt8], argument: String
    ) throws(NotiplayError) -> AudioFormat {
        if let tag = AudioFormat.id3TagLength(header) {
            // MP3 behind an ID3v2 tag: the first frame must follow the tag.
            let frame = bytes(4, tag)
            guard frame.count >= 3, AudioFormat.isMPEGAudioFrame(frame[0], frame[1], frame[2]) else {
                throw NotiplayError(.badData, file: argument, "has an ID3 tag but no MP3 audio after it")
            }
            return .mp3
        }
        guard let format = AudioFormat.sniff(header) else {
            throw NotiplayError(.badData, file: argument, unrecognised(header))
        }
        return format
    }

    /// The scheme if `argument` looks like a URL (`scheme://…`), else `nil`.
    static func urlScheme(of argument: String) -> String? {
        let scalars = Array(argument.unicodeScalars)
        guard let colon = scalars.indices.first(where: { i in
            scalars[i] == ":" && i + 2 < scalars.count && scalars[i + 1] == "/" && scalars[i + 2] == "/"
        }) else { return nil }
        let scheme = String(String.UnicodeScalarView(scalars[..<colon]))
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
            scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return TerminalText.clean(String(scheme))
    }

    static func unrecognised(_ header: [UInt8]) -> String {
        let printable = header.prefix(64).allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        let what = printable ? "text, not audio" : "not a recognised audio format"
        return "is \(what) (expected WAV, AIFF, MP3, AAC, M4A, Ogg Vorbis, Opus or FLAC content)"
    }

    static func megabytes(_ bytes: Int) -> String { LocalFile.megabytes(bytes) }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    fileprivate var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
}
