import NotiplaySystem
package import SystemPackage

/// What a client checks before it sends a server anything: that the socket's folder is the
/// user's own and closed to others, as `notiplay serve` makes it, and, once connected, that the
/// process listening runs as the user (`SO_PEERCRED`, which the kernel records and the listener
/// cannot claim).
///
/// Without it, a client whose socket is in `/tmp` (no `XDG_RUNTIME_DIR`) would hand its payload
/// and attachments to whoever made `/tmp/notiplay-UID` first, and believe their answers.
package struct ServerTrust: Sendable, Equatable {
    /// The user the folder and the server must belong to.
    package var userID: UInt32

    /// Trusting only what belongs to `userID`.
    package init(userID: UInt32) {
        self.userID = userID
    }

    /// This process's: its effective user id (the one its files and `SO_PEERCRED` carry).
    package static var thisProcess: ServerTrust { ServerTrust(userID: Posix.effectiveUserID) }

    /// Checks the folder the socket at `path` is in (not following a link).
    /// - Throws: ``CenterSocketError/noServer(path:)`` when the folder is missing,
    ///   ``CenterSocketError/untrusted(path:reason:)`` naming the folder when it is not a real
    ///   folder, is another user's, or lets others in; ``CenterSocketError/system(call:errno:path:)``
    ///   when it cannot be looked at.
    package func checkFolder(of path: String) throws(CenterSocketError) {
        let folder = SocketPlace.folder(of: path)
        let status: Stat
        do {
            status = try Stat(FilePath(folder), followTargetSymlink: false)
        } catch .noSuchFileOrDirectory {
            throw .noServer(path: path)
        } catch {
            throw CenterSocketError(SystemCallError("lstat", error), path: folder)
        }
        if let reason = refusal(ofFolderOwnedBy: status.userID.rawValue, type: status.type, permissions: status.permissions) {
            throw .untrusted(path: folder, reason: reason)
        }
    }

    /// Why a socket folder of this owner, type and mode is not to be trusted, or `nil`.
    package func refusal(ofFolderOwnedBy owner: UInt32, type: FileType, permissions: FilePermissions) -> String? {
        guard type == .directory else {
            let found = type == .symbolicLink ? "a symbolic link" : "not a folder"
            return "the socket's folder is \(found); `notiplay serve` listens only in a real folder of yours (mode 0700)"
        }
        guard owner == userID else {
            return """
                the socket's folder belongs to uid \(owner), not to you (uid \(userID)): whoever listens there could \
                read what you send and answer in the server's place; remove it, or set XDG_RUNTIME_DIR to a folder of yours
                """
        }
        let mode = permissions.rawValue & 0o7777
        guard mode & 0o077 == 0 else {
            let writable = mode & 0o022 != 0 ? ", and others may put a socket of their own in it" : ""
            return """
                the socket's folder has mode 0\(String(mode, radix: 8))\(writable); `notiplay serve` listens only in a \
                folder that is yours alone (0700); if this one is right, run `chmod 700` on it
                """
        }
        return nil
    }

    /// Why the server whose credentials are `server` is not to be trusted, or `nil`.
    package func refusal(ofServer server: PeerCredentials) -> String? {
        guard server.uid != userID else { return nil }
        return """
            the server listening here runs as uid \(server.uid) (pid \(server.pid)), not as you (uid \(userID)): \
            it could read what you send and answer in your server's place
            """
    }
}
