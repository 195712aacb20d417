internal import NotiplaySystem
internal import SystemPackage

/// The WAV file an audio capture writes (``AudioOutput/pcm(path:)``,
/// ``AudioOutput/pacedCapture(path:temporaryFolder:)``), opened and checked before anything is
/// written to it.
///
/// A capture is written to a regular file on a disk, never to a device (`/dev/full`,
/// `/dev/tty`…), a FIFO, or a file of the kernel's own file systems (`/proc`, `/sys`…), where
/// writing a WAV header can change how the system runs. What the path names is looked at before
/// it is opened; then the open file is checked (`fstat`, and the file system its device is on),
/// emptied, and its header written: a path that cannot hold a capture fails here, before any
/// audio plays, with a message that names it.
enum CaptureFile {
    /// The file systems of the kernel's interfaces: their files look regular but are not storage.
    static let kernelFileSystems: Set<String> = [
        "proc", "sysfs", "debugfs", "tracefs", "securityfs", "cgroup", "cgroup2", "configfs", "pstore",
        "efivarfs", "bpf", "fusectl", "selinuxfs", "binfmt_misc", "devpts", "mqueue", "rpc_pipefs", "nfsd",
        "hugetlbfs", "autofs",
    ]

    /// Creates (or empties) the capture file at `path` and writes `header` at its start.
    /// - Returns: The open file, write-only, close-on-exec, positioned after the header.
    /// - Throws: ``PlaybackFailure`` (``PlaybackFailure/captureFailed``) saying why, naming `path`.
    static func open(_ path: String, header: [UInt8]) throws(PlaybackFailure) -> FileDescriptor {
        if let info = try? Posix.status(of: path) {
            try requireRegular(info, path)
        }
        let file: FileDescriptor
        do {
            // Not truncated yet, and not waiting: what was opened is checked first.
            file = try Posix.open(
                path, .readWrite, options: [.create, .closeOnExec, .noControllingTerminal, .nonBlocking],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw failure(path, error.reason.lowercased())
        }
        do {
            try requireRegular(try Posix.status(of: file), path)
            if let type = Posix.fileSystemType(file), kernelFileSystems.contains(type) {
                throw failure(path, "it is a file of the kernel's \(type) file system, not a file on a disk")
            }
            try Posix.setBlocking(file)
            try Posix.truncate(file, to: 0)
            try Posix.writeAll(file, header)
        } catch let error as PlaybackFailure {
            Posix.close(file)
            throw error
        } catch let error as SystemCallError {
            Posix.close(file)
            throw failure(path, error.reason.lowercased())
        } catch {
            Posix.close(file)
            throw failure(path, "\(error)")
        }
        return file
    }

    /// The failure "cannot write the audio capture file PATH: `reason`".
    static func failure(_ path: String, _ reason: String) -> PlaybackFailure {
        PlaybackFailure(
            code: PlaybackFailure.captureFailed, message: "cannot write the audio capture file \(path): \(reason)",
            operation: "capture")
    }

    private static func requireRegular(_ info: Stat, _ path: String) throws(PlaybackFailure) {
        guard info.type != .regular else { return }
        let what =
            switch info.type {
            case .directory: "a directory"
            case .characterSpecial: "a character device"
            case .blockSpecial: "a block device"
            case .fifo: "a FIFO"
            case .socket: "a socket"
            default: "not a regular file"
            }
        throw failure(path, "it is \(what), not a regular file")
    }
}
