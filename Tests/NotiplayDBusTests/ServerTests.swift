import NotiplayDBus
import NotiplayTestSupport
import Testing

/// The proof server answering real clients (`gdbus`, `notify-send`) on a bus of each test's own.
@Suite(.timeLimit(.minutes(2)))
struct ServerTests {
    @Test("gdbus gets the server's information and capabilities")
    func serverInformation() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            let information = await bus.gdbusCall("GetServerInformation")
            #expect(information.succeeded, "\(information.errors)")
            #expect(information.output == "('notiplay', 'notiplay', '0.1', '1.2')\n")
            let capabilities = await bus.gdbusCall("GetCapabilities")
            #expect(capabilities.output == "(['actions', 'body', 'body-markup', 'persistence', 'sound'],)\n")
            await server.stop()
        }
    }

    @Test("notify-send's app name, summary, body and hints arrive typed, and it prints the id it got")
    func notifySend() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            let run = await bus.run(
                "/usr/bin/notify-send", ["-p", "-h", "string:sound-file:/x.wav", "-a", "App", "Build done", "body"])
            #expect(run.succeeded, "\(run.errors)")
            let notification = try #require(await server.notifications.item(0))
            #expect(run.output == "\(notification.id)\n")
            #expect(notification.appName == "App")
            #expect(notification.summary == "Build done")
            #expect(notification.body == "body")
            #expect(notification.replacesID == 0 && notification.expireTimeout == -1 && notification.actions == [])
            #expect(notification.hints["sound-file"] == .string("/x.wav"))
            #expect(notification.hints["urgency"] == .byte(1))  // notify-send's default, normal
            await server.stop()
        }
    }

    @Test("notify-send --wait prints the action the server says was invoked, then ends at its close")
    func notifySendAction() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            let child = await bus.start("/usr/bin/notify-send", ["--wait", "-A", "yes=Yes", "-A", "no=No", "Question"])
            let notification = try #require(await server.notifications.item(0))
            #expect(notification.actions == ["yes", "Yes", "no", "No"])
            try server.invokeAction(id: notification.id, key: "yes")
            // notify-send prints the action, closes the notification (CloseNotification), and
            // ends when NotificationClosed comes.
            let run = await bus.finish(child)
            #expect(run.succeeded, "\(run.errors)")
            #expect(run.output == "yes\n")
            await server.stop()
        }
    }

    @Test("CloseNotification from gdbus closes with NotificationClosed(id, 3); an unknown id is an error")
    func closeNotification() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            let client = try DBusClient(address: bus.address)
            try client.addMatch("type='signal',interface='org.freedesktop.Notifications'")
            let id = try #require(try await onThread { try client.call(notifyCall(summary: "to close")) }.first?.uint32)
            let close = await bus.gdbusCall("CloseNotification", ["\(id)"])
            #expect(close.succeeded && close.output == "()\n", "\(close.errors)")
            let (sender, closed) = try #require(try await onThread { try client.signal("NotificationClosed") })
            #expect(sender == server.connection.uniqueName)
            #expect(closed.path == ProofServer.path && closed.interface == ProofServer.interface)
            #expect(closed.arguments == [.uint32(id), .uint32(3)])
            let again = await bus.gdbusCall("CloseNotification", ["\(id)"])
            #expect(again.termination == .exited(1))
            #expect(again.errors.contains("org.freedesktop.Notifications.Error.NotFound"))
            client.close()
            await server.stop()
        }
    }

    @Test("Introspection answers the object's XML, and the paths above it list their child")
    func introspection() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            let run = await bus.run(
                "/usr/bin/gdbus",
                ["introspect", "--session", "--dest", ProofServer.name, "--object-path", ProofServer.path])
            #expect(run.succeeded, "\(run.errors)")
            #expect(run.output.contains("interface org.freedesktop.Notifications {"))
            #expect(run.output.contains("Notify(in  s app_name,"))
            #expect(run.output.contains("NotificationClosed(u id,"))
            let client = try DBusClient(address: bus.address)
            let root = try await onThread {
                try client.call(
                    DBusCall(
                        destination: ProofServer.name, path: "/org", interface: "org.freedesktop.DBus.Introspectable",
                        member: "Introspect"))
            }
            #expect(root.first?.string?.contains("<node name=\"freedesktop\"/>") == true)
            client.close()
            await server.stop()
        }
    }
}

/// A `Notify` call of the spec's shape.
func notifyCall(
    appName: DBusValue = .string("App"), summary: String, body: String = "", actions: [String] = [],
    hints: [String: DBusValue] = [:]
) -> DBusCall {
    DBusCall(
        destination: ProofServer.name, path: ProofServer.path, interface: ProofServer.interface, member: "Notify",
        arguments: [
            appName, .uint32(0), .string(""), .string(summary), .string(body), .strings(actions), .variants(hints),
            .int32(-1),
        ])
}

extension DBusClient {
    /// The next signal named `member` received within 30 s (other messages are passed over), with
    /// its sender.
    func signal(_ member: String) throws -> (sender: String?, DBusSignal)? {
        let deadline = ContinuousClock.now + .seconds(30)
        while case let left = ContinuousClock.now.duration(to: deadline), left > .zero {
            guard let received = try receive(timeout: left) else { return nil }
            if case .signal(let sender, let signal) = received, signal.member == member { return (sender, signal) }
        }
        return nil
    }
}
