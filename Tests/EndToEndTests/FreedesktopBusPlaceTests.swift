import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where `serve --freedesktop` finds the session bus, and what it says of a server that keeps
/// the name.
extension FreedesktopTests {
    @Test("No DBUS_SESSION_BUS_ADDRESS: the bus at $XDG_RUNTIME_DIR/bus is used, and notify-send reaches the server; a file there that is no socket of ours: 69 naming both places")
    func runtimeFolderBus() async throws {
        try await withFreedesktopFixture { fixture in
            var environment = fixture.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = nil
            let runtime = try #require(environment["XDG_RUNTIME_DIR"])
            let busPath = runtime + "/bus"
            // The bus's own socket under a second name (a hard link, the same socket): what
            // systemd's user session makes at $XDG_RUNTIME_DIR/bus.
            let socket = try #require(Self.socketPath(of: fixture.bus.address), "\(fixture.bus.address)")
            try #require(link(socket, busPath) == 0, "link: \(String(cString: strerror(errno)))")
            let server = try await fixture.startServer(environment: environment)
            let sent = try await fixture.notifySend("-p", "Over ssh")
            #expect(sent.status == 0 && sent.stdoutText == "1\n", "\(sent)")
            #expect(await server.untilEvent("arrived", id: 1), "\(server.stdoutText)")
            let ended = try await fixture.stop(server)
            #expect(ended.status == 128 + SIGTERM, "\(ended)")

            // Not a socket: no bus found, and the message names both places looked at.
            var other = try fixture.otherServerEnvironment("b")
            other["DBUS_SESSION_BUS_ADDRESS"] = ""
            let otherBus = try #require(other["XDG_RUNTIME_DIR"]) + "/bus"
            try Data("not a socket".utf8).write(to: URL(fileURLWithPath: otherBus))
            let refused = try await run(try E2E.binary(), ["serve", "--headless", "--freedesktop", "--audio", "null"], environment: other)
            #expect(refused.status == 69, "\(refused)")
            #expect(refused.stderrText.contains("DBUS_SESSION_BUS_ADDRESS is not set"), "\(refused)")
            #expect(refused.stderrText.contains("$XDG_RUNTIME_DIR/bus is not a socket of yours"), "\(refused)")

            // A socket someone else owns is not this user's session bus (root can give it away).
            if getuid() == 0 {
                try FileManager.default.removeItem(atPath: otherBus)
                try #require(link(socket, otherBus) == 0)
                try #require(chown(otherBus, 65534, 65534) == 0)
                let foreign = try await run(
                    try E2E.binary(), ["serve", "--headless", "--freedesktop", "--audio", "null"], environment: other)
                try #require(chown(otherBus, 0, 0) == 0)
                #expect(foreign.status == 69, "\(foreign)")
                #expect(foreign.stderrText.contains("$XDG_RUNTIME_DIR/bus is not a socket of yours"), "\(foreign)")
            }
        }
    }

    @Test("The name kept by another notiplay: 69 naming it (notiplay, its version, its pid) and suggesting --replace")
    func ownerNamedNotiplay() async throws {
        try await withFreedesktopFixture { fixture in
            let first = try await fixture.startServer()
            let pid = try #require(first.processID)
            let version = try await fixture.notiplay("--version").stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            let second = try await run(
                try E2E.binary(), ["serve", "--headless", "--freedesktop", "--audio", "null"],
                environment: try fixture.otherServerEnvironment("b"))
            #expect(second.status == 69, "\(second)")
            #expect(
                second.stderrText.contains(
                    "org.freedesktop.Notifications is owned by notiplay \(version) (vendor notiplay, pid \(pid)): stop it (kill \(pid)), or take the name with --replace"),
                "\(second)")
            let ended = try await fixture.stop(first)
            #expect(ended.status == 128 + SIGTERM, "\(ended)")
        }
    }

    /// A desktop daemon installed here, on Xvfb: its program and what it says of itself.
    struct Daemon: Sendable {
        let program: String
        let serverName: String
        let vendor: String
        var installed: Bool { FileManager.default.isExecutableFile(atPath: program) }

        static let dunst = Daemon(program: E2E.which("dunst") ?? "/usr/bin/dunst", serverName: "dunst", vendor: "knopwob")
        static let xfce = Daemon(
            program: "/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd", serverName: "Xfce Notify Daemon", vendor: "Xfce")
    }

    @Test(
        "The name kept by a real dunst (on Xvfb): 69 naming it, its version and pid; --replace asks it to end and takes the name",
        .enabled(if: Daemon.dunst.installed && E2E.which("Xvfb") != nil, "needs dunst and Xvfb (apt-get install dunst xvfb)"))
    func ownerDunst() async throws { try await ownerNamedAndReplaced(.dunst) }

    @Test(
        "The same with a real xfce4-notifyd (on Xvfb)",
        .enabled(if: Daemon.xfce.installed && E2E.which("Xvfb") != nil, "needs xfce4-notifyd and Xvfb (apt-get install xfce4-notifyd xvfb)"))
    func ownerXfce() async throws { try await ownerNamedAndReplaced(.xfce) }

    func ownerNamedAndReplaced(_ daemon: Daemon) async throws {
        try await withFreedesktopFixture { fixture in
            // -displayfd: Xvfb picks a display number nobody uses and prints it when it is ready.
            let xvfb = fixture.track(ChildProcess(try #require(E2E.which("Xvfb")), ["-displayfd", "1", "-nolisten", "tcp"]))
            try await xvfb.start()
            let ready = await xvfb.send(0, whenStdout: { $0.contains(UInt8(ascii: "\n")) }, timeout: 30)
            try #require(ready != nil, "Xvfb did not start: \(xvfb.stdoutText)")
            let display = xvfb.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            var environment = fixture.environment
            environment["DISPLAY"] = ":" + display
            environment["WAYLAND_DISPLAY"] = nil
            let owner = fixture.track(ChildProcess(daemon.program, [], environment: environment))
            try await owner.start()
            let waited = try await run(
                try #require(FreedesktopTools.gdbus), ["wait", "--session", "--timeout", "30", FreedesktopTools.busName],
                environment: fixture.environment)
            try #require(waited.status == 0, "\(daemon.serverName) did not take the name: \(waited)")
            let pid = try #require(owner.processID)

            let refused = try await run(
                try E2E.binary(), ["serve", "--headless", "--freedesktop", "--audio", "null"],
                environment: try fixture.otherServerEnvironment("n"))
            #expect(refused.status == 69, "\(refused)")
            #expect(refused.stderrText.contains("org.freedesktop.Notifications is owned by \(daemon.serverName) "), "\(refused)")
            #expect(refused.stderrText.contains("(vendor \(daemon.vendor), pid \(pid))"), "\(refused)")
            #expect(refused.stderrText.contains("kill \(pid)"), "\(refused)")
            #expect(refused.stderrText.contains("or take the name with --replace"), "\(refused)")
            #expect(owner.endedAt == nil, "\(daemon.serverName) ended: \(owner.stdoutText)")

            let server = try await fixture.startServer(
                ["--audio", "null", "--replace"], environment: try fixture.otherServerEnvironment("r"), mergingErrors: true)
            #expect(
                await server.until(["--replace: \(daemon.serverName) ", "it was asked to end (SIGTERM), and the name is now notiplay's"]),
                "\(server.stdoutText)")
            let information = try await fixture.gdbusCall("GetServerInformation")
            #expect(information.stdoutText.hasPrefix("('notiplay', "), "\(information)")
            let ownerEnd = try await owner.finish(timeout: 30)
            #expect(ownerEnd.status == 0 || ownerEnd.status == 128 + SIGTERM, "\(ownerEnd)")
            let sent = try await fixture.notifySend("-p", "After the takeover")
            #expect(sent.status == 0, "\(sent)")
            let ended = try await fixture.stop(server)
            #expect(ended.status == 128 + SIGTERM, "\(ended)")
        }
    }

    /// The socket's path in a `unix:path=PATH,guid=…` address (the test bus's).
    static func socketPath(of address: String) -> String? {
        guard address.hasPrefix("unix:path=") else { return nil }
        return address.dropFirst("unix:path=".count).split(separator: ",").first.map(String.init)
    }
}
