import NotiplayCore
import NotiplaySystem
import SystemPackage

/// The file-system steps the store needs to be durable and private: folders made 0700 with their
/// entries synced, files kept 0600, and files and folders flushed to the disk.
enum StoreFiles {
    /// Makes `path` and any missing folder above it (mode 0700), syncing each new folder's parent
    /// so the new entry survives a power loss. An existing folder is left as it is.
    /// - Throws: ``CenterStoreError/Kind/cannotCreate`` naming the folder when it cannot be made
    ///   or something other than a folder is in its place.
    static func makeFolder(_ path: String) throws(CenterStoreError) {
        if let status = try? Posix.status(of: path) {
            guard status.type == .directory else {
                throw CenterStoreError(.cannotCreate, file: path, "is not a folder, and the store needs a folder there")
            }
            return
        }
        let parent = Path.directory(of: path)
        if parent != path && parent != "." && parent != "/" {
            try makeFolder(parent)
        }
        do throws(SystemCallError) {
            try Posix.makeFolder(path, permissions: .ownerReadWriteExecute)
        } catch let error where error.errno == .fileExists && Path.isDirectory(path) {
            return  // made by another process meanwhile
        } catch {
            throw CenterStoreError(error, file: path, "cannot make the folder")
        }
        try synchronize(folder: parent)
    }

    /// Flushes a folder's entries (new, renamed or removed files) to the disk.
    static func synchronize(folder path: String) throws(CenterStoreError) {
        let folder: FileDescriptor
        do throws(SystemCallError) {
            folder = try Posix.open(path, .readOnly, options: [.directory])
        } catch {
            throw CenterStoreError(error, file: path, "cannot open the folder to sync it")
        }
        defer { Posix.close(folder) }
        try synchronize(folder, file: path)
    }

    /// `fsync(2)`: what was written to `file` is on the disk when this returns.
    static func synchronize(_ file: FileDescriptor, file path: String) throws(CenterStoreError) {
        do { try Posix.synchronize(file) } catch {
            throw CenterStoreError(error, file: path, "cannot flush to the disk")
        }
    }

    /// Keeps `path`, a folder of the store, to its user: refused when it belongs to another user
    /// (its owner could read and change everything in it), made 0700 when others may enter it.
    /// - Returns: A warning when its mode was changed (others could read the store until now).
    /// - Throws: ``CenterStoreError/Kind/cannotCreate`` naming the folder when it is another
    ///   user's or its mode cannot be changed.
    static func keepPrivate(folder path: String) throws(CenterStoreError) -> CenterStoreWarning? {
        try keepPrivate(path, permissions: .ownerReadWriteExecute, what: "folder")
    }

    /// Keeps `path`, a file of the store, to its user as ``keepPrivate(folder:)`` does a folder
    /// (0600); a missing file is no error.
    static func keepPrivate(file path: String) throws(CenterStoreError) -> CenterStoreWarning? {
        try keepPrivate(path, permissions: .ownerReadWrite, what: "file")
    }

    private static func keepPrivate(
        _ path: String, permissions: FilePermissions, what: String
    ) throws(CenterStoreError) -> CenterStoreWarning? {
        let status: Stat
        do throws(SystemCallError) {
            status = try Posix.status(of: path)
        } catch let error where error.errno == .noSuchFileOrDirectory {
            return nil
        } catch {
            throw CenterStoreError(error, file: path, "cannot check who may read the store's \(what)")
        }
        guard status.type == (what == "folder" ? .directory : .regular) else { return nil }  // opening it will say
        let owner = status.userID.rawValue
        let user = Posix.effectiveUserID
        guard owner == user else {
            throw CenterStoreError(.cannotCreate, file: path, """
                belongs to uid \(owner), not to you (uid \(user)): the store must be yours alone, or its owner reads \
                every notification; set XDG_STATE_HOME to a folder of yours
                """)
        }
        let mode = status.permissions.rawValue & 0o7777
        guard mode & 0o077 != 0 else { return nil }
        do throws(SystemCallError) {
            try Posix.setPermissions(path, permissions)
        } catch {
            throw CenterStoreError(error, file: path, "cannot make the store's \(what) yours alone")
        }
        let wanted = "0" + String(permissions.rawValue, radix: 8)
        return CenterStoreWarning(file: path, """
            had mode 0\(String(mode, radix: 8)), letting other users read what the store holds; it is \(wanted) now
            """)
    }

    /// Makes `path`, the database, empty with mode 0600 when it is missing, before SQLite makes
    /// it with its own mode (0644 less the umask), which its `-wal` and `-shm` would copy.
    /// - Throws: ``CenterStoreError`` naming the file when it cannot be made.
    static func makePrivateFile(_ path: String) throws(CenterStoreError) {
        do throws(SystemCallError) {
            let file = try Posix.open(
                path, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: .ownerReadWrite)
            Posix.close(file)
        } catch let error where error.errno == .fileExists {
            return  // there already, or made by another process meanwhile
        } catch {
            throw CenterStoreError(error, file: path, "cannot make the database")
        }
        try synchronize(folder: Path.directory(of: path))
    }
}
