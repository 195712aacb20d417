import NotiplayCore

/// A failure of the center's store: which folder or file, what is wrong, and of which kind.
///
/// The store has its own error rather than ``NotiplayError`` because its failures are of kinds
/// that error has no room for (a file that cannot be made, a write the disk refused), and the
/// command line ends differently for each: see ``Kind``.
public struct CenterStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure; the command line maps each to an exit status (`sysexits.h`).
    public enum Kind: Sendable, Equatable {
        /// The store's folder or one of its files cannot be made or written: no permission, a
        /// read-only file system, or something else (a regular file) in its place. `EX_CANTCREAT`
        /// (73).
        case cannotCreate
        /// Reading or writing failed: the disk is full (`SQLITE_FULL`, `ENOSPC`), an I/O error
        /// (`SQLITE_IOERR`, `EIO`), or the database stayed locked by another process. `EX_IOERR`
        /// (74).
        case ioError
        /// The data is not acceptable: the database is damaged or not a notiplay store, it was
        /// written by a newer notiplay, or the payload or response given to the store is not
        /// JSON. `EX_DATAERR` (65).
        case badData
    }

    /// The class of failure.
    public var kind: Kind
    /// The store folder or the file in it that the error is about.
    public var file: String
    /// What is wrong, in words a user understands, without the file name.
    public var reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - kind: The class of failure.
    ///   - file: The folder or file concerned.
    ///   - reason: What is wrong.
    public init(_ kind: Kind, file: String, _ reason: String) {
        self.kind = kind
        self.file = file
        self.reason = reason
    }

    /// `file: reason`, with the file name made safe to print on a terminal.
    public var description: String {
        "\(TerminalText.visible(file)): \(reason)"
    }
}
