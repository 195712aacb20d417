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
