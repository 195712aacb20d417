internal import CDBus

/// The header fields of a received message, copied out of it (libdbus's strings live only as long
/// as the message).
struct MessageHeader: Sendable {
    /// `DBUS_MESSAGE_TYPE_*`: 1 method call, 2 method return, 3 error, 4 signal.
    var type: Int32
    var serial: UInt32
    var replySerial: UInt32
    var sender: String?
    var path: String?
    var interface: String?
    var member: String?
    var errorName: String?
    var signature: String
    /// The caller asked for no reply (`NO_REPLY_EXPECTED`).
    var noReply: Bool

    static let methodCall: Int32 = 1
    static let methodReturn: Int32 = 2
    static let error: Int32 = 3
    static let signal: Int32 = 4

    init(_ message: OpaquePointer) {
        type = dbus_message_get_type(message)
        serial = dbus_message_get_serial(message)
        replySerial = dbus_message_get_reply_serial(message)
        sender = Self.text(dbus_message_get_sender(message))
        path = Self.text(dbus_message_get_path(message))
        interface = Self.text(dbus_message_get_interface(message))
        member = Self.text(dbus_message_get_member(message))
        errorName = Self.text(dbus_message_get_error_name(message))
        signature = Self.text(dbus_message_get_signature(message)) ?? ""
        noReply = dbus_message_get_no_reply(message) != 0
    }

    private static func text(_ characters: UnsafePointer<CChar>?) -> String? {
        characters.map { String(cString: $0) }
    }
}

/// Makes the messages NotiplayDBus sends. Each returns a new message the caller owns (one
/// reference, to `dbus_message_unref` once sent), or `nil` when a name is malformed, a value
/// cannot be written or memory ran out; names are checked before libdbus sees them.
enum MessageFactory {
    /// A method call.
    static func call(_ call: DBusCall) -> OpaquePointer? {
        guard DBusNames.isBusName(call.destination), DBusNames.isObjectPath(call.path),
            DBusNames.isInterface(call.interface), DBusNames.isMember(call.member)
        else { return nil }
        let message = call.destination.withCString { destination in
            call.path.withCString { path in
                call.interface.withCString { interface in
                    call.member.withCString { dbus_message_new_method_call(destination, path, interface, $0) }
                }
            }
        }
        return filled(message, call.arguments)
    }

    /// The return of the call `replySerial` from `destination`, with `values`.
    static func methodReturn(replySerial: UInt32, destination: String?, values: [DBusValue]) -> OpaquePointer? {
        guard let message = reply(type: MessageHeader.methodReturn, replySerial: replySerial, destination: destination)
        else { return nil }
        return filled(message, values)
    }

    /// The error reply to the call `replySerial` from `destination`: `failure`'s name (when it is
    /// not a valid error name, `org.freedesktop.DBus.Error.Failed`) and its message as the one
    /// argument.
    static func error(replySerial: UInt32, destination: String?, failure: DBusFailure) -> OpaquePointer? {
        guard let message = reply(type: MessageHeader.error, replySerial: replySerial, destination: destination)
        else { return nil }
        let name = DBusNames.isErrorName(failure.name) ? failure.name : DBusFailure.failedName
        guard name.withCString({ dbus_message_set_error_name(message, $0) }) != 0 else {
            dbus_message_unref(message)
            return nil
        }
        let text = String(failure.message.unicodeScalars.filter { $0 != "\0" })
        return filled(message, [.string(text)])
    }

    /// A signal, broadcast or sent to its destination.
    static func signal(_ signal: DBusSignal) -> OpaquePointer? {
        guard signal.problem == nil else { return nil }
        let message = signal.path.withCString { path in
            signal.interface.withCString { interface in
                signal.member.withCString { dbus_message_new_signal(path, interface, $0) }
            }
        }
        guard let message else { return nil }
        if let destination = signal.destination,
            destination.withCString({ dbus_message_set_destination(message, $0) }) == 0
        {
            dbus_message_unref(message)
            return nil
        }
        return filled(message, signal.arguments)
    }

    /// A method return or error message, with its reply serial and destination set.
    private static func reply(type: Int32, replySerial: UInt32, destination: String?) -> OpaquePointer? {
        guard let message = dbus_message_new(type) else { return nil }
        dbus_message_set_no_reply(message, 1)
        var set = dbus_message_set_reply_serial(message, replySerial) != 0
        if set, let destination {
            set = DBusNames.isBusName(destination) && destination.withCString { dbus_message_set_destination(message, $0) } != 0
        }
        guard set else {
            dbus_message_unref(message)
            return nil
        }
        return message
    }

    /// `message` with `values` appended, or `nil` (and it is unreferenced) when they cannot be.
    private static func filled(_ message: OpaquePointer?, _ values: [DBusValue]) -> OpaquePointer? {
        guard let message else { return nil }
        guard MessageWriter.append(values, to: message) else {
            dbus_message_unref(message)
            return nil
        }
        return message
    }
}
