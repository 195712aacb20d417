internal import CDBus
import Synchronization

/// A method call to make: to a bus name, an object, an interface's method, with arguments.
package struct DBusCall: Sendable, Hashable {
    /// The bus name called, as in `org.freedesktop.Notifications`.
    package var destination: String
    /// The object path, as in `/org/freedesktop/Notifications`.
    package var path: String
    /// The interface, as in `org.freedesktop.Notifications`.
    package var interface: String
    /// The method, as in `Notify`.
    package var member: String
    /// The arguments, in order.
    package var arguments: [DBusValue]

    /// A call of `interface`'s `member` on the object at `path` of `destination`.
    package init(destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = []) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// Why the call cannot be sent (a malformed name, a value that cannot be written), or `nil`.
    package var problem: String? {
        if !DBusNames.isBusName(destination) { return "“\(destination)” is not a bus name" }
        if !DBusNames.isObjectPath(path) { return "“\(path)” is not an object path" }
        if !DBusNames.isInterface(interface) { return "“\(interface)” is not an interface name" }
        if !DBusNames.isMember(member) { return "“\(member)” is not a member name" }
        return arguments.lazy.compactMap(\.encodingProblem).first
    }
}

/// A message a ``DBusClient`` received.
package enum DBusReceived: Sendable, Hashable {
    /// The return of the call sent with serial `serial`.
    case reply(serial: UInt32, values: [DBusValue])
    /// The error reply to the call sent with serial `serial` (or the reply could not be read).
    case error(serial: UInt32, DBusFailure)
    /// A signal, from `sender` (a unique name, or `org.freedesktop.DBus` for the bus).
    case signal(sender: String?, DBusSignal)
}

/// A plain, blocking D-Bus client: calls methods and waits for their replies, or sends calls and
/// collects their replies and the signals it subscribed to later. Every method blocks the calling
/// thread (at most for its timeout) and callers take turns: use it from a thread of its own, or
/// for short calls. For tests, tools, and asking another server something.
package final class DBusClient: Sendable {
    /// The name the bus gave this connection (`:1.42`).
    package let uniqueName: String
    /// The open connection, `nil` once closed; every libdbus call holds the lock.
    private let connection: Mutex<LockedConnection?>

    /// Connects to the bus at `address` and registers with it.
    package init(address: String) throws(DBusFailure) {
        let opened = try RawConnection.open(address: address)
        uniqueName = RawConnection.uniqueName(opened)
        connection = Mutex(LockedConnection(pointer: opened))
    }

    /// Calls a method and waits for its reply.
    /// - Returns: The reply's values.
    /// - Throws: The error reply (`failure.name` as the server named it), `NoReply` after
    ///   `timeout`, or `InvalidArgs` for a call that cannot be sent.
    package func call(_ call: DBusCall, timeout: Duration = .seconds(30)) throws(DBusFailure) -> [DBusValue] {
        let reply: Result<[DBusValue], DBusFailure> = try withConnection { connection in
            guard let message = MessageFactory.call(call) else {
                return .failure(.invalidArgs(call.problem ?? "out of memory"))
            }
            defer { dbus_message_unref(message) }
            var error = DBusError()
            dbus_error_init(&error)
            defer { dbus_error_free(&error) }
            let milliseconds = Self.milliseconds(timeout)
            guard let reply = dbus_connection_send_with_reply_and_block(connection, message, milliseconds, &error) else {
                return .failure(RawConnection.failure(&error, otherwise: "no reply to \(call.member)"))
            }
            defer { dbus_message_unref(reply) }
            return Result { () throws(DBusFailure) in try MessageReader.arguments(of: reply) }
        }
        return try reply.get()
    }

    /// Sends a method call without waiting; its reply comes through ``receive(timeout:)``.
    /// - Returns: The call's serial, which its reply names.
    package func send(_ call: DBusCall) throws(DBusFailure) -> UInt32 {
        try withConnection { connection throws(DBusFailure) in
            guard let message = MessageFactory.call(call) else { throw .invalidArgs(call.problem ?? "out of memory") }
            defer { dbus_message_unref(message) }
            var serial: UInt32 = 0
            guard dbus_connection_send(connection, message, &serial) != 0 else { throw .failed("out of memory") }
            return serial
        }
    }

    /// Subscribes to the messages a match rule selects (`type='signal',interface='…'`), through
    /// the bus's `AddMatch`; they come through ``receive(timeout:)``.
    package func addMatch(_ rule: String) throws(DBusFailure) {
        guard !rule.utf8.contains(0) else { throw .invalidArgs("the match rule holds a NUL character") }
        try withConnection { connection throws(DBusFailure) in
            var error = DBusError()
            dbus_error_init(&error)
            defer { dbus_error_free(&error) }
            rule.withCString { dbus_bus_add_match(connection, $0, &error) }
            if dbus_error_is_set(&error) != 0 { throw RawConnection.failure(&error, otherwise: "AddMatch failed") }
        }
    }

    /// The next reply or signal received (method calls made to this client are dropped), or `nil`
    /// when none came within `timeout`.
    /// - Throws: `Disconnected` when the bus went away.
    package func receive(timeout: Duration) throws(DBusFailure) -> DBusReceived? {
        let deadline = ContinuousClock.now + timeout
        return try withConnection { connection throws(DBusFailure) in
            while true {
                if let message = dbus_connection_pop_message(connection) {
                    defer { dbus_message_unref(message) }
                    if let received = Self.received(message) { return received }
                    continue
                }
                guard dbus_connection_get_is_connected(connection) != 0 else { throw .disconnected("the bus went away") }
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return nil }
                dbus_connection_read_write(connection, Self.milliseconds(left))
            }
        }
    }

    /// Closes the connection (at once; also when the client is released). Later calls throw
    /// `Disconnected`.
    package func close() {
        connection.withLock { connection in
            if let open = connection { RawConnection.close(open.pointer) }
            connection = nil
        }
    }

    deinit {
        close()
    }

    private func withConnection<Value>(
        _ body: (OpaquePointer) throws(DBusFailure) -> Value
    ) throws(DBusFailure) -> Value {
        try connection.withLock { connection throws(DBusFailure) in
            guard let open = connection else { throw .disconnected("the client is closed") }
            return try body(open.pointer)
        }
    }

    private static func received(_ message: OpaquePointer) -> DBusReceived? {
        let header = MessageHeader(message)
        let values = Result { () throws(DBusFailure) in try MessageReader.arguments(of: message) }
        switch header.type {
        case MessageHeader.methodReturn:
            switch values {
            case .success(let values): return .reply(serial: header.replySerial, values: values)
            case .failure(let failure): return .error(serial: header.replySerial, failure)
            }
        case MessageHeader.error:
            let message = (try? values.get())?.first?.string ?? ""
            let failure = DBusFailure(name: header.errorName ?? DBusFailure.failedName, message: message)
            return .error(serial: header.replySerial, failure)
        case MessageHeader.signal:
            guard case .success(let values) = values, let path = header.path, let interface = header.interface,
                let member = header.member
            else { return nil }
            let signal = DBusSignal(path: path, interface: interface, member: member, arguments: values)
            return .signal(sender: header.sender, signal)
        default:
            return nil
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}

/// The client's connection, used only with the client's lock held: hence `@unchecked`.
private struct LockedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}
