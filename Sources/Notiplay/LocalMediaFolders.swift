import NotiplayCore
import NotiplaySystem
import SystemPackage

/// The folders a payload's local media may come from: the payload file's own folder, and the
/// folders the host allows besides (`HostEnvironment.mediaFolders`; the command line's
/// `--media-root`). A payload is untrusted: its `media-url` must not attach any file the user
/// can read (`file:///etc/shadow`, `../../.ssh/id_ed25519`), nor tell whether a file exists.
///
/// A file is taken when its real path — every symbolic link resolved — lies inside the real
/// path of one of the folders, and it is a regular file that can be read. It is opened once and
/// checked where it was opened (the open descriptor's own path, and `fstat`), so a link swapped
/// in between the check and the open is caught; its bytes are read from that descriptor.
/// Every refusal — no such file, outside the folders, unreadable, not a regular file — is one
/// and the same message (``refusal(of:)``).
struct LocalMediaFolders: Sendable {
    /// The folders, as given; `nil` entries and folders that cannot be resolved allow nothing.
    let folders: [String]
    /// The payload file, named in the message of a refusal, when there is one.
    let payloadFile: String?

    /// The real path of each folder that can be resolved.
    private var realFolders: [String] {
        folders.compactMap { try? Posix.realPath($0) }
    }

    /// Whether `real` (a real path) lies inside `folder` (another).
    static func contains(_ folder: String, _ real: String) -> Bool {
        folder == "/" ? real != "/" : real.hasPrefix(folder + "/")
    }

    /// `path` opened for reading, with its status, when it is a regular file inside one of the
    /// folders; `nil` otherwise, whatever the reason.
    func open(_ path: String) -> (FileDescriptor, Stat)? {
        let folders = realFolders
        guard !path.utf8.contains(0), let real = try? Posix.realPath(path),
            folders.contains(where: { Self.contains($0, real) })
        else { return nil }
        // Not blocking on a FIFO swapped in, never taking a terminal, never following a link
        // made in the last moment.
        guard let file = try? Posix.open(real, .readOnly, options: [.closeOnExec, .noControllingTerminal, .nonBlocking, .noFollow])
        else { return nil }
        // What was opened, wherever a folder of the path was swapped for a link meanwhile.
        guard let opened = try? Posix.realPath("/proc/self/fd/\(file.rawValue)"),
            folders.contains(where: { Self.contains($0, opened) }),
            let status = try? Posix.status(of: file), status.type == .regular
        else {
            Posix.close(file)
            return nil
        }
        return (file, status)
    }

    /// The one error for every local `reference` refused, whatever the reason: it names the
    /// payload file and the key, never what is (or is not) at the path.
    func refusal(of reference: String) -> NotiplayError {
        NotiplayError(
            .badData, file: payloadFile,
            "\(MediaAttachmentService.payloadKey) \"\(TerminalText.clean(reference))\" is refused: local media must be "
                + "a readable file inside the payload's folder or a media folder allowed")
    }
}

extension MediaFetcher {
    /// The folders local references may name files in: the payload's, then ``mediaFolders``.
    var localFolders: LocalMediaFolders {
        LocalMediaFolders(folders: (baseDirectory.map { [$0] } ?? []) + mediaFolders, payloadFile: payloadFile)
    }

    /// Copies the local media file at `path` to `destination`, when ``localFolders`` allows it:
    /// read from the descriptor that was checked, never more than the largest attachment limit.
    func copy(_ path: String, to destination: String, reference: String) throws(NotiplayError) {
        let folders = localFolders
        guard let (input, status) = folders.open(path) else { throw folders.refusal(of: reference) }
        defer { Posix.close(input) }
        let cap = max(limits.audio, limits.image)
        guard status.size <= cap else {
            throw NotiplayError(.badData, file: reference, "is \(status.size) bytes; no attachment may be larger than \(cap) bytes")
        }
        let output: FileDescriptor
        do {
            output = try Posix.open(
                destination, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: .ownerReadWrite)
        } catch {
            throw NotiplayError(.unavailable, file: destination, "cannot be written: \(error.reason)")
        }
        defer { Posix.close(output) }
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let result = buffer.withUnsafeMutableBytes { space in
                Result { () throws(SystemCallError) in try Posix.read(input, into: space) }
            }
            let count: Int
            do { count = try result.get() } catch { throw folders.refusal(of: reference) }
            if count == 0 { break }
            total += count
            guard total <= cap else {
                throw NotiplayError(.badData, file: reference, "grew beyond the attachment size limit while being copied")
            }
            do {
                try Posix.writeAll(output, Array(buffer[0..<count]))
            } catch {
                throw NotiplayError(.unavailable, file: destination, "cannot be written: \(error.reason)")
            }
        }
    }

}
