/// A D-Bus error: its name and its message, as a bus, a peer or libdbus gives them. Thrown by
/// NotiplayDBus, and sent as the error reply to a method call (``DBusReply/error(_:)``).
package struct DBusFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error's name, as in `org.freedesktop.DBus.Error.InvalidArgs`.
    package var name: String
    /// What went wrong, for a person.
    package var message: String

    /// A failure named `name` (a valid D-Bus error name: an invalid one is sent as
    /// ``failedName`` when replied).
    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The name, then the message.
    package var description: String { "\(name): \(message)" }

    /// `org.freedesktop.DBus.Error.Failed`: a failure with no better name.
    package static let failedName = "org.freedesktop.DBus.Error.Failed"
    /// `org.freedesktop.DBus.Error.InvalidArgs`: the arguments do not have the types the method
    /// takes, or are too large.
    package static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    /// `org.freedesktop.DBus.Error.UnknownMethod`
    package static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    /// `org.freedesktop.DBus.Error.UnknownObject`
    package static let unknownObjectName = "org.freedesktop.DBus.Error.UnknownObject"
    /// `org.freedesktop.DBus.Error.Disconnected`: the connection is closed or was lost.
    package static let disconnectedName = "org.freedesktop.DBus.Error.Disconnected"
    /// `org.freedesktop.DBus.Error.NoReply`: no reply came in time.
    package static let noReplyName = "org.freedesktop.DBus.Error.NoReply"

    /// An `org.freedesktop.DBus.Error.Failed`.
    package static func failed(_ message: String) -> DBusFailure { DBusFailure(name: failedName, message: message) }
    /// An `org.freedesktop.DBus.Error.InvalidArgs`.
    package static func invalidArgs(_ message: String) -> DBusFailure {
        DBusFailure(name: invalidArgsName, message: message)
    }
    /// An `org.freedesktop.DBus.Error.Disconnected`.
    package static func disconnected(_ message: String) -> DBusFailure {
        DBusFailure(name: disconnectedName, message: message)
    }
}

/// Why a well-known name was not obtained.
package enum DBusNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another connection owns the name, and it was not taken: it was asked for without
    /// replacement, or its owner does not allow replacement.
    case exists(String)
    /// The text is not a valid bus name.
    case invalidName(String)
    /// The bus refused or failed the request, or the connection is closed.
    case failed(DBusFailure)

    /// What went wrong, for a person.
    package var description: String {
        switch self {
        case .exists(let name): "the name \(name) is owned by another connection on the bus"
        case .invalidName(let name): "“\(name)” is not a valid D-Bus name"
        case .failed(let failure): "the bus did not give the name: \(failure)"
        }
    }
}
