import Foundation
import NotiplayTestSupport
import Testing

/// An app's Swift program (`notiplay-app-probe`, built with the tests) against `notiplay serve`.
/// Seed 002's app code itself is the `custom-number` program of the author package
/// Examples/Ports; its script Examples/Ports/Scripts/app-end-to-end.sh, which Scripts/test runs,
/// sends its request to a server on a virtual clock: pending at 29 s, presented by the
/// CustomNumber extension at 30 s.
@Suite("an app's program against serve", .tags(.endToEnd))
struct AppProgramTests {
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

    /// A program built beside `notiplay` (`notiplay-app-probe`).
    static func program(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let path = URL(fileURLWithPath: try E2E.binary(sourceLocation: sourceLocation)).deletingLastPathComponent()
            .appendingPathComponent(name).path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is not built (swift build --build-tests builds it)")
        return path
    }

    @Test("With no server running, an app's add fails at once saying how to start one")
    func noServer() async throws {
        defer { removeFolders() }
        let socket = environment["XDG_RUNTIME_DIR"]! + "/notiplay/center.sock"
        let probe = try await run(try Self.program("notiplay-app-probe"), [], environment: environment)
        #expect(probe.status == 1, "\(probe)")
        #expect(probe.stderrText == "no notification center is running at \(socket); start one with `notiplay serve`\n", "\(probe)")
    }
}

/// Seed 002's card in a real terminal (tmux): `serve` draws the number of the request seed 002's
/// app code adds (Examples/Ports's `custom-number`), sent here as the sample's payload.
extension TerminalCardTests {
    @Test("serve in a terminal draws seed 002's number, 33, large, once its 30 s have passed on the virtual clock")
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

        let payload = E2E.root.appendingPathComponent("Samples/CustomNumber/custom-number.apns").path
        let sent = try await run(
            bin, ["send", payload, "--app", "Custom Number", "--id", "extensionNotification", "--after", "30s"], environment: environment)
        #expect(sent.status == 0, "\(sent)")
        let advanced = try await run(bin, ["clock", "--advance", "30s"], environment: environment)
        #expect(advanced.status == 0, "\(advanced)")
        // 33 in the CustomNumber extension's block digits: the top rows of two 3s, a column apart.
        try await pane.expectScreen("the card did not draw 33") { $0.contains("███ ███") && $0.contains("Notification Subtitle") }
        try await pane.keys("q")
        try await expectRestored(pane, exit: "0")
    }
}
