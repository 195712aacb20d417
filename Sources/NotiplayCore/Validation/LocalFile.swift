internal import NotiplaySystem
internal import SystemPackage

/// A local file that exists, is regular, non-empty and within a size limit, with its first bytes
/// read: the shared first step of validating audio files and attachments, and of opening an
/// ``AudioFile`` to play it.
///
/// The file is opened once, and what was opened is checked (`fstat` on the descriptor, the bytes
/// read through it): a path swapped for another file between the checks and the reads cannot
/// slip through. The descriptor stays open as long as the value (or an ``OpenAudioFile`` made
/// from it) does.
struct LocalFile {
    /// The absolute path with symbolic links resolved.
    let path: String
    let size: Int
    /// Up to the first 64 bytes.
    let header: [UInt8]
    /// The open file the checks were made on: read-only, close-on-exec, blocking.
    let handle: OwnedDescriptor

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
        return try open(resolved, argument: argument, sizeLimit: sizeLimit, limitName: limitName)
    }

    /// Opens `path`, an absolute path with no symbolic link in it, and checks what it opened.
    ///
    /// What the path names is looked at first (without following a link), so that a device or a
    /// FIFO is refused without being opened; then the path is opened without following a link
    /// and without waiting (a FIFO swapped in meanwhile cannot block), and the descriptor is
    /// checked with `fstat`: that check is the one that counts.
    static func open(_ path: String, argument: String, sizeLimit: Int, limitName: String) throws(NotiplayError) -> LocalFile {
        let info: Stat
        do {
            info = try Posix.linkStatus(of: path)
        } catch {
            throw missing(error, argument) ?? NotiplayError(.missingInput, file: argument, "cannot be read: \(text(error))")
        }
        try requireRegular(info, argument)
        let handle: OwnedDescriptor
        do {
            handle = OwnedDescriptor(
                try Posix.open(path, .readOnly, options: [.closeOnExec, .noControllingTerminal, .nonBlocking, .noFollow]))
        } catch {
            if error.errno == .tooManySymbolicLinkLevels {
                throw NotiplayError(.badData, file: argument, "is a symbolic link now, not the file that was checked")
            }
            throw missing(error, argument) ?? NotiplayError(.badData, file: argument, "cannot be opened: \(text(error))")
        }
        let opened: Stat
        do {
            opened = try Posix.status(of: handle.descriptor)
        } catch {
            throw NotiplayError(.badData, file: argument, "cannot be read: \(text(error))")
        }
        try requireRegular(opened, argument)
        let size = Int(opened.size)
        guard size > 0 else { throw NotiplayError(.badData, file: argument, "is empty (0 bytes)") }
        guard size <= sizeLimit else {
            throw NotiplayError(
                .badData, file: argument,
                "is \(megabytes(size)); the limit for \(limitName) is \(megabytes(sizeLimit))")
        }
        let header: [UInt8]
        do {
            // A regular file: reads never wait anyway; whoever reads it next gets a plain one.
            try Posix.setBlocking(handle.descriptor)
            header = try Posix.read(handle.descriptor, count: 64, at: 0)
        } catch {
            throw NotiplayError(.badData, file: argument, "cannot be read: \(text(error))")
        }
        // Emptied since it was measured.
        guard !header.isEmpty else { throw NotiplayError(.badData, file: argument, "is empty (0 bytes)") }
        return LocalFile(path: path, size: size, header: header, handle: handle)
    }

    /// `count` bytes at `offset` of the open file (fewer at the end of the file; none if it cannot
    /// be read).
    func bytes(_ count: Int, at offset: Int) -> [UInt8] {
        (try? Posix.read(handle.descriptor, count: count, at: offset)) ?? []
    }

    private static func resolve(_ argument: String) throws(NotiplayError) -> String {
        do {
            return try Posix.realPath(argument)
        } catch {
            throw missing(error, argument) ?? NotiplayError(.badData, file: argument, "cannot be opened: \(text(error))")
        }
    }

    /// "no such file", if `error` says so.
    private static func missing(_ error: SystemCallError, _ argument: String) -> NotiplayError? {
        guard error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory else { return nil }
        return NotiplayError(.missingInput, file: argument, "no such file")
    }

    private static func requireRegular(_ info: Stat, _ argument: String) throws(NotiplayError) {
        guard info.type == .regular else {
            throw NotiplayError(.badData, file: argument, "is \(describe(info.type)), not a regular file")
        }
    }

    static func describe(_ type: FileType) -> String {
        switch type {
        case .directory: "a directory"
        case .characterSpecial: "a character device"
        case .blockSpecial: "a block device"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .symbolicLink: "a symbolic link"
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

/// A file descriptor closed when the last reference to it goes.
final class OwnedDescriptor: Sendable {
    let descriptor: FileDescriptor

    init(_ descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    deinit {
        Posix.close(descriptor)
    }
}
