import NotiplayDBus
import NotiplayTestSupport
import Testing

/// Calls a hostile or careless client makes: each gets a D-Bus error (or, when well typed, an
/// answer), never a crash, and the server answers the next call.
@Suite(.timeLimit(.minutes(2)))
struct RobustnessTests {
    @Test("Wrong argument types get InvalidArgs, from dbus-send, gdbus and a Swift client, and the server goes on")
    func wrongTypes() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            // An int where the app name is (dbus-send sends the types it is told; gdbus would
            // convert them to the types the introspection data gives).
            let typed = await bus.run(
                "/usr/bin/dbus-send",
                [
                    "--session", "--print-reply", "--dest=\(ProofServer.name)", ProofServer.path,
                    "\(ProofServer.interface).Notify", "int32:42", "uint32:0", "string:", "string:s", "string:b",
                ])
            #expect(typed.termination == .exited(1))
            #expect(typed.errors.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(typed.errors)")
            // Too few arguments: gdbus sends them as they parse.
            let few = await bus.gdbusCall("Notify", ["1", "2"])
            #expect(few.termination == .exited(1))
            #expect(few.errors.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(few.errors)")
            // All eight, the first an int.
            let client = try DBusClient(address: bus.address)
            let refusal = try await onThread { failure(of: client, notifyCall(appName: .int32(42), summary: "s")) }
            #expect(refusal?.name == DBusFailure.invalidArgsName)
            #expect(refusal?.message.contains("susssasa{sv}i") == true)
            #expect(server.notifications.items.isEmpty)
            let information = await bus.gdbusCall("GetServerInformation")
            #expect(information.output == "('notiplay', 'notiplay', '0.1', '1.2')\n", "\(information.errors)")
            client.close()
            await server.stop()
        }
    }

    @Test("Hints of types this layer does not read are kept as unsupported; a wrong basic type is kept as sent")
    func unsupportedHints() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            let hints = "{'image-data': <(1, 1, 4, true, 8, 4, [byte 1, 2, 3, 4])>, 'x-bytes': <[byte 1, 2]>, "
                + "'urgency': <'high'>, 'x-nested': <<'deep'>>, 'x-double': <1.5>}"
            let run = await bus.gdbusCall("Notify", ["'App'", "0", "''", "'Sum'", "'Body'", "[]", hints, "5000"])
            #expect(run.succeeded, "\(run.errors)")
            let notification = try #require(await server.notifications.item(0))
            #expect(
                notification.hints == [
                    "image-data": .unsupported(signature: "(iiibiiay)"), "x-bytes": .unsupported(signature: "ay"),
                    "urgency": .string("high"), "x-nested": .unsupported(signature: "v"), "x-double": .double(1.5),
                ])
            #expect(notification.expireTimeout == 5000)
            await server.stop()
        }
    }

    @Test("A string over 64 KiB is cut to it at a character and the cut recorded; an array over 10,000 elements is refused with InvalidArgs; at the limits all is read")
    func limits() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            let client = try DBusClient(address: bus.address)
            let limit = DBusLimits.maximumStringBytes, count = DBusLimits.maximumArrayElements
            let refused = try await onThread {
                [
                    failure(of: client, notifyCall(summary: "s", actions: Array(repeating: "a", count: count + 1))),
                    failure(of: client, notifyCall(summary: "s", hints: Self.hints(count + 1))),
                ]
            }
            #expect(refused.map { $0?.name } == Array(repeating: DBusFailure.invalidArgsName, count: 2))
            #expect(server.notifications.items.isEmpty)
            let long = String(repeating: "a", count: limit + 1)
            // 32,768 two-byte characters and one more: cut after the 32,768th, never inside one.
            let accented = String(repeating: "é", count: limit / 2 + 1)
            let accepted = try await onThread {
                [
                    failure(of: client, notifyCall(summary: String(repeating: "a", count: limit))),
                    failure(of: client, notifyCall(summary: "s", actions: Array(repeating: "a", count: count))),
                    failure(of: client, notifyCall(summary: "s", hints: Self.hints(count))),
                    failure(of: client, notifyCall(summary: long, actions: ["k", long], hints: ["k": .string(accented), long: .bool(true)])),
                ]
            }
            #expect(accepted == [nil, nil, nil, nil])
            let items = server.notifications.items
            #expect(items.map(\.summary.utf8.count) == [limit, 1, 1, limit])
            #expect(items[0].cuts.isEmpty && items[1].cuts.isEmpty && items[2].cuts.isEmpty)
            #expect(items[2].hints.count == count)
            let cut = try #require(items.last)
            #expect(cut.actions[1].utf8.count == limit && cut.hints["k"] == .string(String(repeating: "é", count: limit / 2)))
            #expect(cut.hints.count == 1, "the entry whose name was cut is left out")
            #expect(
                Set(cut.cuts) == [
                    DBusStringCut(argument: 3, place: .whole, byteCount: limit + 1),
                    DBusStringCut(argument: 5, place: .element(1), byteCount: limit + 1),
                    DBusStringCut(argument: 6, place: .entryValue(key: "k"), byteCount: limit + 2),
                    DBusStringCut(argument: 6, place: .entryKey, byteCount: limit + 1),
                ])
            client.close()
            await server.stop()
        }
    }

    @Test("Unknown objects, methods and interfaces get their errors")
    func unknownCalls() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            let client = try DBusClient(address: bus.address)
            let failures = try await onThread {
                [
                    failure(of: client, DBusCall(destination: ProofServer.name, path: "/nowhere", interface: ProofServer.interface, member: "GetCapabilities")),
                    failure(of: client, DBusCall(destination: ProofServer.name, path: ProofServer.path, interface: ProofServer.interface, member: "Explode")),
                    failure(of: client, DBusCall(destination: ProofServer.name, path: ProofServer.path, interface: "org.example.Other", member: "GetCapabilities")),
                    failure(of: client, DBusCall(destination: ProofServer.name, path: ProofServer.path, interface: "org.freedesktop.DBus.Introspectable", member: "Introspect", arguments: [.string("x")])),
                ]
            }
            #expect(
                failures.map { $0?.name } == [
                    DBusFailure.unknownObjectName, DBusFailure.unknownMethodName, DBusFailure.unknownMethodName,
                    DBusFailure.invalidArgsName,
                ])
            // libdbus answers org.freedesktop.DBus.Peer itself.
            let ping = try await onThread {
                failure(of: client, DBusCall(destination: ProofServer.name, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping"))
            }
            #expect(ping == nil)
            client.close()
            await server.stop()
        }
    }

    @Test("1,000 Notify calls sent at once by one client are all answered, each with its own id")
    func thousandCalls() async throws {
        try await withPrivateBus { bus in
            let server = try await ProofServer.start(on: bus)
            let client = try DBusClient(address: bus.address)
            let (replies, errors) = try await onThread {
                var serials: Set<UInt32> = []
                for index in 0..<1000 {
                    serials.insert(try client.send(notifyCall(summary: "burst \(index)", hints: ["urgency": .byte(1)])))
                }
                var ids: [UInt32: UInt32] = [:]
                var errors: [DBusFailure] = []
                while ids.count + errors.count < 1000, let received = try client.receive(timeout: .seconds(30)) {
                    switch received {
                    case .reply(let serial, let values) where serials.contains(serial):
                        ids[serial] = values.first?.uint32
                    case .error(let serial, let failure) where serials.contains(serial):
                        errors.append(failure)
                    default:
                        break
                    }
                }
                return (ids, errors)
            }
            #expect(errors.isEmpty, "\(errors.prefix(3))")
            #expect(replies.count == 1000)
            #expect(Set(replies.values) == Set(1...1000))
            #expect(await server.notifications.wait(count: 1000))
            #expect(Set(server.notifications.items.map(\.summary)).count == 1000)
            let information = await bus.gdbusCall("GetServerInformation")
            #expect(information.succeeded, "\(information.errors)")
            client.close()
            await server.stop()
        }
    }

    /// `count` hints, each a string.
    static func hints(_ count: Int) -> [String: DBusValue] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { ("x-hint-\($0)", DBusValue.string("v")) })
    }
}

/// The error `call` got, or `nil` when it was answered.
func failure(of client: DBusClient, _ call: DBusCall) -> DBusFailure? {
    do {
        _ = try client.call(call)
        return nil
    } catch {
        return error
    }
}
