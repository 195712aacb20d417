package import NotiplaySystem
import SystemPackage

/// The socket's place in the file system: the folder made or checked, a stale socket cleared,
/// and, once bound, the socket's mode set and the file recognised again when the server leaves.
///
/// The folder is what protects the socket: 0700 and the server's user's, so that no other user
/// can connect, or put a socket of their own in its place. Only the last folder of the path is
/// made (`$XDG_RUNTIME_DIR` itself must exist).
package enum SocketPlace {
    /// Makes the path ready to bind: checks its length, makes or checks its folder, and
    /// removes a stale socket (one nobody listens on).
    /// - Throws: ``CenterSocketError/alreadyRunning(path:)`` when a server answers there, and
    ///   the other errors of ``CenterSocketError`` when the path cannot be used.
    package static func prepare(_ path: String, owner: UInt32) throws(CenterSocketError) {
        guard path.utf8.count <= Posix.maximumSocketPathLength else {
            throw .pathTooLong(path: path, limit: Posix.maximumSocketPathLength)
        }
        try ensureFolder(folder(of: path), owner: owner)
        try clearStale(path)
    }

    /// The folder `path` is in.
    package static func folder(of path: String) -> String {
        let folder = FilePath(path).removingLastComponent().string
        return folder.isEmpty ? "." : folder
    }

    /// Makes `folder` with mode 0700 if it is missing, and refuses it if it is not a folder,
    /// belongs to another user or lets others in.
    package static func ensureFolder(_ folder: String, owner: UInt32) throws(CenterSocketError) {
        var status: Stat
        do {
            status = try Stat(FilePath(folder), followTargetSymlink: false)
        } catch .noSuchFileOrDirectory {
            do {
                try Posix.makeFolder(folder, permissions: .ownerReadWriteExecute)
                try Posix.setPermissions(folder, .ownerReadWriteExecute)  // whatever the umask
                status = try Posix.status(of: folder)
            } catch {
                throw CenterSocketError(error, path: folder)
            }
        } catch {
            throw CenterSocketError(SystemCallError("lstat", error), path: folder)
        }
        guard status.type == .directory else {
            let found = status.type == .symbolicLink ? "a symbolic link" : describe(status.type)
            throw .unsafeFolder(
                path: folder, reason: "is \(found), not a folder; the socket's folder must be a real folder of yours, mode 0700")
        }
        guard status.userID.rawValue == owner else {
            throw .unsafeFolder(path: folder, reason: """
                belongs to uid \(status.userID.rawValue), not to you (uid \(owner)): its owner could replace the socket \
                and read what is sent; use a folder of your own
                """)
        }
        let permissions = status.permissions.rawValue & 0o7777
        guard permissions & 0o077 == 0 else {
            let mode = "0" + String(permissions, radix: 8)
            throw .unsafeFolder(path: folder, reason: """
                has mode \(mode): other users can reach the socket in it (it must be 0700, yours alone); \
                run `chmod 700 \(folder)` if that is what you want
                """)
        }
    }

    /// Removes a socket nobody listens on (a server that was killed left it); leaves a live one
    /// (``CenterSocketError/alreadyRunning(path:)``) and anything that is not a socket
    /// (``CenterSocketError/notASocket(path:found:)``) alone.
    package static func clearStale(_ path: String) throws(CenterSocketError) {
        let status: Stat
        do {
            status = try Stat(FilePath(path), followTargetSymlink: false)
        } catch .noSuchFileOrDirectory {
            return
        } catch {
            throw CenterSocketError(SystemCallError("lstat", error), path: path)
        }
        guard status.type == .socket else { throw .notASocket(path: path, found: describe(status.type)) }
        switch probe(path) {
        case .answered: throw .alreadyRunning(path: path)
        case .refused:
            do { try Posix.removeFile(path) } catch { throw CenterSocketError(error, path: path) }
        case .failed(let error): throw CenterSocketError(error, path: path)
        }
    }

    /// What connecting to a socket found.
    package enum Probe: Equatable {
        /// Something listens (or its backlog is full: it is alive).
        case answered
        /// Nobody listens: the socket is stale.
        case refused
        /// Connecting failed otherwise.
        case failed(SystemCallError)
    }

    /// Connects to `path` without blocking, and hangs up at once.
    package static func probe(_ path: String) -> Probe {
        let socket: FileDescriptor
        do { socket = try Posix.unixStreamSocket(nonBlocking: true) } catch { return .failed(error) }
        defer { Posix.close(socket) }
        do {
            try Posix.connect(socket, toPath: path)
            return .answered
        } catch {
            switch error.errno {
            case .connectionRefused: return .refused
            case .resourceTemporarilyUnavailable: return .answered
            default: return .failed(error)
            }
        }
    }

    /// The socket file as bound: what ``removeIfOurs(_:)`` recognises it by.
    package struct Identity: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64
    }

    /// Sets the bound socket's mode to 0600 and returns what it is recognised by.
    package static func finishBinding(_ path: String) throws(CenterSocketError) -> Identity {
        do {
            try Posix.setPermissions(path, .ownerReadWrite)
            let status = try Posix.status(of: path)
            return Identity(device: UInt64(status.deviceID.rawValue), inode: UInt64(status.inode.rawValue))
        } catch {
            throw CenterSocketError(error, path: path)
        }
    }

    /// Removes the socket file if it is still the one this server bound (not one a later server
    /// put there).
    package static func removeIfOurs(_ path: String, identity: Identity) {
        guard let status = try? Stat(FilePath(path), followTargetSymlink: false),
            UInt64(status.deviceID.rawValue) == identity.device, UInt64(status.inode.rawValue) == identity.inode
        else { return }
        try? Posix.removeFile(path)
    }

    /// `a regular file`, `a folder`… for messages.
    private static func describe(_ type: FileType) -> String {
        switch type {
        case .regular: "a regular file"
        case .directory: "a folder"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a named pipe"
        case .characterSpecial, .blockSpecial: "a device"
        case .socket: "a socket"
        default: "a special file"
        }
    }
}
