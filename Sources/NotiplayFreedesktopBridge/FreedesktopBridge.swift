#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import NotiplayCenter
import NotiplayCore
import NotiplayDBus
import Synchronization
package import NotiplayFreedesktop

/// `serve --freedesktop`: the center as `org.freedesktop.Notifications` on the session bus.
/// `Notify` stores and shows a notification like `send` does (mapped by ``FreedesktopMapping``);
/// what people do to its card, and its removal, go back to the client as the spec's signals.
///
/// The bridge speaks to the center only through its public surface: it hands it notifications
/// (`receive`), tells it what each of its notifications' cards needs beyond the payload (its
/// buttons, its expiry, its sound playing on arrival, whether the history keeps it: a
/// ``NotificationTraitSource``, asked on arrival and on restore alike), and observes its events.
///
/// D-Bus handlers run on the connection's thread; each hops to the main actor, where the center
/// is, and replies from there.
@MainActor
package final class FreedesktopBridge {
    nonisolated package static let busName = "org.freedesktop.Notifications"
    nonisolated static let path = "/org/freedesktop/Notifications"
    nonisolated static let interface = "org.freedesktop.Notifications"

    let service: CenterService
    private let mapping: FreedesktopMapping
    private let information: ServerInformation
    var ids = FreedesktopIDs()
    /// The largest id handed out before the store must record a new one (see `reserve`).
    var reservedID: UInt32 = 0
    /// The extras of each live freedesktop notification, by id (its actions, residency), learnt
    /// when the center takes it in (arrival or restore).
    var extras: [UInt32: FreedesktopExtras] = [:]
    /// The `CloseNotification` calls waiting to be carried out together.
    private var closing: [(id: UInt32, respond: @Sendable (DBusReply) -> Void)] = []
    private var connection: DBusServiceConnection?
    /// Set once the server stops: leaving the bus is no longer news.
    private let stopping = SharedFlag()


    /// The app notifications are presented for when their `desktop-entry` names no registered
    /// app: ``FreedesktopApp``, which `serve` adds to the center's apps.
    package var defaultApp = FreedesktopApp.name

    /// A bridge for `service`.
    package init(service: CenterService, mapping: FreedesktopMapping, version: String) {
        self.service = service
        self.mapping = mapping
        information = .notiplay(version: version)
        service.addTraitSource(self)
        service.observe { [weak self] event in self?.centerEvent(event) }
    }

    /// Connects to the bus at `address` and takes the name (from another server with `replace`).
    /// - Throws: ``FreedesktopNameTaken`` (naming the owner) when another server keeps the name,
    ///   another `DBusNameError` or a `DBusFailure` when the bus refused or could not be reached.
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
        do {
            try await made.requestName(Self.busName, replace: replace)
        } catch .exists {
            // Asked off the main actor: the questions block their thread.
            let owner = await Task.detached { FreedesktopNameOwner.find(address: address) }.value
            throw FreedesktopNameTaken(owner: owner, replaceAsked: replace)
        }
    }

    /// Asks for the name again, with replacement, until it is free or `limit` has passed: after
    /// ``start(address:replace:onNameLost:)`` found it kept and its owner was asked to end.
    /// Returns whether the name is now this bridge's.
    package func retakeName(within limit: Duration) async -> Bool {
        guard let connection else { return false }
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while true {
            do {
                try await connection.requestName(Self.busName, replace: true)
                return true
            } catch .exists {
                // The owner is ending; the bus frees the name when its connection closes.
                guard clock.now < deadline else { return false }
                try? await clock.sleep(for: .milliseconds(20))
            } catch {
                return false
            }
        }
    }

    /// Leaves the bus.
    package func stop() async {
        stopping.withLock { $0 = true }
        await connection?.stop()
        connection = nil
    }

    // MARK: The center's side

    /// What the center did, as the spec's signals: an action chosen is `ActionInvoked` (or
    /// `NotificationReplied`); a card answered or dismissed is closed, reason 2, once it is gone
    /// (a resident notification's card stays after an action); a notification removed is closed,
    /// reason 3 (`notiplay remove`, `CloseNotification`) or 1 (expired).
    private func centerEvent(_ event: CenterService.Event) {
        switch event {
        case .action(let response):
            guard let id = FreedesktopIDs.id(fromIdentifier: response.identifier), let extras = extras[id] else { return }
            for signal in FreedesktopResponse.signals(forAction: response.action, userText: response.text, extras: extras) {
                if case .notificationClosed = signal { continue }
                emit(signal)
            }
        case .response(let response):
            guard response.action == UNNotificationDismissActionIdentifier,
                let id = FreedesktopIDs.id(fromIdentifier: response.identifier), extras[id] != nil
            else { return }
            emit(.notificationClosed(id: id, reason: .dismissed))
        case .removed(let identifiers, let reason):
            for identifier in identifiers {
                guard let id = FreedesktopIDs.id(fromIdentifier: identifier), extras[id] != nil else { continue }
                emit(.notificationClosed(id: id, reason: reason == .expired ? .expired : .closedByCall))
            }
        default:
            break
        }
    }

    // MARK: Methods

    private func notify(_ call: DBusMethodCall, _ respond: @escaping @Sendable (DBusReply) -> Void) {
        guard let notify = NotifyArguments.notify(call) else {
            respond(.error(.invalidArgs("Notify takes (susssasa{sv}i)")))
            return
        }
        let assignment = ids.assign(replacing: notify.replacesID)
        reserve(assignment.id)
        var mapped = mapping.map(notify, id: assignment.id)
        for warning in mapped.warnings {
            service.warn(mapped.identifier, key: warning.key, message: warning.message)
        }
        let app = mapped.desktopEntry.flatMap { service.appName(matching: $0) } ?? defaultApp
        present(&mapped, for: app)
        let (json, payload) = mapped.encodedPayload
        let before = extras[assignment.id]
        // Known before the center shows its card, which may end at once (and close it).
        extras[assignment.id] = mapped.extras
        do {
            let incoming = IncomingNotification(
                identifier: mapped.identifier, app: app, payload: json, categoryIdentifier: mapped.categoryIdentifier,
                attachments: try CenterService.incoming(mapped.attachments), sender: call.sender)
            _ = try service.receive(incoming, payload: payload, traits: Self.traits(of: mapped.extras, category: mapped.category))
        } catch {
            // Nothing stored: the id is free again, unless it names a notification still live.
            extras[assignment.id] = before
            if before == nil { ids.release(assignment.id) }
            respond(.error(.failed("the notification could not be stored: \(error)")))
            return
        }
        respond(.values([.uint32(assignment.id)]))
    }

    /// Closes the notification. The calls that reached the main actor before the removal runs
    /// are removed together, in one store transaction: 10,000 calls at once are 10,000 fsyncs
    /// otherwise.
    private func close(_ call: DBusMethodCall, _ respond: @escaping @Sendable (DBusReply) -> Void) {
        guard case .uint32(let id)? = call.arguments.first, extras[id] != nil else {
            respond(.error(.invalidArgs("no notification with that id")))
            return
        }
        closing.append((id, respond))
        guard closing.count == 1 else { return }
        Task { @MainActor [weak self] in self?.closeWaiting() }
    }

    /// Removes the notifications whose `CloseNotification` calls wait, then answers each call.
    private func closeWaiting() {
        let batch = closing
        closing = []
        let identifiers = Array(Set(batch.map(\.id))).sorted().map(FreedesktopIDs.identifier(for:))
        _ = try? service.remove(identifiers: identifiers)
        for (_, respond) in batch { respond(.values([])) }
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
            extras[id] = nil
            ids.release(id)
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
