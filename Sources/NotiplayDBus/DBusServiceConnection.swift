// No Swift D-Bus library is among the machine's packages: NotiplayDBus speaks D-Bus through
// libdbus-1 (CDBus), through its message-iterator API only, as the freedesktop notification
// server's transport.
import NotiplaySystem

/// A connection to a message bus that serves objects: it owns well-known names, answers the method
/// calls made to its objects, and emits signals.
///
/// ```swift
/// let connection = try DBusServiceConnection(address: address, objects: [object]) { event in … }
/// try await connection.requestName("org.freedesktop.Notifications", replace: false)
/// try connection.emit(DBusSignal(path: …, interface: …, member: "NotificationClosed", arguments: [.uint32(7), .uint32(3)]))
/// await connection.stop()
/// ```
///
/// ## Threads
/// The connection has a thread of its own, its loop, the only thread that calls libdbus for it.
/// Every method handler and every ``DBusConnectionEvent`` runs on that thread, one at a time, in
/// the order the messages arrived: code handed to the connection sees one serial context. A
/// handler must not block; it answers through its ``DBusResponder`` at once or later, from any
/// thread. ``emit(_:)``, ``requestName(_:replace:)`` and ``stop()`` may be called from any thread
/// (or task), and hand their work to the loop.
///
/// ## Untrusted callers
/// A call whose signature is not its method's, or that holds a string over 64 KiB or an array
/// over 10,000 elements (``DBusLimits``), gets `org.freedesktop.DBus.Error.InvalidArgs`; a call to
/// an unknown object or method gets `UnknownObject` or `UnknownMethod`; none reaches a handler.
///
/// Call ``stop()`` when done: handlers that hold the connection keep it (and its thread) alive.
package final class DBusServiceConnection: Sendable {
    /// The name the bus gave this connection (`:1.42`).
    package let uniqueName: String
    private let outbox: Outbox

    /// Connects to the bus at `address` (a D-Bus address, as in `DBUS_SESSION_BUS_ADDRESS`),
    /// registers with it, and starts serving `objects` on the loop thread.
    /// - Parameter onEvent: Told, on the loop thread, when a name is lost or the bus goes away.
    /// - Throws: The failure to connect or register, or an `InvalidArgs` for a malformed object.
    package init(
        address: String, objects: [DBusObject], onEvent: @escaping @Sendable (DBusConnectionEvent) -> Void = { _ in }
    ) throws(DBusFailure) {
        if let problem = Router.problem(with: objects) { throw .invalidArgs(problem) }
        let outbox = try Outbox()
        let connection: OpaquePointer
        do {
            connection = try RawConnection.open(address: address)
        } catch {
            _ = outbox.close()
            throw error
        }
        uniqueName = RawConnection.uniqueName(connection)
        let router = Router(objects: objects, onEvent: onEvent)
        let handover = Handover(connection: connection)
        do {
            try SystemThread.detach(name: "D-Bus loop") {
                ServiceLoop.run(connection: handover.connection, router: router, outbox: outbox)
            }
        } catch {
            _ = outbox.close()
            RawConnection.close(connection)
            throw .failed("cannot start the D-Bus thread: \(error)")
        }
        self.outbox = outbox
    }

    /// Asks the bus for the well-known `name` (as in `org.freedesktop.Notifications`), allowing
    /// another connection to take it over later (this connection is then told
    /// ``DBusConnectionEvent/nameLost(_:)``), never waiting in the bus's queue for it.
    /// - Parameter replace: Take the name from its current owner, if that owner allows it.
    /// - Throws: ``DBusNameError/exists(_:)`` when another connection keeps the name.
    package func requestName(_ name: String, replace: Bool = false) async throws(DBusNameError) {
        guard DBusNames.isWellKnownName(name) else { throw .invalidName(name) }
        let outcome = await withCheckedContinuation { continuation in
            outbox.post(.requestName(name, replace: replace, continuation))
        }
        try outcome.get()
    }

    /// Emits `signal` (sent by the loop thread, after what was posted before it).
    /// - Throws: An `InvalidArgs` saying why the signal cannot be sent (``DBusSignal/problem``).
    package func emit(_ signal: DBusSignal) throws(DBusFailure) {
        if let problem = signal.problem { throw .invalidArgs(problem) }
        outbox.post(.signal(signal))
    }

    /// Stops the loop and returns once the connection is closed: replies and signals posted
    /// before are sent first, a name request still waiting fails, and the connection's names are
    /// released with it. Safe to call more than once, and from a handler's task.
    package func stop() async {
        outbox.requestStop()
        await outbox.waitUntilClosed()
    }

    deinit {
        outbox.requestStop()
    }
}

/// The open connection, handed from the thread that opened it to the loop thread, which alone
/// uses it from then on (the opening thread keeps no copy): hence `@unchecked`.
private struct Handover: @unchecked Sendable {
    let connection: OpaquePointer
}
