import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `serve --freedesktop` with real clients (`notify-send`, `gdbus call`, `gdbus monitor`) on a bus
/// of each test's own. One test at a time: each runs a bus, a server and its clients, on a machine
/// that may have two cores.
@Suite(
    "serve --freedesktop: notify-send and gdbus on a private bus", .serialized, .tags(.endToEnd),
    .enabled(
        if: FreedesktopTools.present,
        "needs dbus-daemon (dbus), notify-send (libnotify-bin) and gdbus (libglib2.0-bin): Scripts/ensure-deps.sh installs them"))
struct FreedesktopTests {
    @Test("GetServerInformation says notiplay and spec 1.2; GetCapabilities lists actions, body, body-markup, persistence, sound")
    func serverInformation() async throws {
        try await withFreedesktop { fixture, _ in
            let information = try await fixture.gdbusCall("GetServerInformation")
            #expect(information.status == 0, "\(information)")
            #expect(information.stdoutText.hasPrefix("('notiplay', 'notiplay', '"), "\(information)")
            #expect(information.stdoutText.hasSuffix("', '1.2')\n"), "\(information)")
            let capabilities = try await fixture.gdbusCall("GetCapabilities")
            #expect(capabilities.status == 0, "\(capabilities)")
            for capability in ["actions", "body", "body-markup", "persistence", "sound"] {
                #expect(capabilities.stdoutText.contains("'\(capability)'"), "no \(capability): \(capabilities)")
            }
        }
    }

    @Test("notify-send -p prints the id; list --json has freedesktop-ID with its title and plain body; history after")
    func notifySendPrintsTheID() async throws {
        try await withFreedesktop { fixture, server in
            let first = try await fixture.notifySend("-p", "Build done", "<b>ok</b>")
            #expect(first.status == 0 && first.stdoutText == "1\n", "\(first)")
            let second = try await fixture.notifySend("-p", "Tests passed")
            #expect(second.status == 0 && second.stdoutText == "2\n", "\(second)")
            #expect(await server.untilEvent("shown", id: 1), "\(server.stdoutText)")
            #expect(await server.untilEvent("arrived", id: 2), "\(server.stdoutText)")

            let list = try await fixture.notiplay("list", "--json")
            let rows = try #require(try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]], "\(list)")
            #expect(rows.compactMap { $0["identifier"] as? String } == ["freedesktop-1", "freedesktop-2"], "\(list)")
            #expect(rows.first?["title"] as? String == "Build done" && rows.first?["body"] as? String == "ok", "\(list)")

            let removed = try await fixture.notiplay("remove", "freedesktop-1")
            #expect(removed.status == 0, "\(removed)")
            let history = try await fixture.notiplay("history")
            #expect(
                Set(history.stdoutText.split(separator: "\n"))
                    == ["freedesktop-2  delivered  desktop  Tests passed", "freedesktop-1  removed  desktop  Build done"],
                "\(history)")
        }
    }

    @Test("notify-send -p -r ID keeps the id and replaces the card: one notification with the new title, no NotificationClosed")
    func replacesID() async throws {
        try await withFreedesktop { fixture, server in
            let monitor = try await fixture.monitor()
            let first = try await fixture.notifySend("-p", "Building")
            #expect(first.stdoutText == "1\n", "\(first)")
            #expect(await server.untilEvent("shown", id: 1))
            let second = try await fixture.notifySend("-p", "-r", "1", "Build done")
            #expect(second.status == 0 && second.stdoutText == "1\n", "\(second)")
            #expect(await server.untilEvent("shown", id: 1, count: 2), "the replacement was not shown: \(server.stdoutText)")
            let listed = try await fixture.listed()
            #expect(listed == ["freedesktop-1": "Build done"], "listed: \(listed)")
            // A marker: the only NotificationClosed is the one CloseNotification causes.
            let closed = try await fixture.gdbusCall("CloseNotification", "1")
            #expect(closed.status == 0 && closed.stdoutText == "()\n", "\(closed)")
            #expect(await monitor.until([closedLine(1, 3)]), "\(monitor.stdoutText)")
            #expect(monitor.lines(containing: ["NotificationClosed"]).count == 1, "\(monitor.stdoutText)")
            let third = try await fixture.notifySend("-p", "-r", "1", "After the close")
            #expect(third.stdoutText == "2\n", "replacing an id no longer live gives a new id: \(third)")
        }
    }

    @Test("notify-send --wait -A yes=Yes -A no=No: the key 2 on the card chooses no; notify-send prints it; ActionInvoked then NotificationClosed(2)")
    func actionByKey() async throws {
        try await withFreedesktop { fixture, server in
            let monitor = try await fixture.monitor()
            let asking = try await fixture.startNotifySend("--wait", "-A", "yes=Yes", "-A", "no=No", "Q")
            #expect(await server.untilEvent("shown", id: 1), "\(server.stdoutText)")
            fixture.type("2")
            let answer = try await asking.finish(timeout: 30)
            #expect(answer.status == 0 && answer.stdoutText == "no\n", "\(answer)")
            #expect(await monitor.until([closedLine(1, 2)]), "\(monitor.stdoutText)")
            let signals = monitor.lines(containing: [FreedesktopTools.objectPath + ": "])
            #expect(signals.count == 3 && signals[0].hasPrefix(tokenPrefix(1)), "\(monitor.stdoutText)")
            #expect(signals.dropFirst().map(String.init) == [signalLine("ActionInvoked", "uint32 1, 'no'"), closedLine(1, 2)], "\(monitor.stdoutText)")
        }
    }

    @Test("ActivationToken(id, token) comes just before each ActionInvoked")
    func activationToken() async throws {
        try await withFreedesktop { fixture, server in
            let monitor = try await fixture.monitor()
            let asking = try await fixture.startNotifySend("--wait", "-A", "yes=Yes", "-A", "no=No", "Q")
            #expect(await server.untilEvent("shown", id: 1), "\(server.stdoutText)")
            fixture.type("1")
            let answer = try await asking.finish(timeout: 30)
            #expect(answer.stdoutText == "yes\n", "\(answer)")
            #expect(await monitor.until([closedLine(1, 2)]), "\(monitor.stdoutText)")
            let signals = monitor.lines(containing: [FreedesktopTools.objectPath + ": "])
            try #require(signals.count == 3, "\(monitor.stdoutText)")
            #expect(signals[0].hasPrefix(tokenPrefix(1)), "\(monitor.stdoutText)")
            #expect(signals[0].hasSuffix("')"), "\(monitor.stdoutText)")
            #expect(signals[1] == signalLine("ActionInvoked", "uint32 1, 'yes'"), "\(monitor.stdoutText)")
        }
    }

    @Test("Closing: CloseNotification → NotificationClosed(id, 3), notiplay remove → (id, 3), Escape on the card → (id, 2)")
    func closing() async throws {
        try await withFreedesktop { fixture, server in
            let monitor = try await fixture.monitor()
            for title in ["Closed by call", "Removed"] {
                _ = try await fixture.notifySend("-p", title)
            }
            #expect(await server.untilEvent("arrived", id: 2))
            let closed = try await fixture.gdbusCall("CloseNotification", "1")
            #expect(closed.status == 0 && closed.stdoutText == "()\n", "\(closed)")
            #expect(await monitor.until([closedLine(1, 3)]), "\(monitor.stdoutText)")

            let removed = try await fixture.notiplay("remove", "freedesktop-2")
            #expect(removed.status == 0, "\(removed)")
            #expect(await monitor.until([closedLine(2, 3)]), "\(monitor.stdoutText)")
            let listed = try await fixture.listed()
            #expect(listed.isEmpty, "listed: \(listed)")

            let waiting = try await fixture.startNotifySend("--wait", "Dismiss me")
            #expect(await server.untilEvent("shown", id: 3), "\(server.stdoutText)")
            fixture.type("esc")
            #expect(await monitor.until([closedLine(3, 2)]), "\(monitor.stdoutText)")
            let ended = try await waiting.finish(timeout: 30)
            #expect(ended.status == 0, "\(ended)")

            let again = try await fixture.gdbusCall("CloseNotification", "1")
            #expect(again.status != 0 && again.stderrText.contains("InvalidArgs"), "closing a closed id: \(again)")
            #expect(monitor.lines(containing: ["NotificationClosed"]).count == 3, "\(monitor.stdoutText)")
        }
    }
}
