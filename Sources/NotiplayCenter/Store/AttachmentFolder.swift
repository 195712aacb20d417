
import NotiplayCore
import NotiplaySystem
import SystemPackage

/// The `attachments/` folder beside the database: one file per distinct content, named by the
/// SHA-256 of its bytes (64 lowercase hex digits), so the same content is stored once.
///
/// A file is written under a temporary name (`.tmp-…`), flushed, renamed to its digest, and the
/// folder flushed, before the transaction that refers to it commits; the store calls it only
/// from inside its write transactions, which is what keeps ``sweep(keeping:)`` and
/// ``setAside(keeping:stamp:)`` from taking a file that an `add` has written and not yet
/// committed.
struct AttachmentFolder: Sendable {
    /// The folder's path.
    let path: String

    /// What ``write(_:)`` did.
    struct Written {
        /// Each attachment's digest, in the order given.
        var digests: [String]
        /// The files this call made (content not stored before), for ``discard(_:)``.
        var newFiles: [String]
    }

    /// How the name of a file being written begins.
    static let temporaryPrefix = ".tmp-"

    /// Where the content with this digest is kept.
    func path(forDigest digest: String) -> String {
        Path.join(path, digest)
    }

    /// Stores each attachment's bytes durably, once per distinct content.
    ///
    /// Nothing is left behind when it throws: the temporary file and the files this call made
    /// are removed.
    /// - Throws: ``CenterStoreError`` naming this folder and the attachment: ``CenterStoreError/Kind/ioError``
    ///   when the disk is full or a write fails, ``CenterStoreError/Kind/cannotCreate`` when the
    ///   folder cannot be written.
    func write(_ attachments: [IncomingAttachment]) throws(CenterStoreError) -> Written {
        var written = Written(digests: [], newFiles: [])
        do throws(CenterStoreError) {
            for attachment in attachments {
                let digest = Self.digest(of: attachment.bytes)
                written.digests.append(digest)
                let final = path(forDigest: digest)
                if written.newFiles.contains(final) || Self.holds(final, byteCount: attachment.bytes.count) {
                    continue
                }
                try writeFile(attachment, to: final)
                written.newFiles.append(final)
            }
            if !written.newFiles.isEmpty {
                try StoreFiles.synchronize(folder: path)
            }
        } catch {
            discard(written)
            throw error
        }
        return written
    }

    /// Removes the files a ``write(_:)`` made, when the transaction that was to refer to them
    /// did not commit.
    func discard(_ written: Written) {
        for file in written.newFiles {
            try? Posix.removeFile(file)
        }
    }

    /// Deletes every file whose digest is not in `referenced`, and any temporary file left by a
    /// write that never finished (the process was killed): what a prune does once the rows that
    /// named the files are deleted. Opening the store never deletes, it sets files aside
    /// (``setAside(keeping:stamp:)``).
    ///
    /// Call it only while holding the database's write lock, so no write is between its files
    /// and its commit.
    /// - Returns: How many files were deleted.
    func sweep(keeping referenced: Set<String>) throws(CenterStoreError) -> Int {
        let names: [String]
        do throws(SystemCallError) {
            names = try Posix.entries(of: path)
        } catch {
            throw CenterStoreError(error, file: path, "cannot list the attachments")
        }
        var deleted = 0
        for name in names where !referenced.contains(name) {
            let file = Path.join(path, name)
            do throws(SystemCallError) {
                try Posix.removeFile(file)
                deleted += 1
            } catch {
                throw CenterStoreError(error, file: file, "cannot delete an attachment no notification refers to")
            }
        }
        return deleted
    }

    /// Moves every file whose digest is not in `referenced` into a new folder beside this one,
    /// `attachments.orphaned-STAMP` (mode 0700), and deletes the temporary files a write that
    /// never finished left (`.tmp-…`: never whole content). Nothing a row might have named is
    /// deleted: a store that lost its rows (its database removed, truncated or damaged) keeps
    /// their files, for a person to look at.
    ///
    /// Call it only while holding the database's write lock, so no write is between its files
    /// and its commit.
    /// - Parameter stamp: What the new folder's name ends with (the date, `20261123T101500Z`).
    /// - Returns: How many files were moved, and where; `nil` when there were none.
    func setAside(keeping referenced: Set<String>, stamp: String) throws(CenterStoreError) -> (count: Int, folder: String)? {
        let names: [String]
        do throws(SystemCallError) {
            names = try Posix.entries(of: path)
        } catch {
            throw CenterStoreError(error, file: path, "cannot list the attachments")
        }
        var unnamed: [String] = []
        for name in names where !referenced.contains(name) {
            guard name.hasPrefix(Self.temporaryPrefix) else {
                unnamed.append(name)
                continue
            }
            let file = Path.join(path, name)
            do throws(SystemCallError) { try Posix.removeFile(file) } catch {
                throw CenterStoreError(error, file: file, "cannot delete what an unfinished write left")
            }
        }
        guard !unnamed.isEmpty else { return nil }
        let aside = try makeAsideFolder(stamp: stamp)
        for name in unnamed {
            do throws(SystemCallError) {
                try Posix.rename(Path.join(path, name), to: Path.join(aside, name))
            } catch {
                throw CenterStoreError(error, file: Path.join(path, name), "cannot move an attachment no notification names to \(aside)")
            }
        }
        try StoreFiles.synchronize(folder: aside)
        try StoreFiles.synchronize(folder: path)
        return (unnamed.count, aside)
    }

    /// A new folder `attachments.orphaned-STAMP` beside this one (`-2`, `-3`… when taken).
    private func makeAsideFolder(stamp: String) throws(CenterStoreError) -> String {
        let base = "\(path).orphaned-\(stamp)"
        var candidate = base
        var number = 1
        while true {
            do throws(SystemCallError) {
                try Posix.makeFolder(candidate, permissions: .ownerReadWriteExecute)
                try Posix.setPermissions(candidate, .ownerReadWriteExecute)  // whatever the umask
            } catch let error where error.errno == .fileExists {
                number += 1
                candidate = "\(base)-\(number)"
                continue
            } catch {
                throw CenterStoreError(error, file: candidate, "cannot make the folder to move attachments no notification names to")
            }
            try StoreFiles.synchronize(folder: Path.directory(of: candidate))
            return candidate
        }
    }

    /// The SHA-256 of `bytes`, in lowercase hex.
    static func digest(of bytes: [UInt8]) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256Digest.hash(bytes) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether a complete copy of the content is there already (renames are atomic, so a file
    /// with the digest's name and the right size is the content).
    private static func holds(_ file: String, byteCount: Int) -> Bool {
        guard let status = try? Posix.status(of: file) else { return false }
        return status.type == .regular && status.size == Int64(byteCount)
    }

    /// Writes `attachment` to a new temporary file, flushes it and renames it to `final`.
    private func writeFile(_ attachment: IncomingAttachment, to final: String) throws(CenterStoreError) {
        let temporary = Path.join(path, "\(Self.temporaryPrefix)\(UInt64.random(in: .min ... .max))")
        let what = "cannot store the attachment \"\(attachment.name)\" (\(attachment.bytes.count) bytes)"
        let file: FileDescriptor
        do throws(SystemCallError) {
            file = try Posix.open(
                temporary, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: .ownerReadWrite)
        } catch {
            throw CenterStoreError(error, file: path, what)
        }
        do throws(CenterStoreError) {
            do throws(SystemCallError) {
                try Posix.writeAll(file, attachment.bytes)
            } catch {
                throw CenterStoreError(error, file: path, what)
            }
            try StoreFiles.synchronize(file, file: path)
        } catch {
            Posix.close(file)
            try? Posix.removeFile(temporary)
            throw error
        }
        Posix.close(file)
        do throws(SystemCallError) {
            try Posix.rename(temporary, to: final)
        } catch {
            try? Posix.removeFile(temporary)
            throw CenterStoreError(error, file: path, what)
        }
    }
}
