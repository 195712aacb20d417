// A small tmpfs mounted for one test (mount(2) as root), to fill a disk or make one read-only.
import Foundation
import Glibc
public import Testing

/// A tmpfs of a given size, mounted on a new folder in a scratch folder.
public struct Tmpfs {
    /// The mount point.
    public let path: String

    /// Mounts a tmpfs of `size` (`mount -o size=…`) on `scratch/disk`.
    public init(in scratch: String, size: String) throws {
        path = scratch + "/disk"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(size),mode=0700") == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)
        }
    }

    /// Makes the file system read-only (or writable again); nothing may be open for writing.
    public func remount(readOnly: Bool) throws {
        let flags = UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0)
        guard mount("tmpfs", path, "tmpfs", flags, nil) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)
        }
    }

    /// Detaches the file system (lazily: a store still open on it does not keep it mounted).
    public func unmount() {
        _ = umount2(path, Int32(MNT_DETACH))
    }

    /// Whether this process may mount a tmpfs (root, with the capability to mount).
    public static let works: Bool = {
        guard getuid() == 0, let scratch = try? FileManager.default.url(
            for: .itemReplacementDirectory, in: .userDomainMask,
            appropriateFor: FileManager.default.temporaryDirectory, create: true)
        else { return false }
        defer { try? FileManager.default.removeItem(at: scratch) }
        guard let disk = try? Tmpfs(in: scratch.path, size: "64k") else { return false }
        disk.unmount()
        return true
    }()

    /// Why the tests that need one are skipped.
    public static let note: Comment = "needs a tmpfs: mount(2) as root was refused here"
}
