// The one place the C library's file and process calls are made: everything above this module
// goes through `Posix` (and swift-system's `FileDescriptor`, `FilePath`, `Errno` and `Stat`) and
// gets a ``SystemCallError`` naming the call, not a bare `errno` to read before it changes.
@preconcurrency internal import Glibc  // errno, and the calls swift-system leaves out
package import SystemPackage

/// A system call that failed: its name and the `errno` it left.
package struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function, as in `"open"` or `"tcsetattr"`.
    package var call: String
    /// The `errno` it left.
    package var errno: Errno

    package init(_ call: String, _ errno: Errno) {
        self.call = call
        self.errno = errno
    }

    /// The C library's text for the error (`strerror`), as messages quote it.
    package var reason: String { errno.description }

    package var description: String { "\(call): \(reason)" }
}

/// Thin wrappers of the system calls swift-system does not cover, and typed-throwing forms of
/// those it does. Calls that may block retry on `EINTR`; every failure throws a
/// ``SystemCallError``.
package enum Posix {
    /// The `errno` the last failed call left on this thread.
    package static var lastError: Errno { Errno(rawValue: errno) }

    /// Runs `body` (a C call returning -1 on failure) until it is not interrupted.
    @discardableResult
    package static func call<Result: BinaryInteger>(
        _ name: String, retryingInterrupts: Bool = true, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if retryingInterrupts && code == EINTR { continue }
            throw SystemCallError(name, Errno(rawValue: code))
        }
    }

    /// Runs one of swift-system's calls, naming it in the error it throws.
    static func system<Result>(_ name: String, _ body: () throws -> Result) throws(SystemCallError) -> Result {
        do {
            return try body()
        } catch let error as Errno {
            throw SystemCallError(name, error)
        } catch {
            throw SystemCallError(name, .ioError)  // swift-system throws nothing but `Errno`
        }
    }

    // MARK: Files

    /// `fsync(2)`, retried when interrupted: what was written to `file` is on the disk when this
    /// returns (for a folder: the names made and renamed in it).
    package static func synchronize(_ file: FileDescriptor) throws(SystemCallError) {
        try call("fsync") { fsync(file.rawValue) }
    }

    /// `open(2)`, retried when interrupted.
    package static func open(
        _ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
        permissions: FilePermissions? = nil
    ) throws(SystemCallError) -> FileDescriptor {
        try system("open") {
            try FileDescriptor.open(FilePath(path), mode, options: options, permissions: permissions)
        }
    }

    /// `stat(2)`: what `path` names, after following links.
    package static func status(of path: String) throws(SystemCallError) -> Stat {
        do {
            return try FilePath(path).stat()
        } catch {
            throw SystemCallError("stat", error)
        }
    }

    /// `lstat(2)`: what `path` names, a symbolic link itself rather than its target.
    package static func linkStatus(of path: String) throws(SystemCallError) -> Stat {
        do {
            return try Stat(FilePath(path), followTargetSymlink: false)
        } catch {
            throw SystemCallError("lstat", error)
        }
    }

    /// `fstat(2)`.
    package static func status(of file: FileDescriptor) throws(SystemCallError) -> Stat {
        do {
            return try file.stat()
        } catch {
            throw SystemCallError("fstat", error)
        }
    }

    /// `read(2)` into `buffer`, retried when interrupted; 0 at the end of the file.
    package static func read(_ file: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try system("read") { try file.read(into: buffer, retryOnInterrupt: true) }
    }

    /// `read(2)` once, not retried: an interrupted or would-block read throws.
    package static func readOnce(_ file: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try system("read") { try file.read(into: buffer, retryOnInterrupt: false) }
    }

    /// Up to `count` bytes at `offset` (`pread(2)`); fewer at the end of the file.
    package static func read(_ file: FileDescriptor, count: Int, at offset: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try system("pread") {
            try bytes.withUnsafeMutableBytes { try file.read(fromAbsoluteOffset: Int64(offset), into: $0) }
        }
        bytes.removeSubrange(got...)
        return bytes
    }

    /// `write(2)` once, retried when interrupted: how many bytes went.
    package static func write(_ file: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try system("write") { try file.write(bytes, retryOnInterrupt: true) }
    }

    /// Writes all of `bytes`, however many `write(2)`s it takes. A write that makes no progress
    /// (a full disk) throws `ENOSPC`.
    package static func writeAll(_ file: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let n = try write(file, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            guard n > 0 else { throw SystemCallError("write", .noSpace) }
            offset += n
        }
    }

    /// Writes all of `bytes`, however many `write(2)`s it takes.
    package static func writeAll(_ file: FileDescriptor, _ bytes: [UInt8]) throws(SystemCallError) {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(SystemCallError) in try writeAll(file, buffer) } }
        try result.get()
    }

    /// `pwrite(2)` of all of `bytes` at `offset`.
    package static func write(_ file: FileDescriptor, _ bytes: [UInt8], at offset: Int) throws(SystemCallError) {
        _ = try system("pwrite") { try file.writeAll(toAbsoluteOffset: Int64(offset), bytes) }
    }

    /// `ftruncate(2)`.
    package static func truncate(_ file: FileDescriptor, to size: Int64) throws(SystemCallError) {
        try system("ftruncate") { try file.resize(to: size, retryOnInterrupt: true) }
    }

    /// `close(2)`; its failure is not reported (the descriptor is gone either way).
    package static func close(_ file: FileDescriptor) {
        try? file.close()
    }
}
