import NotiplaySystem
import SystemPackage

/// Where `serve --freedesktop` finds the session bus, the way libdbus itself does:
/// `DBUS_SESSION_BUS_ADDRESS` when it is set and not empty, else the socket systemd's user
/// session (and dbus-broker, and `dbus-daemon --session` started by it) listens on,
/// `$XDG_RUNTIME_DIR/bus`, when that is a socket the user owns. That second place is what a login
/// over ssh has: the runtime folder and its bus, no variable naming it.
enum SessionBusAddress {
    /// The address to connect to, or `nil` when there is no session bus to be found.
    static func find(in environment: [String: String], userID: UInt32 = Posix.userID) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        let path = (runtime.hasSuffix("/") ? runtime : runtime + "/") + "bus"
        // Followed through a link, as libdbus's own connect() does.
        guard let status = try? Posix.status(of: path), status.type == .socket, status.userID.rawValue == userID else {
            return nil
        }
        return "unix:path=" + escaped(path)
    }

    /// Why there is no session bus, for the error message.
    static let missing =
        "no session bus: DBUS_SESSION_BUS_ADDRESS is not set, and $XDG_RUNTIME_DIR/bus is not a socket of yours; "
        + "run it inside a desktop session, a systemd user session, or dbus-run-session"

    /// `value` as a D-Bus address value: bytes other than `[-0-9A-Za-z_/.\*]` as `%XX`.
    static func escaped(_ value: String) -> String {
        var text = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789abcdef".unicodeScalars)
                text.unicodeScalars.append("%")
                text.unicodeScalars.append(digits[Int(byte >> 4)])
                text.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return text
    }
}
