public import NotiplayCore

/// What a notification's sound hints ask for, before any file is looked at: read by
/// ``FreedesktopMapping`` from `suppress-sound`, `sound-file` and `sound-name`.
public struct SoundRequest: Sendable, Hashable {
    /// `suppress-sound` was true: no sound at all, whatever else is asked.
    public var suppressed: Bool
    /// `sound-file`, as a local absolute path (a `file://` URL decoded), when it named one.
    public var file: String?
    /// `sound-name`, when it was a usable name.
    public var themeName: String?
    /// Whether `sound-file` or `sound-name` was given as a string, usable or not: a client that
    /// asked for a particular sound does not get the default one instead.
    public var named: Bool

    /// A request.
    public init(suppressed: Bool = false, file: String? = nil, themeName: String? = nil, named: Bool? = nil) {
        self.suppressed = suppressed
        self.file = file
        self.themeName = themeName
        self.named = named ?? (file != nil || themeName != nil)
    }
}

/// Reads `sound-file` values: a local absolute path, or a `file://` URL naming one.
public enum SoundFileHint {
    /// The local path `value` names, or why it names none.
    ///
    /// Accepted: an absolute path (`/home/me/done.oga`), and a `file://` URL with an empty host
    /// or `localhost` whose path is percent-decoded (`file:///tmp/a%20b.wav` is `/tmp/a b.wav`;
    /// a `?query` or `#fragment` is dropped; the short form `file:/tmp/a.wav` too). Refused: other URLs (`http://`, `https://`…: the
    /// server plays local files only), relative paths and `~/…` (the server's working folder
    /// and home are not the client's), `file://` URLs naming another host or with a broken
    /// `%` escape, empty values, and paths holding a NUL.
    public static func localPath(_ value: String) -> Result<String, SoundRefusal> {
        func refuse(_ why: String) -> Result<String, SoundRefusal> {
            .failure(SoundRefusal(Diagnostic(key: "hints.sound-file", "\"\(value)\" \(why); the card has no sound from it")))
        }
        guard !value.isEmpty else { return refuse("is empty") }
        guard !value.utf8.contains(0) else { return refuse("holds a NUL byte") }
        if value.hasPrefix("/") { return .success(value) }
        if value.hasPrefix("file:/") && !value.hasPrefix("file://") {
            return fileURLPath(String(value.dropFirst("file:".count)), refuse: refuse)
        }
        if let colon = value.firstIndex(of: ":"), value[value.index(after: colon)...].hasPrefix("//"),
            value[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        {
            let scheme = value[..<colon].lowercased()
            guard scheme == "file" else {
                return refuse("is a \(TerminalText.clean(scheme)):// URL; only local files are played (a path or a file:// URL)")
            }
            return fileURLPath(String(value[value.index(colon, offsetBy: 3)...]), refuse: refuse)
        }
        return refuse("is not an absolute path; a relative path means nothing to the server (give /… or file:///…)")
    }

    /// The path of a `file://` URL, after `file://` (or of `file:/…`, after `file:`).
    private static func fileURLPath(
        _ rest: String, refuse: (String) -> Result<String, SoundRefusal>
    ) -> Result<String, SoundRefusal> {
        var rest = Substring(rest)
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        guard let slash = rest.firstIndex(of: "/") else { return refuse("is a file:// URL without a path") }
        let host = rest[..<slash].lowercased()
        guard host.isEmpty || host == "localhost" else {
            return refuse("names the host \"\(host)\"; only local files are played")
        }
        guard let path = percentDecoded(rest[slash...]) else { return refuse("has a broken %-escape") }
        guard !path.utf8.contains(0) else { return refuse("holds a NUL byte") }
        return .success(path)
    }

    /// `text` with its `%XX` escapes decoded as UTF-8; `nil` when an escape is broken or the
    /// bytes are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The freedesktop sound theme, as `sound-name` looks sounds up in it: the file
/// `DIR/sounds/freedesktop/stereo/NAME.oga` (then `.ogg`, `.wav`) in the first data folder that
/// has it.
///
/// A name is a plain file name (not empty, no `/`, not `.` or `..`). As the Sound Naming
/// Specification says, a name missing from the theme falls back to its less specific names by
/// dropping `-parts` from its end: `message-new-email` is looked for as `message-new-email`,
/// then `message-new`, then `message`.
public struct SoundTheme: Sendable, Hashable {
    /// The data folders, in order: `$XDG_DATA_HOME` then `$XDG_DATA_DIRS`, as the caller read
    /// them (this type reads no environment).
    public var dataDirectories: [String]

    /// The extensions tried, in order.
    public static let extensions = ["oga", "ogg", "wav"]
    /// The theme's folder under each data folder.
    public static let themeFolder = "sounds/freedesktop/stereo"

    /// A theme looked for in `dataDirectories`.
    public init(dataDirectories: [String]) {
        self.dataDirectories = dataDirectories
    }

    /// Whether `name` may be looked up: a plain file name.
    public static func isUsableName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.utf8.contains(0)
    }

    /// The path of the theme's file for `name` (or for a less specific name), or `nil` when the
    /// theme has none or the name is not usable. Only looks at names; the file is validated by
    /// the caller.
    public func path(for name: String) -> String? {
        guard Self.isUsableName(name) else { return nil }
        var candidate = Substring(name)
        while true {
            for directory in dataDirectories where !directory.isEmpty {
                for ext in Self.extensions {
                    let path = Path.join(Path.join(directory, Self.themeFolder), "\(candidate).\(ext)")
                    if Path.exists(path) { return path }
                }
            }
            guard let dash = candidate.lastIndex(of: "-"), dash != candidate.startIndex else { return nil }
            candidate = candidate[..<dash]
        }
    }
}

/// Why a sound hint gave no file: the warning to report.
public struct SoundRefusal: Error, Sendable, Hashable {
    /// The warning, keyed by the hint (`hints.sound-file`).
    public var warning: Diagnostic

    /// A refusal with its warning.
    public init(_ warning: Diagnostic) {
        self.warning = warning
    }
}
