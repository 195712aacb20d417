internal import CDBus

/// The one way NotiplayDBus opens and closes a connection to a bus, by libdbus's rules for a
/// private connection: `dbus_connection_open_private` and `dbus_bus_register` (the bus's `Hello`),
/// never exiting the process when the bus goes away; later `dbus_connection_close` then
/// `dbus_connection_unref`, once each (libdbus aborts on an unref of a private connection still
/// open, and a shared one must never be closed).
enum RawConnection {
    /// Opens a private connection to the bus at `address` and registers with it; blocks until the
    /// bus answered (libdbus's default of 25 s at most).
    static func open(address: String) throws(DBusFailure) -> OpaquePointer {
        _ = dbus_threads_init_default()
        guard !address.utf8.contains(0) else { throw .failed("the bus address holds a NUL character") }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = address.withCString({ dbus_connection_open_private($0, &error) }) else {
            throw failure(&error, otherwise: "cannot connect to the bus at \(address)")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0 else {
            let failure = failure(&error, otherwise: "the bus at \(address) did not register this connection")
            close(connection)
            throw failure
        }
        return connection
    }

    /// Closes `connection` and drops the reference `open` returned. Call once; the pointer is
    /// dangling afterwards.
    static func close(_ connection: OpaquePointer) {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// The unique name the bus gave the connection (`:1.42`).
    static func uniqueName(_ connection: OpaquePointer) -> String {
        dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
    }

    /// The failure libdbus set in `error`, or a `Failed` saying `otherwise` when it set none.
    static func failure(_ error: inout DBusError, otherwise: String) -> DBusFailure {
        guard dbus_error_is_set(&error) != 0 else { return .failed(otherwise) }
        let name = error.name.map { String(cString: $0) } ?? DBusFailure.failedName
        let message = error.message.map { String(cString: $0) } ?? otherwise
        return DBusFailure(name: name, message: message)
    }
}
