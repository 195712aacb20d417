#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
/// `file://`, `av://`…), missing paths (exit 66), directories, devices, FIFOs and sockets, empty
/// or oversize files, unreadable files, and files whose first bytes are not WAV, AIFF, MP3, AAC,
/// MP4/M4A, Ogg Vorbis, Opus or FLAC (exit 65). The extension of the name plays no part.
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
        guard !argument.isEmpty else { throw NotiplayError(.badData, file: "\"\"", "an empty path is not a file") }
        if let scheme = Self.urlScheme(of: argument) {
            throw NotiplayError(
                .badData, file: argument,
                "is a URL (\(scheme)://); notiplay plays local files only — download it first")
        }
        guard !argument.utf8.contains(0) else {
            throw NotiplayError(.badData, file: argument, "the path contains a NUL byte")
        }
        let resolved = try Self.resolve(argument)

        var info = stat()
        guard stat(resolved, &info) == 0 else {
            throw NotiplayError(.missingInput, file: argument, "cannot be read: \(Self.errnoText())")
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw NotiplayError(.badData, file: argument, "is \(Self.describe(type)), not an audio file")
        }
        let size = Int(info.st_size)
        guard size > 0 else { throw NotiplayError(.badData, file: argument, "is empty (0 bytes)") }
        guard size <= sizeLimit else {
            throw NotiplayError(
                .badData, file: argument,
                "is \(Self.megabytes(size)); the limit for audio attachments is \(Self.megabytes(sizeLimit))")
        }

        let fd = open(resolved, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            throw NotiplayError(.badData, file: argument, "cannot be read: \(Self.errnoText())")
        }
        defer { close(fd) }
        var header = Self.read(fd, count: 64, at: 0)
        if header.isEmpty {
            throw NotiplayError(.badData, file: argument, "cannot be read: \(Self.errnoText())")
        }
        if let tag = AudioFormat.id3TagLength(header) {
            // MP3 behind an ID3v2 tag: the first frame must follow the tag.
            header = Self.read(fd, count: 4, at: tag)
            guard header.count >= 3, AudioFormat.isMPEGAudioFrame(header[0], header[1], header[2]) else {
                throw NotiplayError(.badData, file: argument, "has an ID3 tag but no MP3 audio after it")
            }
            return AudioFile(path: resolved, argument: argument, format: .mp3, byteCount: size)
        }
        guard let format = AudioFormat.sniff(header) else {
            throw NotiplayError(.badData, file: argument, Self.unrecognised(header))
        }
        return AudioFile(path: resolved, argument: argument, format: format, byteCount: size)
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

    private static func resolve(_ argument: String) throws(NotiplayError) -> String {
        guard let resolved = realpath(argument, nil) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw NotiplayError(.missingInput, file: argument, "no such file")
            }
            throw NotiplayError(.badData, file: argument, "cannot be opened: \(errnoText(code))")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func read(_ fd: Int32, count: Int, at offset: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    private static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    private static func unrecognised(_ header: [UInt8]) -> String {
        let printable = header.prefix(64).allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        let what = printable ? "text, not audio" : "not a recognised audio format"
        return "is \(what) (expected WAV, AIFF, MP3, AAC, M4A, Ogg Vorbis, Opus or FLAC content)"
    }

    static func megabytes(_ bytes: Int) -> String {
        let mb = Double(bytes) / 1_048_576
        return mb >= 10 ? "\(Int(mb.rounded())) MB" : "\((mb * 10).rounded() / 10) MB"
    }

    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    fileprivate var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
}
