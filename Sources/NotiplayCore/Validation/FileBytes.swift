internal import NotiplaySystem
internal import SystemPackage

/// Reads small input files (payloads, manifests, app files) whole, refusing what is not a regular
/// file or is larger than a cap, so a stray `/dev/zero` or a 2 GB file cannot stall a command.
enum FileBytes {
    /// The contents of `path`.
    /// - Parameters:
    ///   - path: The path as the user wrote it.
    ///   - cap: The largest size read; larger files are an error.
    ///   - what: What the file should be, for messages (`"a payload"`).
    ///   - acceptingPipes: Whether a pipe (`/dev/stdin` in a pipeline, a shell's `<(…)`) is read
    ///     too, to its end or past `cap` (an error) — only for a path the user names on the command
    ///     line, never for one found in a folder, where a FIFO would stall whoever reads it.
    static func contents(of path: String, cap: Int, what: String, acceptingPipes: Bool = false) throws(InvalidFileError) -> [UInt8] {
        func fail(_ message: String, missing: Bool = false) -> InvalidFileError {
            InvalidFileError(file: path, isMissing: missing, errors: [Diagnostic(key: nil, message)])
        }
        guard !path.isEmpty, !path.utf8.contains(0) else { throw fail("is not a usable path") }
        let file: FileDescriptor
        do {
            file = try Posix.open(path, .readOnly, options: [.closeOnExec, .noControllingTerminal, .nonBlocking])
        } catch {
            if error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory {
                throw fail("no such file", missing: true)
            }
            throw fail("cannot be read: \(LocalFile.text(error))")
        }
        defer { Posix.close(file) }
        let info: Stat
        do { info = try Posix.status(of: file) } catch { throw fail("cannot be read: \(LocalFile.text(error))") }
        if info.type == .fifo && acceptingPipes {
            let bytes: [UInt8]
            do { bytes = try Posix.readToEnd(file, limit: cap) } catch { throw fail("cannot be read: \(LocalFile.text(error))") }
            if let problem = streamProblem(bytes, cap: cap, what: what) { throw fail(problem) }
            return bytes
        }
        guard info.type == .regular else { throw fail("is \(LocalFile.describe(info.type)), not \(what)") }
        let size = Int(info.size)
        guard size <= cap else {
            throw fail("is \(size) bytes; \(what) file may not be larger than \(cap) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let result = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) in
                    try Posix.read(file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
                }
            }
            let n: Int
            do { n = try result.get() } catch { throw fail("cannot be read: \(LocalFile.text(error))") }
            if n == 0 { break }
            done += n
        }
        if done < size { bytes.removeSubrange(done...) }
        return bytes
    }

    /// What is wrong with `bytes` read from a stream with a limit of `cap` (`cap + 1` of them: it
    /// goes on past the cap), or `nil`.
    static func streamProblem(_ bytes: [UInt8], cap: Int, what: String) -> String? {
        bytes.count > cap ? "is more than \(cap) bytes; \(what) may not be larger than \(cap) bytes" : nil
    }
}
