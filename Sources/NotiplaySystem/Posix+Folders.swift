@preconcurrency internal import Glibc  // the calls this file wraps
package import SystemPackage

extension FileDescriptor.OpenOptions {
    /// `O_NOCTTY`: opening a terminal does not make it the process's controlling terminal.
    package static var noControllingTerminal: Self { Self(rawValue: O_NOCTTY) }
}

/// Paths: resolving, listing, making and removing.
extension Posix {
    /// `realpath(3)`: the absolute path, with symbolic links resolved.
    package static func realPath(_ path: String) throws(SystemCallError) -> String {
        guard let resolved = Glibc.realpath(path, nil) else { throw SystemCallError("realpath", lastError) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The names in `folder` (`opendir(3)`, `readdir(3)`), in the order the system gives them,
    /// without `.` and `..`.
    package static func entries(of folder: String) throws(SystemCallError) -> [String] {
        guard let stream = opendir(folder) else { throw SystemCallError("opendir", lastError) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `getcwd(3)`: the process's current folder.
    package static func currentFolder() throws(SystemCallError) -> String {
        guard let pointer = getcwd(nil, 0) else { throw SystemCallError("getcwd", lastError) }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// `mkdir(2)`.
    package static func makeFolder(_ path: String, permissions: FilePermissions) throws(SystemCallError) {
        try call("mkdir") { mkdir(path, permissions.rawValue) }
    }

    /// `mkdtemp(3)`: a new folder, mode 0700, named `prefix` and six random characters.
    package static func makeTemporaryFolder(prefix: String) throws(SystemCallError) -> String {
        var template = Array("\(prefix)XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SystemCallError("mkdtemp", lastError)
        }
        return String(cString: made)
    }

    /// `mkfifo(3)`.
    package static func makeFIFO(_ path: String, permissions: FilePermissions) throws(SystemCallError) {
        try call("mkfifo") { mkfifo(path, permissions.rawValue) }
    }

    /// `chmod(2)`.
    package static func setPermissions(_ path: String, _ permissions: FilePermissions) throws(SystemCallError) {
        try call("chmod") { chmod(path, permissions.rawValue) }
    }

    /// `rename(2)`.
    package static func rename(_ from: String, to: String) throws(SystemCallError) {
        try call("rename") { Glibc.rename(from, to) }
    }

    /// `unlink(2)`.
    package static func removeFile(_ path: String) throws(SystemCallError) {
        try call("unlink") { unlink(path) }
    }

    /// `rmdir(2)`.
    package static func removeFolder(_ path: String) throws(SystemCallError) {
        try call("rmdir") { rmdir(path) }
    }

    /// Whether the C locale's decimal point is `.`, as ``decimalDouble(_:)`` needs.
    package static var decimalPointIsDot: Bool {
        guard let point = localeconv()?.pointee.decimal_point else { return false }
        return point[0] == 0x2E && point[1] == 0
    }

    /// `strtod(3)` of the ASCII number in `bytes` (fewer than 64 of them; check
    /// ``decimalPointIsDot`` first), or `nil` when it does not read all of them. Faster than
    /// `Double(String)`, which makes a heap string first.
    package static func decimalDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        precondition(count < 64)
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> Double? in
            for i in 0..<count { buffer[i] = CChar(bitPattern: bytes[i]) }
            buffer[count] = 0
            var end: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(buffer.baseAddress!, &end)
            guard let end, end - buffer.baseAddress! == count else { return nil }
            return value
        }
    }
}
