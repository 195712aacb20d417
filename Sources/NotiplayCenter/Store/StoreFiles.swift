import NotiplayCore
import NotiplaySystem
import SystemPackage

/// The file-system steps the store needs to be durable: folders made 0700 with their entries
/// synced, and files and folders flushed to the disk.
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
}
