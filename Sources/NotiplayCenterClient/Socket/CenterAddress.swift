/// Where the server of a user's session listens, and which app a program speaks for: the rules
/// `notiplay serve`, `notiplay send` and an app's `UNUserNotificationCenter` share.
///
/// Both take the environment as a dictionary; the caller reads the process's own (the command
/// line through `processEnvironment`, an app through `UNUserNotificationCenter.current()`).
public enum CenterAddress {
    /// The socket's path: `$XDG_RUNTIME_DIR/notiplay/center.sock` when `XDG_RUNTIME_DIR` is an
    /// absolute path, else `/tmp/notiplay-UID/center.sock`.
    /// - Parameters:
    ///   - environment: The environment variables to read.
    ///   - userID: The user whose server it is (the process's real user id).
    public static func socketPath(environment: [String: String], userID: UInt32) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? runtime : runtime + "/") + "notiplay/center.sock"
        }
        return "/tmp/notiplay-\(userID)/center.sock"
    }

    /// The app a program speaks for: `$NOTIPLAY_APP` when set and not empty, else the
    /// program's name (the last path component of `argv[0]`). The server matches it to a
    /// registered app ignoring case, spaces and punctuation (``appKey(_:)``), so a program named
    /// `custom-number` speaks for "Custom Number".
    /// - Parameters:
    ///   - environment: The environment variables to read.
    ///   - programPath: `argv[0]`.
    public static func appName(environment: [String: String], programPath: String) -> String {
        if let name = environment["NOTIPLAY_APP"], !name.isEmpty { return name }
        let last = programPath.split(separator: "/").last.map(String.init) ?? ""
        return last.isEmpty ? "notiplay" : last
    }

    /// An app's name as names are matched: lower case, letters and digits only
    /// (`"Custom Number"` and `custom-number` are both `customnumber`).
    public static func appKey(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil })
    }
}
