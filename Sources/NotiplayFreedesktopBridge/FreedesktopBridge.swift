#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import NotiplayCenter
import NotiplayCore
import NotiplayDBus
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

    private let service: CenterService
    private let mapping: FreedesktopMapping
    private let information: ServerInformation
    private var ids = FreedesktopIDs()
    /// The extras of each live freedesktop notification, by id (its actions, residency).
    private var extras: [UInt32: FreedesktopExtras] = [:]
    /// Ids being closed by `CloseNotification`: their removal says reason 3 itself.
    private var connection: DBusServiceConnection?

    /// Called with each warning of a mapped notification (the server prints it as an event).
    package var onWarning: (@MainActor (UInt32, String) -> Void)?

    /// A bridge for `service`.
    package init(service: CenterService, mapping: FreedesktopMapping, version: String) {
        self.service = service
        self.mapping = mapping
        information = .notiplay(version: version)
    }

    /// Connects to the bus at `address` and takes the name (from another server with `replace`).
    /// - Throws: ``DBusNameError/exists(_:)`` when another server keeps the name.
    package func start(address: String, replace: Bool, onNameLost: @escaping @Sendable () -> Void) async throws {
        let methods = [
            method("GetCapabilities", "") { _, respond in respond(.values([.strings(ServerInformation.capabilities)])) },
            method("GetServerInformation", "") { [information] _, respond in
                respond(.values([
                    .string(information.name), .string(information.vendor), .string(information.version),
                    .string(information.specVersion),
                ]))
            },
            method("Notify", "susssasa{sv}i") { bridge, call, respond in bridge.notify(call, respond) },
            method("CloseNotification", "u") { bridge, call, respond in bridge.close(call, respond) },
        ]
        let object = DBusObject(path: Self.path, introspection: Self.introspection, methods: methods)
        let made = try DBusServiceConnection(address: address, objects: [object]) { event in
            if case .nameLost = event { onNameLost() }
            if case .disconnected = event { onNameLost() }
        }
        connection = made
        try await made.requestName(Self.busName, replace: replace)
    }

    /// Leaves the bus.
    package func stop() async {
        await connection?.stop()
        connection = nil
    }

    // MARK: The center's side

    /// A card was answered or dismissed: the client's signals.
    package func responded(_ response: CenterResponse) {
        guard let id = FreedesktopIDs.id(fromIdentifier: response.identifier), let extras = extras[id] else { return }
        for signal in FreedesktopResponse.signals(forAction: response.action, userText: response.text, extras: extras) {
            emit(signal)
        }
    }

    /// Notifications were removed (`notiplay remove`, `CloseNotification`): closed, reason 3.
    package func removed(_ identifiers: [String]) {
        for identifier in identifiers {
            guard let id = FreedesktopIDs.id(fromIdentifier: identifier), extras[id] != nil else { continue }
            emit(.notificationClosed(id: id, reason: .closedByCall))
        }
    }

    // MARK: Methods

    private func notify(_ call: DBusMethodCall, _ respond: @escaping @Sendable (DBusReply) -> Void) {
        guard let notify = NotifyArguments.notify(call.arguments) else {
            respond(.error(.invalidArgs("Notify takes (susssasa{sv}i)")))
            return
        }
        let assignment = ids.assign(replacing: notify.replacesID)
        let mapped = mapping.map(notify, id: assignment.id)
        for warning in mapped.warnings { onWarning?(assignment.id, "\(warning)") }
        let app = mapped.desktopEntry.flatMap { service.appName(matching: $0) } ?? AppDefinition.standard.name
        do {
            if let category = mapped.category {
                _ = try service.setCategories(CategoryJSON.encode([category]), for: app)
            }
            let incoming = IncomingNotification(
                identifier: mapped.identifier, app: app, payload: mapped.payloadJSON,
                categoryIdentifier: mapped.categoryIdentifier,
                attachments: try CenterService.incoming(mapped.attachments), sender: call.sender)
            _ = try service.receive(incoming)
        } catch {
            ids.release(assignment.id)
            respond(.error(.failed("the notification could not be stored: \(error)")))
            return
        }
        extras[assignment.id] = mapped.extras
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

    private func emit(_ signal: FreedesktopSignal) {
        let (member, arguments): (String, [DBusValue])
        switch signal {
        case .actionInvoked(let id, let key): (member, arguments) = ("ActionInvoked", [.uint32(id), .string(key)])
        case .notificationReplied(let id, let text): (member, arguments) = ("NotificationReplied", [.uint32(id), .string(text)])
        case .notificationClosed(let id, let reason):
            (member, arguments) = ("NotificationClosed", [.uint32(id), .uint32(reason.rawValue)])
            extras[id] = nil
            ids.release(id)
        }
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

    private func method(
        _ member: String, _ signature: String,
        _ body: @escaping @MainActor (DBusMethodCall, @escaping @Sendable (DBusReply) -> Void) -> Void
    ) -> DBusMethod {
        method(member, signature) { _, call, respond in body(call, respond) }
    }
}
