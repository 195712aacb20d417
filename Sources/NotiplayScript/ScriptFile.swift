internal import NotiplaySystem
internal import SystemPackage

/// Reading a script file whole, and checking that it is text.
enum ScriptFile {
    /// The bytes of the regular file at `path`, at most `cap` of them.
    /// - Throws: A ``ScriptError`` at line 0, column 0 for a missing, unreadable, special or
    ///   too large file. The file is opened without blocking, so a FIFO cannot stall the caller.
    static func contents(of path: String, cap: Int) throws(ScriptError) -> [UInt8] {
        func fail(_ message: String) -> ScriptError {
            ScriptError(path: path, line: 0, column: 0, message: message)
        }
        func tooLarge(_ size: Int) -> ScriptError {
            fail("is \(size) bytes; a playback script may be at most 1 MB (\(cap) bytes)")
        }
        guard !path.isEmpty, !path.utf8.contains(0) else { throw fail("is not a usable path") }
        let file: FileDescriptor
        do {
            file = try Posix.open(path, .readOnly, options: [.closeOnExec, .noControllingTerminal, .nonBlocking])
        } catch {
            if error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory { throw fail("no such file") }
            throw fail("cannot be read: \(error.reason)")
        }
        defer { Posix.close(file) }
        let info: Stat
        do { info = try Posix.status(of: file) } catch { throw fail("cannot be read: \(error.reason)") }
        switch info.type {
        case .regular: break
        case .directory: throw fail("is a directory, not a playback script")
        default: throw fail("is not a regular file, so not a playback script")
        }
        guard Int(info.size) <= cap else { throw tooLarge(Int(info.size)) }
        // Read to the end, whatever fstat said: a file that grew since is still caught.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) in try Posix.read(file, into: buffer) }
            }
            let n: Int
            do { n = try result.get() } catch { throw fail("cannot be read: \(error.reason)") }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            guard bytes.count <= cap else { throw tooLarge(bytes.count) }
        }
        return bytes
    }

    /// `bytes` as a string.
    /// - Throws: A ``ScriptError`` at the line and column of the first NUL byte or invalid UTF-8
    ///   sequence (columns count Unicode scalars, as the parser's do; a leading byte-order mark is
    ///   not counted).
    static func decode(_ bytes: [UInt8], path: String) throws(ScriptError) -> String {
        var line = 1
        var column = 1
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte < 0x80 {
                if byte == 0 {
                    throw ScriptError(
                        path: path, line: line, column: column,
                        message: "NUL byte: a playback script is text, and this looks like a binary file")
                }
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                i += 1
                continue
            }
            guard let length = sequenceLength(bytes, at: i) else {
                let hex = String(byte, radix: 16, uppercase: true)
                throw ScriptError(
                    path: path, line: line, column: column,
                    message: "not UTF-8 text (byte 0x\(hex.count < 2 ? "0" : "")\(hex)); save the script as UTF-8")
            }
            i += length
            column += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The length of the well-formed UTF-8 sequence whose first byte (0x80 or more) is at `at`,
    /// or nil: a stray continuation byte, an overlong form, a surrogate, a value past U+10FFFF,
    /// or a sequence that is cut short.
    static func sequenceLength(_ bytes: [UInt8], at: Int) -> Int? {
        let lead = bytes[at]
        let length: Int
        var value: UInt32
        let smallest: UInt32
        switch lead {
        case 0xC2...0xDF: (length, value, smallest) = (2, UInt32(lead & 0x1F), 0x80)
        case 0xE0...0xEF: (length, value, smallest) = (3, UInt32(lead & 0x0F), 0x800)
        case 0xF0...0xF4: (length, value, smallest) = (4, UInt32(lead & 0x07), 0x1_0000)
        default: return nil
        }
        guard bytes.count - at >= length else { return nil }
        for k in 1..<length {
            let next = bytes[at + k]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= smallest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
        return length
    }
}
