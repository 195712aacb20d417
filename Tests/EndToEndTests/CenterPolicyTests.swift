import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The presentation policy as a person meets it beside `notify-send`: nothing stranded, silent or
/// unanswerable. Real clients on a private bus, the real binary, headless.
extension FreedesktopTests {
    @Test("A plain serve after a desktop session shows a sent notification at once; the desktop ones stay listed, skipped")
    func plainServeAfterDesktopSession() async throws {
        try await withFreedesktopFixture { fixture in
            let desktop = try await fixture.startServer()
            _ = try await fixture.notifySend("a", "b")
            _ = try await fixture.notifySend("c", "d")
            #expect(await desktop.untilEvent("arrived", id: 2), "\(desktop.stdoutText)")
            _ = try await fixture.stop(desktop)

            let plain = try await fixture.startPlainServer()
            #expect(await plain.until(["\"event\":\"skipped\"", "\"app\":\"desktop\""], count: 2), "\(plain.stdoutText)")
            let sent = try await fixture.notiplay("send", E2E.media("nagme.apns"), "--id", "mine")
            #expect(sent.status == 0, "\(sent)")
            #expect(await plain.until(["\"event\":\"shown\"", "\"identifier\":\"mine\""]), "mine was not shown: \(plain.stdoutText)")
            let listed = try await fixture.listed()
            #expect(Set(listed.keys) == ["freedesktop-1", "freedesktop-2", "mine"], "listed: \(listed)")
            _ = try await fixture.stop(plain)

            // A server that presents the desktop app has them as cards again: n reaches them.
            let again = try await fixture.startServer()
            #expect(again.lines(containing: ["\"event\":\"shown\"", "\"identifier\":\"mine\""]).count == 1, "\(again.stdoutText)")
            fixture.type("n")
            #expect(await again.untilEvent("shown", id: 2), "\(again.stdoutText)")
            #expect(again.lines(containing: ["\"event\":\"skipped\""]).isEmpty, "\(again.stdoutText)")
        }
    }

    @Test("After a restart the first card keeps its buttons: 1 answers the notify-send --wait that asked before it")
    func restartKeepsTheButtons() async throws {
        try await withFreedesktopFixture { fixture in
            let first = try await fixture.startServer()
            let asking = try await fixture.startNotifySend("--wait", "-A", "yes=Yes", "-A", "no=No", "Restart test", "body")
            #expect(await first.untilEvent("shown", id: 1), "\(first.stdoutText)")
            _ = try await fixture.stop(first)

            let second = try await fixture.startServer()
            #expect(await second.untilEvent("shown", id: 1), "\(second.stdoutText)")
            fixture.type("1")
            let answer = try await asking.finish(timeout: 30)
            #expect(answer.status == 0 && answer.stdoutText == "yes\n", "\(answer)")
        }
    }

    @Test("Three sound-file notifications in a row: three playback started/ended pairs, in order, without a key")
    func soundsInARow() async throws {
        try await withFreedesktop { fixture, server in
            for title in ["one", "two", "three"] {
                let sent = try await fixture.notifySend("-h", "string:sound-file:\(E2E.media("chime.wav"))", title)
                #expect(sent.status == 0, "\(sent)")
            }
            let heard = await server.until(["\"event\":\"playback\"", "\"state\":\"ended\""], count: 3)
            #expect(heard, "not every sound was heard: \(server.stdoutText)")
            #expect(server.lines(containing: ["\"event\":\"playback\"", "\"state\":\"started\""]).count == 3, "\(server.stdoutText)")
            let shown = server.lines(containing: ["\"event\":\"shown\""]).compactMap { line in
                ["freedesktop-1", "freedesktop-2", "freedesktop-3"].first { line.contains("\"\($0)\"") }
            }
            // Each card shows when its sound starts, in the order they came.
            #expect(Array(shown.suffix(2)) == ["freedesktop-2", "freedesktop-3"], "\(server.stdoutText)")
        }
    }

    @Test("A question after a finished card takes the screen: 1 answers Deploy?, not Build done")
    func questionAfterAFinishedCard() async throws {
        try await withFreedesktop { fixture, server in
            _ = try await fixture.notifySend("-h", "string:sound-file:\(E2E.media("chime.wav"))", "Build done")
            #expect(await server.until(["\"event\":\"playback\"", "\"state\":\"ended\""]), "\(server.stdoutText)")
            let asking = try await fixture.startNotifySend("--wait", "-A", "yes=Yes", "-A", "no=No", "Deploy?")
            #expect(await server.untilEvent("shown", id: 2), "Deploy? did not take the screen: \(server.stdoutText)")
            fixture.type("1")
            let answer = try await asking.finish(timeout: 30)
            #expect(answer.status == 0 && answer.stdoutText == "yes\n", "\(answer)")
        }
    }

    @Test("A critical arrival is shown before the two normal ones that wait behind a playing card")
    func criticalJumpsTheQueue() async throws {
        try await withFreedesktop { fixture, server in
            let long = try E2E.tone(seconds: 120, in: fixture.root)
            _ = try await fixture.notifySend("-h", "string:sound-file:\(long)", "Voice memo")
            #expect(await server.until(["\"event\":\"playback\"", "\"state\":\"started\""]), "\(server.stdoutText)")
            _ = try await fixture.notifySend("Normal one")
            _ = try await fixture.notifySend("Normal two")
            #expect(await server.untilEvent("arrived", id: 3), "\(server.stdoutText)")
            #expect(server.lines(containing: ["\"event\":\"shown\"", "freedesktop-2"]).isEmpty, "\(server.stdoutText)")
            #expect(server.lines(containing: ["\"event\":\"shown\"", "freedesktop-3"]).isEmpty, "\(server.stdoutText)")
            _ = try await fixture.notifySend("-u", "critical", "Fire alarm")
            #expect(await server.untilEvent("shown", id: 4), "the critical one did not take the screen: \(server.stdoutText)")
            let list = try await fixture.notiplay("list", "--json")
            #expect(list.status == 0, "\(list)")
        }
    }

    @Test("expire_timeout -1 at normal urgency: the card leaves the screen after --expire, closed with reason 1, kept in the history")
    func defaultExpiry() async throws {
        try await withFreedesktop(["--audio", "null", "--expire", "0.5"]) { fixture, server in
            let monitor = try await fixture.monitor()
            _ = try await fixture.notifySend("Passing by")
            #expect(await monitor.until([closedLine(1, 1)]), "\(monitor.stdoutText)")
            #expect(await server.until(["\"event\":\"removed\"", "\"reason\":\"expired\""]), "\(server.stdoutText)")
            let listed = try await fixture.listed()
            #expect(listed.isEmpty, "listed: \(listed)")
            let history = try await fixture.notiplay("history")
            #expect(history.stdoutText.contains("freedesktop-1"), "\(history)")
        }
    }
}

extension FreedesktopFixture {
    /// Starts `notiplay serve --headless --events jsonl --audio null` (no `--freedesktop`), keys
    /// from `/dev/null`; returns once it showed its first card.
    func startPlainServer() async throws -> ChildProcess {
        let server = track(ChildProcess(
            "/bin/sh", ["-c", "exec \"$0\" \"$@\" < /dev/null", try E2E.binary(), "serve", "--headless", "--events", "jsonl", "--audio", "null"],
            environment: environment))
        try await Self.untilStarted(server)
        return server
    }
}
