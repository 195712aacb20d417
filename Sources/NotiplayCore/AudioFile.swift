internal import NotiplaySystem
internal import SystemPackage

/// A local audio file that passed validation: the only thing the playback engine will open.
///
/// You get one from ``AudioFileValidator/validate(_:)``. It names an existing regular file by its
/// absolute, symlink-free path, small enough for its limit, whose first bytes are a format
/// notiplay plays. Its initializer is internal to this module, so no other code can make one
/// from an unchecked string.
public struct AudioFile: Sendable, Hashable, CustomStringConvertible {
    /// The absolute path with symbolic links resolved; never a URL.
    public let path: String
    /// The path as the user gave it, for messages.
    public let argument: String
    /// The format recognised from the file's content.
    public let format: AudioFormat
    /// The file's size in bytes.
    public let byteCount: Int

    init(path: String, argument: String, format: AudioFormat, byteCount: Int) {
        self.path = path
        self.argument = argument
        self.format = format
        self.byteCount = byteCount
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

    /// The default audio size limit, 5 MB (5,242,880 bytes).
    public static let defaultSizeLimit = 5 * 1024 * 1024

    /// Creates a validator.
    /// - Parameter sizeLimit: The largest file accepted, in bytes.
    public init(sizeLimit: Int = AudioFileValidator.defaultSizeLimit) {
        self.sizeLimit = sizeLimit
    }

    /// Validates `argument`, a path as the user wrote it (relative to the working directory).
    /// - Returns: The validated file.
    /// - Throws: ``NotiplayError`` with kind `.missingInput` or `.badData`.
    public func validate(_ argument: String) throws(NotiplayError) -> AudioFile {
        let file = try LocalFile.inspect(argument, sizeLimit: sizeLimit, limitName: "audio attachments")
        let format = try Self.audioFormat(of: file, argument: argument)
        return AudioFile(path: file.path, argument: argument, format: format, byteCount: file.size)
    }

    /// The audio format of an inspected file, or an error saying why it is not audio.
    static func audioFormat(of file: LocalFile, argument: String) throws(NotiplayError) -> AudioFormat {
        if let tag = AudioFormat.id3TagLength(file.header) {
            // MP3 behind an ID3v2 tag: the first frame must follow the tag.
            let frame = file.bytes(4, at: tag)
            guard frame.count >= 3, AudioFormat.isMPEGAudioFrame(frame[0], frame[1], frame[2]) else {
                throw NotiplayError(.badData, file: argument, "has an ID3 tag but no MP3 audio after it")
            }
            return .mp3
        }
        guard let format = AudioFormat.sniff(file.header) else {
            throw NotiplayError(.badData, file: argument, unrecognised(file.header))
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

/// A local file that exists, is regular, non-empty and within a size limit, with its first bytes
/// read: the shared first step of validating audio files and attachments.
struct LocalFile {
    /// The absolute path with symbolic links resolved.
    let path: String
    let size: Int
    /// Up to the first 64 bytes.
    let header: [UInt8]

    /// Checks `argument` (a path as the user wrote it).
    /// - Parameters:
    ///   - sizeLimit: The largest size accepted.
    ///   - limitName: What the limit is for, in the message (`"audio attachments"`).
    static func inspect(_ argument: String, sizeLimit: Int, limitName: String) throws(NotiplayError) -> LocalFile {
        guard !argument.isEmpty else { throw NotiplayError(.badData, file: "\"\"", "an empty path is not a file") }
        if let scheme = AudioFileValidator.urlScheme(of: argument) {
            throw NotiplayError(
                .badData, file: argument,
                "is a URL (\(scheme)://); notiplay plays local files only — download it first")
        }
        guard !argument.utf8.contains(0) else {
            throw NotiplayError(.badData, file: argument, "the path contains a NUL byte")
        }
        let resolved = try resolve(argument)
        let info: Stat
        do {
            info = try Posix.status(of: resolved)
        } catch {
            throw NotiplayError(.missingInput, file: argument, "cannot be read: \(text(error))")
        }
        guard info.type == .regular else {
            throw NotiplayError(.badData, file: argument, "is \(describe(info.type)), not a regular file")
        }
        let size = Int(info.size)
        guard size > 0 else { throw NotiplayError(.badData, file: argument, "is empty (0 bytes)") }
        guard size <= sizeLimit else {
            throw NotiplayError(
                .badData, file: argument,
                "is \(megabytes(size)); the limit for \(limitName) is \(megabytes(sizeLimit))")
        }
        let header: [UInt8]
        do {
            header = try read(resolved, count: 64, at: 0)
        } catch {
            throw NotiplayError(.badData, file: argument, "cannot be read: \(text(error))")
        }
        // Emptied since it was measured.
        guard !header.isEmpty else { throw NotiplayError(.badData, file: argument, "is empty (0 bytes)") }
        return LocalFile(path: resolved, size: size, header: header)
    }

    /// `count` bytes at `offset` (fewer at the end of the file; none if it cannot be read).
    func bytes(_ count: Int, at offset: Int) -> [UInt8] {
        (try? Self.read(path, count: count, at: offset)) ?? []
    }

    private static func resolve(_ argument: String) throws(NotiplayError) -> String {
        do {
            return try Posix.realPath(argument)
        } catch {
            if error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory {
                throw NotiplayError(.missingInput, file: argument, "no such file")
            }
            throw NotiplayError(.badData, file: argument, "cannot be opened: \(text(error))")
        }
    }

    private static func read(_ path: String, count: Int, at offset: Int) throws(SystemCallError) -> [UInt8] {
        let file = try Posix.open(path, .readOnly, options: [.closeOnExec, .noControllingTerminal, .nonBlocking])
        defer { Posix.close(file) }
        return try Posix.read(file, count: count, at: offset)
    }

    static func describe(_ type: FileType) -> String {
        switch type {
        case .directory: "a directory"
        case .characterSpecial: "a character device"
        case .blockSpecial: "a block device"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        default: "not a regular file"
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        let mb = Double(bytes) / 1_048_576
        return mb >= 10 ? "\(Int(mb.rounded())) MB" : "\((mb * 10).rounded() / 10) MB"
    }

    /// The system's reason for `error`, in lower case as it ends a message.
    static func text(_ error: SystemCallError) -> String {
        error.reason.lowercased()
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    fileprivate var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
}
