import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An author's content extension runs in a presenter process of its own under `serve`: its crash
/// costs its card, never the server (Tests/PrintProbe's `Faulting` extension traps with a
/// force-unwrap in `didReceive`, or leaves `[unowned self]` work behind for the next card).
@Suite("serve: an extension's crash costs its card, not the server", .tags(.endToEnd))
struct CenterPresenterTests {
    let scratch: URL
    let runtime: String
    let environment: [String: String]
    let app: String

    init() throws {
        scratch = try E2E.scratch()
        let bundle = scratch.appendingPathComponent("Extensions/Faulting.appex")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try ExtensionPlist.content(category: "crashing", principalClass: "FaultingViewController")
            .write(to: bundle.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        app = scratch.appendingPathComponent("Crasher.app.json").path
        try #"{"name": "Crasher", "extensions": "Extensions", "categories": [{"identifier": "crashing"}]}"#
            .write(toFile: app, atomically: true, encoding: .utf8)
        runtime = "/tmp/npp-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        var environment = E2E.childEnvironment
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = scratch.appendingPathComponent("config").path
        environment["XDG_RUNTIME_DIR"] = runtime
        self.environment = environment
    }

    func tearDown() {
        try? FileManager.default.removeItem(atPath: runtime)
        E2E.remove(scratch)
    }

    /// A payload titled `title`, of the `crashing` category (else none: the default card).
    func payload(_ title: String, crashing: Bool = true) throws -> String {
        let path = scratch.appendingPathComponent("\(UUID().uuidString).apns").path
        let category = crashing ? #", "category": "crashing""# : ""
        try #"{"aps": {"alert": {"title": "\#(title)"}\#(category)}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func startServer() async throws -> ChildProcess {
        let server = ChildProcess(
            try ExtensionOutputTests.probe(), ["serve", "--headless", "--events", "jsonl", "--audio", "null", "--app", app],
            environment: environment)
        try await server.start()
        try #require(await waitFor(server) { $0.contains { $0["event"] as? String == "shown" } }, "the server did not start")
        return server
    }

    /// Waits until the server's event lines so far satisfy `holds`.
    func waitFor(_ server: ChildProcess, _ holds: @escaping @Sendable ([[String: Any]]) -> Bool) async -> Bool {
        await server.send(0, whenStdout: { holds(Self.events(in: $0)) }, timeout: hangGuard) != nil
    }

    static func events(in data: Data) -> [[String: Any]] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    static func event(_ name: String, _ identifier: String, extension named: String? = nil) -> @Sendable ([String: Any]) -> Bool {
        { line in
            line["event"] as? String == name && line["identifier"] as? String == identifier
                && (named == nil || line["extension"] as? String == named)
        }
    }

    func send(_ payload: String, id: String, app: String = "Crasher") async throws {
        let sent = try await run(try ExtensionOutputTests.probe(), ["send", payload, "--app", app, "--id", id], environment: environment)
        #expect(sent.status == 0, "\(sent)")
    }

    /// The processes whose parent is `pid`.
    static func children(of pid: Int32) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> Int32? in
            guard let child = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid && fields[0] != "Z" ? child : nil
        }
    }

    /// Whether process `pid` runs (exists, and is not a zombie).
    static func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return false
        }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    @Test("A trap in didReceive: the card shows with the default card and a line, the server answers list and shows the next send; after a restart the extension never presents it again")
    func trapWhilePresenting() async throws {
        defer { tearDown() }
        let probe = try ExtensionOutputTests.probe()
        let server = try await startServer()
        defer { server.send(SIGKILL) }
        try await send(try payload("trap"), id: "t1")
        let line = "Faulting.appex crashed while presenting this notification: shown with the default card"
        let warned = await waitFor(server) { events in
            events.contains { $0["event"] as? String == "warning" && ($0["message"] as? String ?? "").hasPrefix(line) }
                && events.contains(where: Self.event("didReceive", "t1", extension: "DefaultContentExtension"))
        }
        #expect(warned, "no crash warning, or the card was not shown again with the default card: \(String(decoding: server.stdoutSoFar, as: UTF8.self))")
        let list = try await run(probe, ["list"], environment: environment)
        #expect(list.status == 0 && list.stdoutText.contains("t1"), "\(list)")
        try await send(try payload("after", crashing: false), id: "a2", app: "notiplay")
        #expect(await waitFor(server) { $0.contains(where: Self.event("shown", "a2")) }, "the next notification was not shown")
        let presenters = Self.children(of: server.processID ?? 0)
        server.send(SIGTERM)
        let ended = try await server.finish(timeout: hangGuard)
        #expect(ended.status == 128 + SIGTERM, "\(ended)")
        // No presenter outlives its server.
        #expect(!presenters.isEmpty, "no presenter process was seen")
        for pid in presenters {
            var gone = !Self.alive(pid)
            // A hang guard: the presenter ends when it reads its socket's end.
            for _ in 0..<600 where !gone {
                try await Task.sleep(for: .milliseconds(50))
                gone = !Self.alive(pid)
            }
            #expect(gone, "presenter \(pid) outlived the server")
        }

        // Restarted: t1 is restored, and shown with the default card, never by Faulting.
        let again = try await startServer()
        defer { again.send(SIGKILL) }
        try await send(try payload("after restart", crashing: false), id: "a3", app: "notiplay")
        #expect(await waitFor(again) { $0.contains(where: Self.event("shown", "a3")) }, "the restarted server did not show a new card")
        again.send(SIGTERM)
        let second = try await again.finish(timeout: hangGuard)
        let events = Self.events(in: second.stdout)
        #expect(!events.contains(where: Self.event("didReceive", "t1", extension: "Faulting")), "\(second)")
        #expect(!events.contains { $0["event"] as? String == "warning" && ($0["message"] as? String ?? "").contains("crashed") }, "\(second)")
    }

    @Test("Work a gone card left behind traps when the next card of its extension comes: that card has a presenter of its own, and the server goes on")
    func trapAfterTheCardWent() async throws {
        defer { tearDown() }
        let probe = try ExtensionOutputTests.probe()
        let server = try await startServer()
        defer { server.send(SIGKILL) }
        try await send(try payload("later"), id: "l1")
        #expect(await waitFor(server) { $0.contains(where: Self.event("didReceive", "l1", extension: "Faulting")) }, "l1 was not presented")
        let removed = try await run(probe, ["remove", "l1"], environment: environment)
        #expect(removed.status == 0, "\(removed)")
        try await send(try payload("second"), id: "l2")
        #expect(await waitFor(server) { $0.contains(where: Self.event("shown", "l2")) }, "l2 was not shown")
        #expect(await waitFor(server) { $0.contains(where: Self.event("didReceive", "l2", extension: "Faulting")) }, "l2 was not presented")
        let list = try await run(probe, ["list"], environment: environment)
        #expect(list.status == 0 && list.stdoutText.contains("l2"), "\(list)")
        server.send(SIGTERM)
        let ended = try await server.finish(timeout: hangGuard)
        #expect(ended.status == 128 + SIGTERM, "\(ended)")
    }

    @Test("In a terminal the crashed card shows the default card with the line saying so, and q still quits")
    func terminalLine() async throws {
        defer { tearDown() }
        let keys = ["XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR"]
        let pane = try await TmuxPane(columns: 100, environment: environment.filter { keys.contains($0.key) })
        let command = [try ExtensionOutputTests.probe(), "serve", "--audio", "null", "--app", app].map(E2E.shellQuoted)
        try await pane.type(command.joined(separator: " ") + "; echo \"EXIT=$?\"")
        try await pane.expectScreen("the server did not start") { $0.contains("no notifications") }
        try await send(try payload("trap"), id: "t1")
        let screen = try await pane.expectScreen("the crashed card never showed its line") {
            $0.contains("Faulting.appex crashed while presenting this notification: shown with the default card")
        }
        #expect(screen?.contains("trap") == true, "\(screen ?? "")")
        try await pane.keys("q")
        let after = try #require(try await pane.expectScreen("the server did not end") { TerminalCardTests.exitLine($0) != nil })
        #expect(TerminalCardTests.exitLine(after) == "EXIT=0", "\(after)")
    }

    @Test("An extension that never returns from didReceive is ended after the presenter's answer limit: its card shows with the default card, the server goes on")
    func hangWhilePresenting() async throws {
        defer { tearDown() }
        let server = try await startServer()
        defer { server.send(SIGKILL) }
        try await send(try payload("hang"), id: "h1")
        let ended = await waitFor(server) { events in
            events.contains { $0["event"] as? String == "warning" && ($0["message"] as? String ?? "").contains("(signal 9)") }
                && events.contains(where: Self.event("didReceive", "h1", extension: "DefaultContentExtension"))
        }
        #expect(ended, "the hung presenter was not ended: \(String(decoding: server.stdoutSoFar, as: UTF8.self))")
        let list = try await run(try ExtensionOutputTests.probe(), ["list"], environment: environment)
        #expect(list.status == 0 && list.stdoutText.contains("h1"), "\(list)")
        server.send(SIGTERM)
        let result = try await server.finish(timeout: hangGuard)
        #expect(result.status == 128 + SIGTERM, "\(result)")
    }
}
