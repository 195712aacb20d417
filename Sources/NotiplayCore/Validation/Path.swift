package import NotiplaySystem
internal import SystemPackage

/// Small path helpers (the core module does without Foundation).
public enum Path {
    /// The folder part of `path` (`.` when there is none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The file's name without its folder and extension (`memo` for `a/memo.apns`).
    public static func stem(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The last component of `path`, trailing slashes ignored.
    public static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `path` if absolute, else `base/path`.
    public static func resolve(_ path: String, against base: String) -> String {
        if path.hasPrefix("/") { return path }
        if base == "." || base.isEmpty { return path }
        return base.hasSuffix("/") ? base + path : base + "/" + path
    }

    /// `base/name`.
    public static func join(_ base: String, _ name: String) -> String {
        base.hasSuffix("/") ? base + name : base + "/" + name
    }

    /// Whether `path` is a directory (after following links).
    public static func isDirectory(_ path: String) -> Bool {
        (try? Posix.status(of: path))?.type == .directory
    }

    /// Whether something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        (try? Posix.status(of: path)) != nil
    }

    /// The names in a directory, sorted, without `.` and `..`; `nil` if it cannot be read.
    public static func entries(of directory: String) -> [String]? {
        try? Posix.entries(of: directory).sorted()
    }

    /// The names in a directory, sorted, without `.` and `..`.
    /// - Throws: The system's reason when it cannot be read.
    package static func listing(of directory: String) throws(SystemCallError) -> [String] {
        try Posix.entries(of: directory).sorted()
    }
}
