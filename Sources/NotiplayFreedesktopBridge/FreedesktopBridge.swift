#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import NotiplayCenter
package import NotiplayCore
import NotiplayDBus
import Synchronization
package import NotiplayFreedesktop

/// `serve --freedesktop`: the center as `org.freedesktop.Notifications` on the session bus.
/// `Notify` stores and shows a notification like `send` does (mapped by ``FreedesktopMapping``);
/// what people do to its card, and its removal, go back to the client as the spec's signals.
///
/// D-Bus handlers run on the connection's thread; each hops to the main actor, where the center
/// is, and replies from there.
@MainActor
package final class FreedesktopBridge {
    package static let busName = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"

    let service: CenterService
    private let mapping: FreedesktopMapping
    private let information: ServerInformation
    var ids = FreedesktopIDs()
    /// The largest id handed out before the store must record a new one (see `reserve`).
    var reservedID: UInt32 = 0
    /// The extras of each live freedesktop notification, by id (its actions, residency).
    var extras: [UInt32: FreedesktopExtras] = [:]
    /// Why notifications being closed by the server itself are closed (expiry): their removal
    /// says so, rather than reason 3.
    var closing: [UInt32: CloseReason] = [:]
    /// The expiry of each notification with an `expire_timeout`.
    var expiries: [UInt32: Task<Void, Never>] = [:]
    /// Transient notifications not yet ended: the history forgets them when they end.
    var transient: Set<String> = []
    private var connection: DBusServiceConnection?
    /// Set once the server stops: leaving the bus is no longer news.
    private let stopping = SharedFlag()

    /// Called with each warning of a mapped notification (the server prints it as an event).
    package var onWarning: (@MainActor (UInt32, Diagnostic) -> Void)?

    /// The app notifications are presented for when their `desktop-entry` names no registered
    /// app: ``FreedesktopApp``, which `serve` adds to the center's apps.
    package var defaultApp = FreedesktopApp.name

    /// A bridge for `service`.
    package init(service: CenterService, mapping: FreedesktopMapping, version: String) {
        self.service = service
        self.mapping = mapping
        information = .notiplay(version: version)
        service.keepsInHistory = { [weak self] identifier in
            self?.transient.remove(identifier) == nil
        }
    }

    /// Connects to the bus at `address` and takes the name (from another server with `replace`).
    /// - Throws: ``DBusNameError/exists(_:)`` when another server keeps the name.
    package func start(address: String, replace: Bool, onNameLost: @escaping @Sendable () -> Void) async throws {
        let methods = [
            // Answered on the bus's thread: a flood of Notify calls waiting for the center never
            // delays them.
            DBusMethod.immediate(interface: Self.interface, member: "GetCapabilities", signature: "") { _ in
                .values([.strings(ServerInformation.capabilities)])
            },
            DBusMethod.immediate(interface: Self.interface, member: "GetServerInformation", signature: "") { [information] _ in
                .values([
                    .string(information.name), .string(information.vendor), .string(information.version),
                    .string(information.specVersion),
                ])
            },
            method("Notify", "susssasa{sv}i") { bridge, call, respond in bridge.notify(call, respond) },
            method("CloseNotification", "u") { bridge, call, respond in bridge.close(call, respond) },
        ]
        let object = DBusObject(path: Self.path, introspection: Self.introspection, methods: methods)
        let made = try DBusServiceConnection(address: address, objects: [object]) { [stopping] event in
            guard !stopping.withLock({ $0 }) else { return }
            if case .nameLost = event { onNameLost() }
            if case .disconnected = event { onNameLost() }
        }
        connection = made
        try await made.requestName(Self.busName, replace: replace)
    }

    /// Leaves the bus.
    package func stop() async {
        stopping.withLock { $0 = true }
        for expiry in expiries.values { expiry.cancel() }
        await connection?.stop()
        connection = nil
    }

    // MARK: The center's side

    /// An action was chosen on a card: `ActionInvoked` (or `NotificationReplied`). Whether
    /// the card then closes is told by ``responded(_:)``.
    package func chose(_ response: CenterResponse) {
        guard let id = FreedesktopIDs.id(fromIdentifier: response.identifier), let extras = extras[id] else { return }
        for signal in FreedesktopResponse.signals(forAction: response.action, userText: response.text, extras: extras) {
            if case .notificationClosed = signal { continue }
            emit(signal)
        }
    }

    /// A card was answered or dismissed: closed, reason 2, once the card is gone (a resident
    /// notification's card stays after an action).
    package func responded(_ response: CenterResponse) {
        guard response.action == UNNotificationDismissActionIdentifier,
            let id = FreedesktopIDs.id(fromIdentifier: response.identifier), extras[id] != nil
        else { return }
        emit(.notificationClosed(id: id, reason: .dismissed))
    }

    /// Notifications were removed (`notiplay remove`, `CloseNotification`): closed, reason 3
    /// (1 when they expired).
    package func removed(_ identifiers: [String]) {
        for identifier in identifiers {
            guard let id = FreedesktopIDs.id(fromIdentifier: identifier), extras[id] != nil else { continue }
            emit(.notificationClosed(id: id, reason: closing.removeValue(forKey: id) ?? .closedByCall))
        }
    }

    // MARK: Methods

    private func notify(_ call: DBusMethodCall, _ respond: @escaping @Sendable (DBusReply) -> Void) {
        guard let notify = NotifyArguments.notify(call.arguments) else {
            respond(.error(.invalidArgs("Notify takes (susssasa{sv}i)")))
            return
        }
        let assignment = ids.assign(replacing: notify.replacesID)
        reserve(assignment.id)
        let mapped = mapping.map(notify, id: assignment.id)
        for warning in mapped.warnings { onWarning?(assignment.id, warning) }
        let app = mapped.desktopEntry.flatMap { service.appName(matching: $0) } ?? defaultApp
        let previous = extras[assignment.id]
        extras[assignment.id] = mapped.extras
        if mapped.extras.transient { transient.insert(mapped.identifier) } else { transient.remove(mapped.identifier) }
        if mapped.autoPlaysAttachment,
            SoundPolicy.mayAutoPlayMedia(level: mapped.content.interruptionLevel, focus: service.focus)
        {
            service.playOnArrival(mapped.identifier)
        }
        let presented = presentation(of: mapped, for: app)
        do {
            if let category = presented.category {
                _ = try service.setCategories(CategoryJSON.encode([category]), for: app)
            }
            let incoming = IncomingNotification(
                identifier: mapped.identifier, app: app, payload: presented.payload,
                categoryIdentifier: presented.categoryIdentifier,
                attachments: try CenterService.incoming(mapped.attachments), sender: call.sender)
            _ = try service.receive(incoming)
        } catch {
            // Nothing stored: everything goes back to how it was.
            extras[assignment.id] = previous
            service.cancelPlayOnArrival(mapped.identifier)
            if previous?.transient == true { transient.insert(mapped.identifier) } else { transient.remove(mapped.identifier) }
            if previous == nil { ids.release(assignment.id) }
            respond(.error(.failed("the notification could not be stored: \(error)")))
            return
        }
        armExpiry(assignment.id, after: mapped.expiry.duration)
        respond(.values([.uint32(assignment.id)]))
    }

    private func close(_ call: DBusMethodCall, _ respond: @escaping @Sendable (DBusReply) -> Void) {
        guard case .uint32(let id)? = call.arguments.first, extras[id] != nil else {
            respond(.error(.invalidArgs("no notification with that id")))
            return
        }
        _ = try? service.remove(identifiers: [FreedesktopIDs.identifier(for: id)])
        respond(.values([]))
    }

    func emit(_ signal: FreedesktopSignal) {
        let (member, arguments): (String, [DBusValue])
        switch signal {
        case .actionInvoked(let id, let key):
            // Spec 1.2: the token comes first, for the client to raise the window the action opens.
            send("ActivationToken", [.uint32(id), .string(Self.activationToken(for: id))])
            (member, arguments) = ("ActionInvoked", [.uint32(id), .string(key)])
        case .notificationReplied(let id, let text): (member, arguments) = ("NotificationReplied", [.uint32(id), .string(text)])
        case .notificationClosed(let id, let reason):
            (member, arguments) = ("NotificationClosed", [.uint32(id), .uint32(reason.rawValue)])
            ended(id)
        }
        send(member, arguments)
    }

    private func send(_ member: String, _ arguments: [DBusValue]) {
        try? connection?.emit(DBusSignal(path: Self.path, interface: Self.interface, member: member, arguments: arguments))
    }

    /// A method whose handler runs on the main actor with the bridge.
    private func method(
        _ member: String, _ signature: String,
        _ body: @escaping @MainActor (FreedesktopBridge, DBusMethodCall, @escaping @Sendable (DBusReply) -> Void) -> Void
    ) -> DBusMethod {
        DBusMethod(interface: Self.interface, member: member, signature: signature) { [weak self] call, responder in
            Task { @MainActor in
                guard let self else { return responder.reply(.error(.failed("the server is stopping"))) }
                body(self, call) { responder.reply($0) }
            }
        }
    }
}

/// A flag the bus thread reads and the main actor sets.
final class SharedFlag: Sendable {
    private let value = Mutex(false)
    func withLock<R>(_ body: (inout Bool) -> R) -> R { value.withLock { body(&$0) } }
}
