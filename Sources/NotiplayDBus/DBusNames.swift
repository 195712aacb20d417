internal import CDBus

/// libdbus aborts the process on a malformed name or path handed to it (a "check failed"), so
/// every name that reaches it from Swift is checked first, with its own validators (which only
/// answer).
enum DBusNames {
    /// Whether `text` is an object path (`/org/freedesktop/Notifications`).
    static func isObjectPath(_ text: String) -> Bool {
        valid(text) { dbus_validate_path($0, nil) }
    }

    /// Whether `text` is an interface name (`org.freedesktop.Notifications`).
    static func isInterface(_ text: String) -> Bool {
        valid(text) { dbus_validate_interface($0, nil) }
    }

    /// Whether `text` is a member (method or signal) name (`Notify`).
    static func isMember(_ text: String) -> Bool {
        valid(text) { dbus_validate_member($0, nil) }
    }

    /// Whether `text` is an error name (`org.freedesktop.DBus.Error.Failed`).
    static func isErrorName(_ text: String) -> Bool {
        valid(text) { dbus_validate_error_name($0, nil) }
    }

    /// Whether `text` is a bus name, well-known (`org.freedesktop.Notifications`) or unique (`:1.42`).
    static func isBusName(_ text: String) -> Bool {
        valid(text) { dbus_validate_bus_name($0, nil) }
    }

    /// Whether `text` is a well-known bus name: a bus name that is not unique.
    static func isWellKnownName(_ text: String) -> Bool {
        isBusName(text) && !text.hasPrefix(":")
    }

    /// Whether `text` is a valid signature of values (`"susssasa{sv}i"`, or empty).
    static func isSignature(_ text: String) -> Bool {
        valid(text) { dbus_signature_validate($0, nil) }
    }

    private static func valid(_ text: String, _ check: (UnsafePointer<CChar>) -> dbus_bool_t) -> Bool {
        guard !text.utf8.contains(0) else { return false }
        return text.withCString { check($0) != 0 }
    }
}
