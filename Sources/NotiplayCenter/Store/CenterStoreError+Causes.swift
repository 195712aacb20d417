import GRDB
import NotiplaySystem
import SystemPackage

/// How the system's and SQLite's failures become the store's errors (and so exit statuses).
extension CenterStoreError {
    /// A failed system call on `file`, while doing `action` (`"cannot make the folder"`).
    ///
    /// Permission, a read-only file system or something else in the file's place is
    /// ``Kind/cannotCreate``; anything else (a full disk, an I/O error) is ``Kind/ioError``.
    init(_ error: SystemCallError, file: String, _ action: String) {
        let kind: Kind =
            switch error.errno {
            case .permissionDenied, .notPermitted, .readOnlyFileSystem, .notDirectory, .fileExists, .isDirectory,
                .noSuchFileOrDirectory, .fileNameTooLong, .tooManySymbolicLinkLevels:
                .cannotCreate
            default:
                .ioError
            }
        let reason = error.errno == .noSpace ? "the disk is full" : error.reason
        self.init(kind, file: file, "\(action): \(reason)")
    }

    /// Any error thrown inside a database access to `file`: the store's own errors pass through,
    /// SQLite's are sorted by their result code. `opening` says what a file that cannot be
    /// opened was opened for (`writing`, or `reading` for a reader).
    init(database error: any Error, file: String, opening: String = "writing") {
        if let error = error as? CenterStoreError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            self.init(.ioError, file: file, "\(error)")
            return
        }
        let sqlite = "SQLite: \(error.message ?? "error \(error.extendedResultCode.rawValue)")"
        switch error.resultCode {
        case .SQLITE_FULL:
            self.init(.ioError, file: file, "the disk is full (\(sqlite))")
        case .SQLITE_IOERR:
            self.init(.ioError, file: file, "input/output error (\(sqlite))")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            self.init(.badData, file: file, "is damaged or is not a notiplay store (\(sqlite))")
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            self.init(.cannotCreate, file: file, "cannot be opened for \(opening) (\(sqlite))")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self.init(.ioError, file: file, "another process holds the store locked (\(sqlite))")
        default:
            self.init(.ioError, file: file, sqlite)
        }
    }
}
