import NotiplayDBus
import Synchronization

/// A minimal freedesktop notification server, built on NotiplayDBus alone, that proves the layer
/// end to end with real clients: it owns `org.freedesktop.Notifications`, answers
/// `GetServerInformation` and `GetCapabilities`, records each `Notify` and answers it with the
/// next id, and closes a notification on `CloseNotification` with `NotificationClosed(id, 3)`.
final class ProofServer: Sendable {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    static let capabilities = ["actions", "body", "body-markup", "persistence", "sound"]

    /// A `Notify` call, its arguments in the spec's order.
    struct Notification: Sendable, Equatable {
        var id: UInt32
        var sender: String?
        var appName: String
        var replacesID: UInt32
        var icon: String
        var summary: String
        var body: String
        var actions: [String]
        var hints: [String: DBusValue]
        var expireTimeout: Int32
        /// The strings the layer cut to 64 KiB.
        var cuts: [DBusStringCut] = []
    }

    /// The ids given and still open, and the connection (set once it exists) for the signals the
    /// handlers emit.
    private final class Book: Sendable {
        private struct State {
            var nextID: UInt32 = 1
            var open: Set<UInt32> = []
            var connection: DBusServiceConnection?
        }
        private let state = Mutex(State())

        var connection: DBusServiceConnection? {
            get { state.withLock { $0.connection } }
            set { state.withLock { $0.connection = newValue } }
        }

        /// The next id, now open.
        func open() -> UInt32 {
            state.withLock { state in
                defer { state.nextID += 1 }
                state.open.insert(state.nextID)
                return state.nextID
            }
        }

        /// Closes `id`; whether it was open.
        func close(_ id: UInt32) -> Bool {
            state.withLock { $0.open.remove(id) != nil }
        }
    }

    let connection: DBusServiceConnection
    /// Each `Notify` call, as it is answered.
    let notifications: Recorder<Notification>
    /// What the connection told (a name lost, the bus gone).
    let events: Recorder<DBusConnectionEvent>
    private let book: Book

    /// Connects to `bus` and asks for the name (with `replace` as given).
    /// - Parameter version: What `GetServerInformation` says as the version.
    static func start(on bus: PrivateBus, version: String = "0.1", replace: Bool = false) async throws -> ProofServer {
        let server = try ProofServer(address: bus.address, version: version)
        do {
            try await server.connection.requestName(name, replace: replace)
        } catch {
            await server.stop()
            throw error
        }
        return server
    }

    /// Connects to `address`, without asking for the name.
    init(address: String, version: String) throws {
        let book = Book()
        let (notifications, events) = (Recorder<Notification>(), Recorder<DBusConnectionEvent>())
        let object = DBusObject(
            path: Self.path, introspection: Self.introspection,
            methods: [
                .immediate(interface: Self.interface, member: "GetServerInformation", signature: "") { _ in
                    .values([.string("notiplay"), .string("notiplay"), .string(version), .string("1.2")])
                },
                .immediate(interface: Self.interface, member: "GetCapabilities", signature: "") { _ in
                    .values([.strings(Self.capabilities)])
                },
                .immediate(interface: Self.interface, member: "Notify", signature: "susssasa{sv}i") { call in
                    guard let notification = Self.notification(call, book: book) else {
                        return .error(.invalidArgs("unreadable Notify"))
                    }
                    notifications.record(notification)
                    return .values([.uint32(notification.id)])
                },
                DBusMethod(interface: Self.interface, member: "CloseNotification", signature: "u") { call, responder in
                    Self.close(call, responder, book: book)
                },
            ])
        connection = try DBusServiceConnection(address: address, objects: [object]) { events.record($0) }
        book.connection = connection
        self.book = book
        self.notifications = notifications
        self.events = events
    }

    /// Emits `ActionInvoked(id, key)`, as when a person chose the action.
    func invokeAction(id: UInt32, key: String) throws {
        try connection.emit(
            DBusSignal(path: Self.path, interface: Self.interface, member: "ActionInvoked", arguments: [.uint32(id), .string(key)]))
    }

    /// Stops the connection (and drops the handlers' hold on it).
    func stop() async {
        await connection.stop()
        book.connection = nil
    }

    private static func notification(_ call: DBusMethodCall, book: Book) -> Notification? {
        let values = call.arguments
        guard values.count == 8, let appName = values[0].string, let replacesID = values[1].uint32,
            let icon = values[2].string, let summary = values[3].string, let body = values[4].string,
            case .strings(let actions) = values[5], case .variants(let hints) = values[6],
            let expireTimeout = values[7].int32
        else { return nil }
        let id = book.open()
        return Notification(
            id: id, sender: call.sender, appName: appName, replacesID: replacesID, icon: icon, summary: summary,
            body: body, actions: actions, hints: hints, expireTimeout: expireTimeout, cuts: call.cutStrings)
    }

    /// Closes the notification: the reply, then `NotificationClosed(id, 3)` (closed by a call).
    private static func close(_ call: DBusMethodCall, _ responder: DBusResponder, book: Book) {
        guard let id = call.arguments.first?.uint32 else { return responder.reply(.error(.invalidArgs("no id"))) }
        guard book.close(id) else {
            return responder.reply(
                .error(DBusFailure(name: "org.freedesktop.Notifications.Error.NotFound", message: "no notification \(id)")))
        }
        responder.reply(.values([]))
        try? book.connection?.emit(
            DBusSignal(
                path: path, interface: interface, member: "NotificationClosed", arguments: [.uint32(id), .uint32(3)]))
    }

    static let introspection = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.freedesktop.Notifications">
            <method name="GetCapabilities"><arg direction="out" type="as"/></method>
            <method name="Notify">
              <arg name="app_name" direction="in" type="s"/>
              <arg name="replaces_id" direction="in" type="u"/>
              <arg name="app_icon" direction="in" type="s"/>
              <arg name="summary" direction="in" type="s"/>
              <arg name="body" direction="in" type="s"/>
              <arg name="actions" direction="in" type="as"/>
              <arg name="hints" direction="in" type="a{sv}"/>
              <arg name="expire_timeout" direction="in" type="i"/>
              <arg name="id" direction="out" type="u"/>
            </method>
            <method name="CloseNotification"><arg name="id" direction="in" type="u"/></method>
            <method name="GetServerInformation">
              <arg name="name" direction="out" type="s"/>
              <arg name="vendor" direction="out" type="s"/>
              <arg name="version" direction="out" type="s"/>
              <arg name="spec_version" direction="out" type="s"/>
            </method>
            <signal name="NotificationClosed"><arg name="id" type="u"/><arg name="reason" type="u"/></signal>
            <signal name="ActionInvoked"><arg name="id" type="u"/><arg name="action_key" type="s"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml_data" direction="out" type="s"/></method>
          </interface>
        </node>
        """
}
