/// What `GetServerInformation` and `GetCapabilities` answer.
public struct ServerInformation: Sendable, Hashable {
    /// The server's name: `notiplay`.
    public var name: String
    /// The vendor: `notiplay`.
    public var vendor: String
    /// The server's version: notiplay's version (the command line's `NotiplayCLI.version`,
    /// which this module cannot see, so the caller passes it).
    public var version: String
    /// The version of the specification implemented: `1.2`.
    public var specVersion: String

    /// The answer for notiplay at `version`.
    public static func notiplay(version: String) -> ServerInformation {
        ServerInformation(name: "notiplay", vendor: "notiplay", version: version, specVersion: specVersion)
    }

    /// The specification version implemented.
    public static let specVersion = "1.2"

    /// What `GetCapabilities` returns, in this order:
    /// - `actions`: buttons, and the default action on Enter;
    /// - `body`: the body is shown;
    /// - `body-markup`: `<b>`, `<i>`, `<u>` drawn, the rest stripped;
    /// - `body-hyperlinks`: `<a href>` kept as links;
    /// - `persistence`: notifications stay in the center (its history and `list`) until closed;
    /// - `sound`: `sound-file` and `sound-name` are played, `suppress-sound` honoured;
    /// - `inline-reply`: KDE's text field for the `inline-reply` action.
    ///
    /// Not advertised: `body-images` (`<img>` is stripped), `icon-static` and `icon-multi`
    /// (icons are listed, not drawn), `action-icons`.
    public static let capabilities = [
        "actions", "body", "body-markup", "body-hyperlinks", "persistence", "sound", "inline-reply",
    ]

    /// An answer with every field given.
    public init(name: String, vendor: String, version: String, specVersion: String) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
    }
}
