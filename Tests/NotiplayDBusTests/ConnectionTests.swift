import NotiplayDBus
import NotiplayTestSupport
import Testing

/// The connection's life: names owned, lost and released, a stop, the bus going away.
@Suite(.timeLimit(.minutes(2)))
struct ConnectionTests {
    @Test("A second server without replace gets exists; with replace it takes the name and the first is told NameLost")
    func replacement() async throws {
        try await withPrivateBus { bus in
            let first = try await ProofServer.start(on: bus, version: "1")
            let second = try ProofServer(address: bus.address, version: "2")
            await #expect(throws: DBusNameError.exists(ProofServer.name)) {
                try await second.connection.requestName(ProofServer.name)
            }
            #expect(await bus.gdbusCall("GetServerInformation").output == "('notiplay', 'notiplay', '1', '1.2')\n")
            try await second.connection.requestName(ProofServer.name, replace: true)
            #expect(await first.events.item(0) == .nameLost(ProofServer.name))
            #expect(await bus.gdbusCall("GetServerInformation").output == "('notiplay', 'notiplay', '2', '1.2')\n")
            try await second.connection.requestName(ProofServer.name)  // already its own
            await first.stop()
            await second.stop()
        }
    }

    @Test("A text that is not a well-known name is refused before the bus is asked")
    func invalidNames() async throws {
        try await withPrivateBus { bus in
            let server = try ProofServer(address: bus.address, version: "1")
            for name in ["not a name", ":1.5", "", "org", "org.example.a\u{0}b"] {
                await #expect(throws: DBusNameError.invalidName(name)) { try await server.connection.requestName(name) }
            }
            await server.stop()
        }
    }

    @Test("A stop closes the connection: the bus releases the name, later requests fail, a second stop returns")
    func stop() async throws {
        try await withPrivateBus { bus in
            let watcher = try DBusClient(address: bus.address)
            try watcher.addMatch(
                "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(ProofServer.name)'")
            let server = try await ProofServer.start(on: bus)
            let owner = server.connection.uniqueName
            await server.stop()
            await server.stop()
            // NameOwnerChanged(name, old owner, new owner): acquired, then released.
            let changes = try await onThread {
                [try watcher.signal("NameOwnerChanged"), try watcher.signal("NameOwnerChanged")].map { $0?.1.arguments }
            }
            #expect(
                changes == [
                    [.string(ProofServer.name), .string(""), .string(owner)],
                    [.string(ProofServer.name), .string(owner), .string("")],
                ])
            await #expect(throws: DBusNameError.self) { try await server.connection.requestName(ProofServer.name) }
            try server.invokeAction(id: 1, key: "dropped")  // posted after the close: dropped, no crash
            watcher.close()
        }
    }

    @Test("When the bus goes away the connection is told, and closes")
    func busGone() async throws {
        let bus = try await PrivateBus.start()
        let server = try await ProofServer.start(on: bus)
        await bus.stop()
        #expect(await server.events.item(0) == .disconnected)
        await server.stop()
    }

    @Test("A connection to an address where no bus listens, or that is no address, fails with libdbus's reason")
    func noBus() throws {
        for address in ["unix:path=/nonexistent/notiplay-bus", "not an address"] {
            #expect {
                _ = try DBusServiceConnection(address: address, objects: [])
            } throws: { error in
                (error as? DBusFailure).map { !$0.name.isEmpty && !$0.message.isEmpty } == true
            }
            #expect(throws: DBusFailure.self) { _ = try DBusClient(address: address) }
        }
    }

    @Test("Malformed objects are refused before connecting")
    func malformedObjects() throws {
        let method = DBusMethod.immediate(interface: "org.example.A", member: "M", signature: "") { _ in .values([]) }
        let bad = [
            DBusObject(path: "no/slash", introspection: "", methods: []),
            DBusObject(path: "/a", introspection: "", methods: [.immediate(interface: "noDots", member: "M", signature: "") { _ in .values([]) }]),
            DBusObject(path: "/a", introspection: "", methods: [.immediate(interface: "org.example.A", member: "M", signature: "a{") { _ in .values([]) }]),
        ]
        for object in bad {
            #expect(throws: DBusFailure.self) { _ = try DBusServiceConnection(address: "unix:path=/nonexistent", objects: [object]) }
        }
        let twice = [DBusObject(path: "/a", introspection: "", methods: [method]), DBusObject(path: "/a", introspection: "", methods: [])]
        #expect(throws: DBusFailure.invalidArgs("two objects at /a")) {
            _ = try DBusServiceConnection(address: "unix:path=/nonexistent", objects: twice)
        }
    }
}
