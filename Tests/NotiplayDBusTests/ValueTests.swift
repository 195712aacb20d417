@preconcurrency import Glibc  // pthread_self, to see which thread a handler runs on
import NotiplayDBus
import NotiplayTestSupport
import Synchronization
import Testing

/// Values written and read back through a real bus, replies given at once, later or never, and
/// signals: an echo object served by the layer, called by the layer's client.
@Suite(.timeLimit(.minutes(2)))
struct ValueTests {
    static let name = "org.example.NotiplayEcho"
    static let path = "/org/example/Echo"
    static let interface = "org.example.Echo"

    /// Argument lists of every type the layer writes and reads.
    static let samples: [[DBusValue]] = [
        [.string("héllo ✓"), .uint32(.max), .int32(.min), .bool(true), .bool(false)],
        [.byte(255), .int16(-2), .uint16(65535), .int64(.min), .uint64(.max), .double(-0.5), .objectPath("/a/b")],
        [.strings([]), .strings(["a", "", "ü", String(repeating: "z", count: 1000)])],
        [
            .variants([
                "y": .byte(1), "b": .bool(false), "n": .int16(-1), "q": .uint16(2), "i": .int32(-3), "u": .uint32(4),
                "x": .int64(-5), "t": .uint64(6), "d": .double(7.5), "s": .string("s"), "o": .objectPath("/o"),
            ]),
            .variants([:]),
        ],
        [],
    ]

    /// The echo object: `Echo0`… return their arguments (one method per sample's signature);
    /// `Later` replies from another task; `Never` drops its responder; `Unwritable` replies a value
    /// that cannot be written; `Thread` records the handler's thread.
    static func echo(threads: Recorder<UInt>) -> DBusObject {
        var methods = samples.enumerated().map { index, sample in
            DBusMethod.immediate(interface: interface, member: "Echo\(index)", signature: sample.signature) { call in
                .values(call.arguments)
            }
        }
        methods += [
            DBusMethod(interface: interface, member: "Later", signature: "s") { call, responder in
                Task.detached { responder.reply(.values(call.arguments + [.string("later")])) }
            },
            DBusMethod(interface: interface, member: "Never", signature: "") { _, _ in },
            .immediate(interface: interface, member: "Unwritable", signature: "") { _ in
                .values([.string("a\u{0}b")])
            },
            .immediate(interface: interface, member: "Thread", signature: "") { _ in
                threads.record(UInt(pthread_self()))
                return .values([])
            },
        ]
        return DBusObject(path: path, introspection: "<node/>", methods: methods)
    }

    /// Serves the echo object on a bus of its own, and a client to call it.
    func withEcho(
        _ body: (DBusServiceConnection, DBusClient, Recorder<UInt>) async throws -> Void
    ) async throws {
        try await withPrivateBus { bus in
            let threads = Recorder<UInt>()
            let connection = try DBusServiceConnection(address: bus.address, objects: [Self.echo(threads: threads)])
            try await connection.requestName(Self.name)
            let client = try DBusClient(address: bus.address)
            do {
                try await body(connection, client, threads)
            } catch {
                client.close()
                await connection.stop()
                throw error
            }
            client.close()
            await connection.stop()
        }
    }

    static func call(_ member: String, _ arguments: [DBusValue] = []) -> DBusCall {
        DBusCall(destination: name, path: path, interface: interface, member: member, arguments: arguments)
    }

    @Test("Every type written comes back read as it was", arguments: samples.indices)
    func roundTrip(index: Int) async throws {
        try await withEcho { _, client, _ in
            let sample = Self.samples[index]
            let echoed = try await onThread { try client.call(Self.call("Echo\(index)", sample)) }
            #expect(echoed == sample)
        }
    }

    @Test("A reply given later from another task arrives; a handler that drops its responder answers Failed")
    func laterAndNever() async throws {
        try await withEcho { _, client, _ in
            let later = try await onThread { try client.call(Self.call("Later", [.string("now")])) }
            #expect(later == [.string("now"), .string("later")])
            let never = try await onThread { failure(of: client, Self.call("Never")) }
            #expect(never?.name == DBusFailure.failedName)
            let unwritable = try await onThread { failure(of: client, Self.call("Unwritable")) }
            #expect(unwritable?.name == DBusFailure.failedName)
            #expect(unwritable?.message.contains("NUL") == true)
        }
    }

    @Test("Handlers run on the connection's one loop thread, for calls from several clients")
    func oneThread() async throws {
        try await withPrivateBus { bus in
            let threads = Recorder<UInt>()
            let connection = try DBusServiceConnection(address: bus.address, objects: [Self.echo(threads: threads)])
            try await connection.requestName(Self.name)
            let clients = try (0..<3).map { _ in try DBusClient(address: bus.address) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in clients {
                    group.addTask { _ = try await onThread { try (0..<5).map { _ in try client.call(Self.call("Thread")) } } }
                }
                try await group.waitForAll()
            }
            #expect(threads.items.count == 15)
            #expect(Set(threads.items).count == 1)
            #expect(threads.items.first != UInt(pthread_self()))
            for client in clients { client.close() }
            await connection.stop()
        }
    }

    @Test("Signals of types uu and us reach a subscribed client, broadcast or sent to it alone")
    func signals() async throws {
        try await withEcho { connection, client, _ in
            try client.addMatch("type='signal',interface='\(Self.interface)'")
            let closed = DBusSignal(path: Self.path, interface: Self.interface, member: "Closed", arguments: [.uint32(7), .uint32(2)])
            let invoked = DBusSignal(
                path: Self.path, interface: Self.interface, member: "Invoked", arguments: [.uint32(7), .string("default")],
                destination: client.uniqueName)
            try connection.emit(closed)
            try connection.emit(invoked)
            let received = try await onThread { [try client.signal("Closed"), try client.signal("Invoked")] }
            #expect(received.map { $0?.sender } == [connection.uniqueName, connection.uniqueName])
            #expect(received.map { $0?.1.arguments } == [closed.arguments, invoked.arguments])
        }
    }

    @Test("A signal that cannot be sent is refused when emitted")
    func badSignals() async throws {
        try await withEcho { connection, _, _ in
            let bad = [
                DBusSignal(path: "nope", interface: Self.interface, member: "S", arguments: []),
                DBusSignal(path: Self.path, interface: "nodots", member: "S", arguments: []),
                DBusSignal(path: Self.path, interface: Self.interface, member: "a.b", arguments: []),
                DBusSignal(path: Self.path, interface: Self.interface, member: "S", arguments: [.string("a\u{0}")]),
                DBusSignal(path: Self.path, interface: Self.interface, member: "S", arguments: [.unsupported(signature: "ay")]),
                DBusSignal(path: Self.path, interface: Self.interface, member: "S", arguments: [], destination: "not a name"),
            ]
            for signal in bad {
                #expect(throws: DBusFailure.self) { try connection.emit(signal) }
            }
        }
    }
}
