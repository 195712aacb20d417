#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads small input files (payloads, manifests, app files) whole, refusing what is not a regular
/// file or is larger than a cap, so a stray `/dev/zero` or a 2 GB file cannot stall a command.
enum FileBytes {
    /// The contents of `path`.
    /// - Parameters:
    ///   - path: The path as the user wrote it.
    ///   - cap: The largest size read; larger files are an error.
    ///   - what: What the file should be, for messages (`"a payload"`).
    static func contents(of path: String, cap: Int, what: String) throws(InvalidFileError) -> [UInt8] {
        func fail(_ message: String, missing: Bool = false) -> InvalidFileError {
            InvalidFileError(file: path, isMissing: missing, errors: [Diagnostic(key: nil, message)])
        }
        guard !path.isEmpty, !path.utf8.contains(0) else { throw fail("is not a usable path") }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw fail("no such file", missing: true) }
            throw fail("cannot be read: \(LocalFile.errnoText(code))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw fail("cannot be read: \(LocalFile.errnoText())") }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else { throw fail("is \(LocalFile.describe(type)), not \(what)") }
        let size = Int(info.st_size)
        guard size <= cap else {
            throw fail("is \(size) bytes; \(what) file may not be larger than \(cap) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("cannot be read: \(LocalFile.errnoText())")
            }
            if n == 0 { break }
            done += n
        }
        if done < size { bytes.removeSubrange(done...) }
        return bytes
    }
}
