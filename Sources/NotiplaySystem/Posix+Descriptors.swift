@preconcurrency internal import Glibc  // the calls this file wraps
package import SystemPackage

/// Pipes, terminals and what waits in a descriptor.
extension Posix {
    /// `pipe(2)`, both ends close-on-exec and non-blocking.
    package static func pipe() throws(SystemCallError) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        let ends = try system("pipe") { try FileDescriptor.pipe() }
        for end in [ends.readEnd, ends.writeEnd] {
            _ = fcntl(end.rawValue, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end.rawValue, F_SETFL, fcntl(end.rawValue, F_GETFL) | O_NONBLOCK)
        }
        return ends
    }

    /// Sets a pipe's capacity (`F_SETPIPE_SZ`, Linux); the kernel may round it up.
    package static func setPipeSize(_ file: FileDescriptor, _ bytes: Int) throws(SystemCallError) {
        // `F_SETPIPE_SZ`, which Glibc's Swift module does not export.
        let setPipeSize: Int32 = 1031
        try call("fcntl") { fcntl(file.rawValue, setPipeSize, Int32(bytes)) }
    }

    /// How many bytes wait to be read (`FIONREAD`).
    package static func bytesWaiting(_ file: FileDescriptor) throws(SystemCallError) -> Int {
        var count: Int32 = 0
        try call("ioctl") { ioctl(file.rawValue, UInt(FIONREAD), &count) }
        return Int(count)
    }

    /// Sets `O_NONBLOCK` (`fcntl(2)`, `F_SETFL`): a read or write that would wait fails with
    /// `EAGAIN` instead.
    package static func setNonBlocking(_ file: FileDescriptor) throws(SystemCallError) {
        let flags = try call("fcntl") { fcntl(file.rawValue, F_GETFL) }
        try call("fcntl") { fcntl(file.rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// A close-on-exec copy of `file` numbered 3 or above (`fcntl(2)`, `F_DUPFD_CLOEXEC`): it
    /// stays what `file` is now when `file`'s number is pointed elsewhere.
    package static func duplicate(_ file: FileDescriptor) throws(SystemCallError) -> FileDescriptor {
        FileDescriptor(rawValue: try call("fcntl") { fcntl(file.rawValue, F_DUPFD_CLOEXEC, 3) })
    }

    /// Points `target`'s number at what `file` is (`dup2(2)`), closing what it was; the copy is
    /// inherited by programs started later (it is not close-on-exec).
    package static func redirect(_ target: FileDescriptor, to file: FileDescriptor) throws(SystemCallError) {
        try call("dup2") { dup2(file.rawValue, target.rawValue) }
    }

    /// Reads `file` (a pipe, a terminal, a file) to its end, but never more than `limit + 1`
    /// bytes: more than `limit` back means it goes on past `limit`, and the rest is left unread.
    /// A non-blocking descriptor is waited on (`poll(2)`) rather than failing with `EAGAIN`.
    package static func readToEnd(_ file: FileDescriptor, limit: Int) throws(SystemCallError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) in try read(file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted])) }
            }
            let count: Int
            do {
                count = try result.get()
            } catch let error where error.errno == .resourceTemporarilyUnavailable {
                var entries = [PollEntry(file: file, events: .readable)]
                try poll(&entries, timeout: nil)
                continue
            }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// Clears `O_NONBLOCK` (`fcntl(2)`, `F_SETFL`): reads of `file` wait again.
    package static func setBlocking(_ file: FileDescriptor) throws(SystemCallError) {
        let flags = try call("fcntl") { fcntl(file.rawValue, F_GETFL) }
        try call("fcntl") { fcntl(file.rawValue, F_SETFL, flags & ~O_NONBLOCK) }
    }

    /// The type of the file system `file` is on (`ext4`, `tmpfs`, `proc`, `sysfs`…), as
    /// `/proc/self/mountinfo` names it for the file's device; `nil` when it cannot be told.
    package static func fileSystemType(_ file: FileDescriptor) -> String? {
        guard let raw = try? status(of: file).deviceID.rawValue else { return nil }
        let device = UInt64(raw)
        // glibc's `major`/`minor` encoding of a `dev_t`.
        let major = (device >> 8) & 0xFFF | (device >> 32) & ~UInt64(0xFFF)
        let minor = device & 0xFF | (device >> 12) & ~UInt64(0xFF)
        guard let table = try? open("/proc/self/mountinfo", .readOnly, options: [.closeOnExec]) else { return nil }
        defer { close(table) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while let n = try? chunk.withUnsafeMutableBytes({ buffer throws(SystemCallError) in try read(table, into: buffer) }),
            n > 0
        {
            bytes += chunk[..<n]
        }
        // "36 35 98:0 /root /mount rw,noatime master:1 - ext3 /dev/root rw": the device is the
        // third field, the type follows the lone "-".
        let wanted = "\(major):\(minor)"
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2, fields[2] == wanted, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count
            else { continue }
            return String(fields[dash + 1])
        }
        return nil
    }

    /// `isatty(3)`.
    package static func isTerminal(_ file: FileDescriptor) -> Bool {
        isatty(file.rawValue) == 1
    }

    /// The terminal's size in cells (`TIOCGWINSZ`).
    package static func windowSize(_ file: FileDescriptor) throws(SystemCallError) -> (columns: Int, rows: Int) {
        var size = winsize()
        try call("ioctl") { withUnsafeMutablePointer(to: &size) { ioctl(file.rawValue, UInt(TIOCGWINSZ), $0) } }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
