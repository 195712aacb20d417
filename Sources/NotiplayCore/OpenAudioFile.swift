internal import NotiplaySystem
internal import SystemPackage

/// An ``AudioFile`` opened to be played, by ``AudioFile/open()``: the descriptor that was checked
/// is the one a player reads.
///
/// The descriptor is read-only, close-on-exec and blocking, and is closed when the value is
/// released: a player keeps the value for as long as it reads the file. A player that reads it
/// must not close it, and should read it with `pread` or seek it itself.
public final class OpenAudioFile: Sendable, CustomStringConvertible {
    /// The file as its open descriptor was checked: ``AudioFile/byteCount`` is its size when
    /// opened, ``AudioFile/format`` the format its first bytes had then.
    public let file: AudioFile
    private let handle: OwnedDescriptor

    init(file: AudioFile, handle: OwnedDescriptor) {
        self.file = file
        self.handle = handle
    }

    /// The open file's descriptor number, valid while this value exists.
    public var descriptor: Int32 { handle.descriptor.rawValue }

    /// The open file's size now, or `nil` if `fstat` fails. Less than ``AudioFile/byteCount`` of
    /// ``file`` means the file was cut short (truncated) since it was opened.
    public var currentByteCount: Int? {
        (try? Posix.status(of: handle.descriptor)).map { Int($0.size) }
    }

    /// Whether the file is shorter now than when it was opened.
    public var wasTruncated: Bool {
        currentByteCount.map { $0 < file.byteCount } ?? false
    }

    public var description: String { file.description }
}
