import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Seed 002's app code as a Swift program (`custom-number`, built with the tests) against a real
/// `notiplay serve` on a virtual clock: the program's request is stored pending, fires 30 s of
/// the server's time later, and the CustomNumber extension presents it.
@Suite("an app's program: seed 002's code against serve", .tags(.endToEnd))
struct SeedAppTests {
    let scratch: URL
    let environment: [String: String]

    init() throws {
        scratch = try E2E.scratch()
        var environment = E2E.childEnvironment
        environment["NOTIPLAY_APP"] = nil  // the program's name says which app it speaks for
        environment["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = scratch.appendingPathComponent("config").path
        // Short (a socket path holds 107 bytes), and private, as a session's runtime folder is.
        let runtime = "/tmp/npa-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        environment["XDG_RUNTIME_DIR"] = runtime
        self.environment = environment
    }

    func removeFolders() {
        E2E.remove(scratch)
        try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
    }

    /// A program built beside `notiplay` (`custom-number`, `notiplay-app-probe`).
    static func program(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let path = URL(fileURLWithPath: try E2E.binary(sourceLocation: sourceLocation)).deletingLastPathComponent()
            .appendingPathComponent(name).path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is not built (swift build --build-tests builds it)")
        return path
    }

    func notiplay(_ arguments: String...) async throws -> RunResult {
        try await run(try E2E.binary(), arguments, environment: environment)
    }

    /// The identifiers and apps `list` prints with `--json` and `arguments`.
    func listed(_ arguments: String...) async throws -> [String] {
        let result = try await run(try E2E.binary(), ["list", "--json"] + arguments, environment: environment)
        try #require(result.status == 0, "\(result)")
        let objects = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]], "\(result)")
        return objects.map { "\($0["identifier"] ?? "") \($0["app"] ?? "")" }
    }

    @Test("The seed's program stores its request pending; 29 s of the server's time later it still waits, at 30 s the CustomNumber extension presents it")
    func seedProgramThroughTheServer() async throws {
        defer { removeFolders() }
        let app = E2E.root.appendingPathComponent("Samples/CustomNumber/CustomNumber.app.json").path
        let server = ChildProcess(
            try E2E.binary(),
            ["serve", "--headless", "--events", "jsonl", "--clock", "virtual", "--start", "2026-01-05T09:00", "--audio", "null", "--app", app],
            environment: environment)
        try await server.start()
        defer { server.send(SIGKILL) }
        /// Waits for a server event line holding every one of `texts`.
        func serverSays(_ texts: String...) async -> Bool {
            await server.send(0, whenStdout: { output in
                String(decoding: output, as: UTF8.self).split(separator: "\n").contains { line in texts.allSatisfy { line.contains($0) } }
            }, timeout: hangGuard) != nil
        }
        try #require(await serverSays(#""event":"shown""#), "the server did not start")

        let seed = try await run(try Self.program("custom-number"), [], environment: environment)
        #expect(seed.status == 0 && seed.stdout.isEmpty && seed.stderr.isEmpty, "\(seed)")
        #expect(try await listed("--pending") == ["extensionNotification Custom Number"])

        let early = try await notiplay("clock", "--advance", "29s")
        #expect(early.status == 0, "\(early)")
        #expect(try await listed("--pending") == ["extensionNotification Custom Number"], "not due before 30 s")
        #expect(!String(decoding: server.stdoutSoFar, as: UTF8.self).contains(#""event":"fired""#))

        let due = try await notiplay("clock", "--advance", "1s")
        #expect(due.status == 0, "\(due)")
        #expect(await serverSays(#""event":"fired""#, #""identifier":"extensionNotification""#), "it did not fire")
        #expect(
            await serverSays(#""event":"didReceive""#, #""identifier":"extensionNotification""#, #""category":"category""#, #""extension":"CustomNumber""#),
            "the CustomNumber extension did not present it: \(String(decoding: server.stdoutSoFar, as: UTF8.self))")
        #expect(try await listed("--delivered") == ["extensionNotification Custom Number"])

        server.send(SIGTERM)
        let result = try await server.finish(timeout: hangGuard)
        #expect(result.status == 128 + SIGTERM, "\(result)")
    }

    @Test("With no server running, an app's add fails at once saying how to start one; the seed's program ends without a request")
    func noServer() async throws {
        defer { removeFolders() }
        let socket = environment["XDG_RUNTIME_DIR"]! + "/notiplay/center.sock"
        let probe = try await run(try Self.program("notiplay-app-probe"), [], environment: environment)
        #expect(probe.status == 1, "\(probe)")
        #expect(probe.stderrText == "no notification center is running at \(socket); start one with `notiplay serve`\n", "\(probe)")
        let seed = try await run(try Self.program("custom-number"), [], environment: environment)
        #expect(seed.status == 0 && seed.stdout.isEmpty && seed.stderr.isEmpty, "not authorized: nothing added, \(seed)")
    }
}

/// The seed's card in a real terminal (tmux): `serve` draws the number the program sent.
extension TerminalCardTests {
    @Test("serve in a terminal draws the seed program's number, 33, large, once its 30 s have passed on the virtual clock")
    func seedProgramCard() async throws {
        defer { E2E.remove(scratch) }
        let runtime = "/tmp/npa-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let places = [
            "XDG_STATE_HOME": scratch.appendingPathComponent("state").path, "XDG_RUNTIME_DIR": runtime,
            "XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path,
        ]
        var environment = E2E.childEnvironment
        environment["NOTIPLAY_APP"] = nil
        environment.merge(places) { _, new in new }
        let pane = try await TmuxPane(environment: places)
        let bin = try E2E.binary()
        let app = E2E.root.appendingPathComponent("Samples/CustomNumber/CustomNumber.app.json").path
        try await pane.type("stty -g > \(scratchFile("before")); echo READY")
        try await pane.expectScreen("the shell did not answer") { $0.split(separator: "\n").contains(where: Self.isReadyLine) }
        try await pane.type(
            "\(E2E.shellQuoted(bin)) serve --clock virtual --start 2026-01-05T09:00 --audio null --app \(E2E.shellQuoted(app)); "
                + "echo \"EXIT=$?\"; stty -g > \(scratchFile("after"))")
        try await pane.expectScreen("serve did not show its empty deck") { $0.contains("no notifications") }

        let seed = try await run(try SeedAppTests.program("custom-number"), [], environment: environment)
        #expect(seed.status == 0, "\(seed)")
        let advanced = try await run(bin, ["clock", "--advance", "30s"], environment: environment)
        #expect(advanced.status == 0, "\(advanced)")
        // 33 in the CustomNumber extension's block digits: the top rows of two 3s, a column apart.
        try await pane.expectScreen("the card did not draw 33") { $0.contains("███ ███") && $0.contains("Notification Subtitle") }
        try await pane.keys("q")
        try await expectRestored(pane, exit: "0")
    }
}
