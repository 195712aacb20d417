import Foundation
import NotiplayTestSupport
import NotiplayDBus
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `sound-file` hint that cannot become an audio attachment.
enum BadSoundFile: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case directory, fifo, deviceZero, missing, httpURL

    var testDescription: String { rawValue }

    /// The hint's value, made in `folder` when it needs a file there.
    func value(in folder: URL) throws -> String {
        switch self {
        case .directory:
            return folder.path
        case .fifo:
            // Nobody ever writes to it: a server that opened it to read would wait forever.
            let path = folder.appendingPathComponent("sound.fifo").path
            try #require(mkfifo(path, 0o600) == 0)
            return path
        case .deviceZero: return "/dev/zero"
        case .missing: return folder.appendingPathComponent("no-such-sound.wav").path
        case .httpURL: return "http://127.0.0.1:9/chime.wav"
        }
    }
}

/// Name ownership, and what a client can send wrong.
extension FreedesktopTests {
    @Test("A second serve --freedesktop on the bus: 69, saying --replace; with --replace it takes the name and the first says it lost it; no or a dead bus: 69")
    func nameOwnership() async throws {
        try await withFreedesktopFixture { fixture in
            let binary = try E2E.binary()
            let first = try await fixture.startServer(mergingErrors: true)
            let second = try await run(
                binary, ["serve", "--headless", "--freedesktop", "--audio", "null"], environment: try fixture.otherServerEnvironment("b"))
            #expect(second.status == 69, "\(second)")
            #expect(second.stderrText.contains("org.freedesktop.Notifications is owned by notiplay "), "\(second)")
            #expect(second.stderrText.contains("or take the name with --replace"), "\(second)")

            let third = try await fixture.startServer(
                ["--audio", "null", "--replace"], environment: try fixture.otherServerEnvironment("c"), keys: false)
            #expect(await first.until(["another server took org.freedesktop.Notifications"]), "\(first.stdoutText)")
            let sent = try await fixture.notifySend("-p", "To the new owner")
            #expect(sent.stdoutText == "1\n", "\(sent)")
            #expect(await third.untilEvent("arrived", id: 1), "\(third.stdoutText)")
            #expect(first.lines(containing: ["\"event\":\"arrived\""]).isEmpty, "\(first.stdoutText)")
            // What the first does then: it goes on as a center without the name.
            #expect(first.endedAt == nil, "the first server ended: \(first.stdoutText)")

            for server in [third, first] {
                let ended = try await fixture.stop(server)
                #expect(ended.status == 128 + SIGTERM, "\(ended)")
            }

            var noBus = try fixture.otherServerEnvironment("d")
            noBus["DBUS_SESSION_BUS_ADDRESS"] = nil
            let without = try await run(binary, ["serve", "--headless", "--freedesktop", "--audio", "null"], environment: noBus)
            #expect(without.status == 69, "\(without)")
            #expect(without.stderrText.contains("DBUS_SESSION_BUS_ADDRESS is not set"), "\(without)")
            noBus["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(fixture.root.path)/no-bus-here"
            let dead = try await run(binary, ["serve", "--headless", "--freedesktop", "--audio", "null"], environment: noBus)
            #expect(dead.status == 69, "\(dead)")
            #expect(dead.stderrText.contains("cannot reach the session bus"), "\(dead)")
        }
    }

    @Test(
        "Notify with wrong argument types: a D-Bus error (InvalidArgs), and the server still answers",
        .enabled(if: FreedesktopTools.dbusSend != nil, "dbus-send (package dbus-bin, installed with dbus) is missing"))
    func wrongArgumentTypes() async throws {
        try await withFreedesktop { fixture, _ in
            // gdbus checks its arguments against the server's introspection data: nothing is sent.
            let refused = try await fixture.gdbusCall("Notify", "app", "notanint", "", "Title", "", "[]", "{}", "-1")
            #expect(refused.status != 0 && refused.stderrText.contains("parameter 2"), "\(refused)")

            // dbus-send sends what it is told: a string where replaces_id (u) goes.
            let dbusSend = try #require(FreedesktopTools.dbusSend)
            let header = [
                "--session", "--print-reply", "--dest=\(FreedesktopTools.busName)", FreedesktopTools.objectPath,
                "\(FreedesktopTools.busName).Notify",
            ]
            for arguments in [
                ["string:app", "string:notanint", "string:", "string:Title", "string:", "array:string:", "dict:string:string:", "int32:-1"],
                ["string:app", "uint32:0", "string:", "string:Title"],
                [],
            ] {
                let sent = try await run(dbusSend, header + arguments, environment: fixture.environment)
                #expect(sent.status != 0, "\(sent)")
                #expect(sent.stderrText.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(sent)")
                #expect(try await fixture.serverAnswers(), "after \(arguments)")
            }
            let unknown = try await fixture.gdbusCall("Nonexistent")
            #expect(unknown.status != 0 && unknown.stderrText.contains("UnknownMethod"), "\(unknown)")
            let listed = try await fixture.listed()
            #expect(listed.isEmpty, "listed: \(listed)")
            #expect(try await fixture.serverAnswers())
        }
    }

    @Test("A hint of the wrong variant type (urgency <\"high\">): a card, and a warning event naming the hint")
    func wrongHintType() async throws {
        try await withFreedesktop { fixture, server in
            let sent = try await fixture.gdbusCall("Notify", "app", "0", "", "Urgent?", "", "[]", "{'urgency': <'high'>}", "-1")
            #expect(sent.status == 0 && sent.stdoutText == "(uint32 1,)\n", "\(sent)")
            #expect(await server.untilEvent("shown", id: 1), "\(server.stdoutText)")
            let warned = await server.untilEvent("warning", id: 1, "\"id\":1", "\"key\":\"hints.urgency\"", "\"message\":\"")
            #expect(warned, "no warning: \(server.stdoutText)")
            #expect(try await fixture.serverAnswers())
        }
    }

    @Test("notify-send with a body over 64 KiB: a card, its body cut at 64 KiB with a warning naming the body")
    func bodyOver64KiB() async throws {
        try await withFreedesktop { fixture, server in
            let sent = try await fixture.notifySend("-p", "t", String(repeating: "B", count: 65_537))
            #expect(sent.status == 0 && sent.stdoutText == "1\n", "\(sent)")
            #expect(await server.untilEvent("shown", id: 1), "\(server.stdoutText)")
            let warned = await server.untilEvent("warning", id: 1, "\"key\":\"body\"", "65537 bytes")
            #expect(warned, "no warning: \(server.stdoutText)")
            let list = try await fixture.notiplay("list", "--json")
            let rows = try #require(try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]], "\(list)")
            #expect((rows.first?["body"] as? String)?.utf8.count == 65_536, "\(list.stdoutText.prefix(300))")
        }
    }

    @Test(
        "A sound-file that is not a regular local audio file: a card without sound, a warning, never a hang",
        arguments: BadSoundFile.allCases)
    func badSoundFile(_ bad: BadSoundFile) async throws {
        try await withFreedesktop { fixture, server in
            let value = try bad.value(in: fixture.root)
            let sent = try await fixture.gdbusCall("Notify", "app", "0", "", "Sound?", "", "[]", "{'sound-file': <'\(value)'>}", "-1")
            #expect(sent.status == 0 && sent.stdoutText == "(uint32 1,)\n", "\(sent)")
            #expect(try await fixture.serverAnswers(), "the server no longer answers")
            #expect(await server.untilEvent("shown", id: 1), "\(server.stdoutText)")
            let buttons = server.lines(containing: ["\"event\":\"buttonState\""])
            #expect(buttons.count == 1 && buttons.allSatisfy { $0.contains("\"state\":\"none\"") }, "a media button: \(server.stdoutText)")
            let warned = await server.untilEvent("warning", id: 1, "\"key\":\"hints.sound-file\"")
            #expect(warned, "no warning: \(server.stdoutText)")
        }
    }

    @Test("1,000 Notify calls at once from a shell (50 gdbus at a time): every one answered, ids distinct; another client is answered after")
    func thousandCalls() async throws {
        try await withFreedesktop { fixture, server in
            let script = fixture.root.appendingPathComponent("flood.sh")
            try """
            for batch in $(seq 1 20); do
              for call in $(seq 1 50); do
                "$GDBUS" call --session --dest \(FreedesktopTools.busName) --object-path \(FreedesktopTools.objectPath) \\
                  --method \(FreedesktopTools.busName).Notify -- flood 0 '' "call $batch.$call" '' '[]' '{}' -1 >> "$IDS" 2>> "$ERRORS" &
              done
              wait
            done
            """.write(to: script, atomically: true, encoding: .utf8)
            let gdbus = try #require(FreedesktopTools.gdbus)
            var environment = fixture.environment
            environment["GDBUS"] = gdbus
            environment["IDS"] = fixture.root.appendingPathComponent("ids.txt").path
            environment["ERRORS"] = fixture.root.appendingPathComponent("errors.txt").path
            // A hang guard for 1,000 processes on a loaded 2-core machine, not a bound.
            let flood = try await run("/bin/bash", [script.path], timeout: 600, environment: environment)
            #expect(flood.status == 0, "\(flood)")
            let errors = (try? String(contentsOfFile: environment["ERRORS"]!, encoding: .utf8)) ?? ""
            #expect(errors.isEmpty, "\(errors.prefix(2_000))")
            let answers = try String(contentsOfFile: environment["IDS"]!, encoding: .utf8).split(separator: "\n")
            let ids = answers.compactMap { line -> UInt32? in
                guard line.hasPrefix("(uint32 "), line.hasSuffix(",)") else { return nil }
                return UInt32(line.dropFirst("(uint32 ".count).dropLast(2))
            }
            #expect(answers.count == 1_000 && ids.count == 1_000, "\(answers.count) answers, \(ids.count) ids")
            #expect(Set(ids).count == ids.count && !ids.contains(0), "ids repeat or are 0")

            #expect(try await fixture.serverAnswers())
            let after = try await fixture.notifySend("-p", "After the flood")
            #expect(after.status == 0 && after.stdoutText == "1001\n", "\(after)")
            let listed = try await fixture.listed()
            #expect(listed.count == 1_001, "\(listed.count) listed")
            #expect(await server.untilEvent("arrived", id: 1_001), "\(server.stdoutText.suffix(2_000))")
        }
    }

    @Test("1,000 Notify calls sent at once on one connection: every one answered with its own id; another client is answered meanwhile")
    func thousandCallsOneClient() async throws {
        try await withFreedesktop { fixture, server in
            let address = fixture.bus.address
            let client = try DBusClient(address: address)
            var serials: [UInt32] = []
            for number in 1...1_000 {
                serials.append(try client.send(DBusCall(
                    destination: FreedesktopTools.busName, path: FreedesktopTools.objectPath, interface: FreedesktopTools.busName,
                    member: "Notify",
                    arguments: [.string("flood"), .uint32(0), .string(""), .string("call \(number)"), .string(""), .strings([]), .variants([:]), .int32(-1)])))
            }
            // Another client, while the thousand are being answered.
            #expect(try await fixture.serverAnswers())
            let replies = try await Task.detached {
                var ids: [UInt32: UInt32] = [:]
                // A hang guard on a loaded 2-core machine, not a bound: each reply waits at most this.
                while ids.count < 1_000, let received = try client.receive(timeout: .seconds(60)) {
                    if case .reply(let serial, let values) = received, case .uint32(let id)? = values.first { ids[serial] = id }
                    if case .error(let serial, let failure) = received { Issue.record("call \(serial): \(failure)") }
                }
                return ids
            }.value
            #expect(Set(replies.keys) == Set(serials), "\(replies.count) of 1,000 answered")
            #expect(Set(replies.values).count == 1_000 && !replies.values.contains(0), "ids repeat or are 0")
            #expect(await server.untilEvent("arrived", id: 1_000), "\(server.stdoutText.suffix(2_000))")
            #expect(try await fixture.serverAnswers())
        }
    }

    @Test("1,000 CloseNotification calls sent at once: every one answered, every notification removed (one store write for those waiting together)")
    func thousandClosesOneClient() async throws {
        try await withFreedesktop { fixture, server in
            let client = try DBusClient(address: fixture.bus.address)
            func call(_ member: String, _ arguments: [DBusValue]) throws -> UInt32 {
                try client.send(DBusCall(
                    destination: FreedesktopTools.busName, path: FreedesktopTools.objectPath, interface: FreedesktopTools.busName,
                    member: member, arguments: arguments))
            }
            func replies(to serials: [UInt32]) async throws -> [UInt32: [DBusValue]] {
                try await Task.detached {
                    var found: [UInt32: [DBusValue]] = [:]
                    // A hang guard on a loaded 2-core machine, not a bound: each reply waits at most this.
                    while found.count < serials.count, let received = try client.receive(timeout: .seconds(60)) {
                        if case .reply(let serial, let values) = received { found[serial] = values }
                        if case .error(let serial, let failure) = received { Issue.record("call \(serial): \(failure)") }
                    }
                    return found
                }.value
            }
            let notifies = try (1...1_000).map { number in
                try call("Notify", [.string("flood"), .uint32(0), .string(""), .string("n \(number)"), .string(""), .strings([]), .variants([:]), .int32(0)])
            }
            let ids = try await replies(to: notifies).values.compactMap { values -> UInt32? in
                if case .uint32(let id)? = values.first { id } else { nil }
            }
            #expect(ids.count == 1_000)
            let start = ContinuousClock.now
            let closes = try ids.map { try call("CloseNotification", [.uint32($0)]) }
            let answered = try await replies(to: closes)
            print("1,000 CloseNotification answered in \(ContinuousClock.now - start)")
            #expect(Set(answered.keys) == Set(closes), "\(answered.count) of 1,000 answered")
            let listed = try await fixture.notiplay("list")
            #expect(listed.status == 0 && listed.stdoutText.isEmpty, "\(listed.stdoutText.prefix(500))")
            let history = try await fixture.notiplay("history", "--limit", "2000")
            #expect(history.stdoutText.split(separator: "\n").filter { $0.contains("  removed  ") }.count == 1_000)
            #expect(try await fixture.serverAnswers())
            _ = server
        }
    }
}
