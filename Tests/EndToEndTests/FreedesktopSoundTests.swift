import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Sounds, expiry, transient notifications and a restarted server.
extension FreedesktopTests {
    /// The server's arguments for a pcm capture in the fixture's folder (`heard.wav`: its WAV
    /// header is complete once the server has ended).
    static func capturing(_ fixture: FreedesktopFixture) -> [String] {
        ["--audio", "pcm:\(capture(fixture))"]
    }

    static func capture(_ fixture: FreedesktopFixture) -> String {
        fixture.root.appendingPathComponent("heard.wav").path
    }

    /// Expects the capture to hold exactly `source` (its sample rate, its frames, one either way).
    static func expectHeard(_ source: String, in fixture: FreedesktopFixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let original = try WAVFile(contentsOf: source)
        let heard = try WAVFile(contentsOf: capture(fixture))
        #expect(heard.sampleRate == original.sampleRate, "heard \(heard), sent \(original)", sourceLocation: sourceLocation)
        #expect(abs(heard.frames - original.frames) <= 1, "heard \(heard), sent \(original)", sourceLocation: sourceLocation)
    }

    @Test("sound-file: the card has its media button and plays the file to its end on arrival; the capture is the file's length")
    func soundFilePlaysOnArrival() async throws {
        try await withFreedesktop(Self.capturing) { fixture, server in
            let sent = try await fixture.notifySend("-p", "-h", "string:sound-file:\(E2E.media("chime.wav"))", "Build done")
            #expect(sent.status == 0 && sent.stdoutText == "1\n", "\(sent)")
            #expect(await server.untilEvent("shown", id: 1), "\(server.stdoutText)")
            #expect(server.lines(containing: ["\"event\":\"buttonState\"", "\"state\":\"play\""]).count == 1, "no media button: \(server.stdoutText)")
            let ended = await server.until(["\"event\":\"playback\"", "\"state\":\"ended\""])
            #expect(ended, "it did not play to its end by itself: \(server.stdoutText)")
            #expect(server.lines(containing: ["\"event\":\"sound\"", "\"outcome\":\"played\""]).isEmpty, "an arrival sound too: \(server.stdoutText)")
            let stopped = try await fixture.stop(server)
            #expect(stopped.status == 128 + SIGTERM, "\(stopped)")
            if ended { try Self.expectHeard(E2E.media("chime.wav"), in: fixture) }
        }
    }

    @Test("sound-file at low urgency: no autoplay; the media button (space) plays it to its end, all of it")
    func lowUrgencySoundFileWaitsForTheButton() async throws {
        try await withFreedesktop(Self.capturing) { fixture, server in
            let sent = try await fixture.notifySend("-p", "-u", "low", "-h", "string:sound-file:\(E2E.media("chime.wav"))", "Quiet")
            #expect(sent.status == 0 && sent.stdoutText == "1\n", "\(sent)")
            #expect(await server.untilEvent("shown", id: 1), "\(server.stdoutText)")
            #expect(server.lines(containing: ["\"event\":\"buttonState\"", "\"state\":\"play\""]).count == 1, "no media button: \(server.stdoutText)")
            fixture.type("space ~end")
            #expect(await server.until(["\"event\":\"playback\"", "\"state\":\"ended\""]), "\(server.stdoutText)")
            #expect(server.lines(containing: ["\"event\":\"playback\"", "\"state\":\"started\""]).count == 1, "\(server.stdoutText)")
            #expect(server.lines(containing: ["\"event\":\"sound\"", "\"outcome\":\"played\""]).isEmpty, "low urgency is quiet: \(server.stdoutText)")
            let stopped = try await fixture.stop(server)
            #expect(stopped.status == 128 + SIGTERM, "\(stopped)")
            try Self.expectHeard(E2E.media("chime.wav"), in: fixture)
        }
    }

    @Test("sound-name found in the sound theme of $XDG_DATA_DIRS (message-new-email → message-new.wav): a card with its media button")
    func soundNameFromTheTheme() async throws {
        try await withFreedesktop { fixture, server in
            let theme = try #require(fixture.environment["XDG_DATA_DIRS"]) + "/sounds/freedesktop/stereo"
            try FileManager.default.createDirectory(atPath: theme, withIntermediateDirectories: true)
            _ = try E2E.tone(seconds: 1, named: "message-new.wav", in: URL(fileURLWithPath: theme))
            let sent = try await fixture.notifySend("-p", "-u", "low", "-h", "string:sound-name:message-new-email", "Mail")
            #expect(sent.status == 0 && sent.stdoutText == "1\n", "\(sent)")
            #expect(await server.untilEvent("shown", id: 1), "\(server.stdoutText)")
            #expect(server.lines(containing: ["\"event\":\"buttonState\"", "\"state\":\"play\""]).count == 1, "no media button: \(server.stdoutText)")
        }
    }

    @Test("notify-send --expire-time 500: NotificationClosed(id, 1), and it is no longer listed")
    func expireTimeout() async throws {
        try await withFreedesktop { fixture, server in
            let monitor = try await fixture.monitor()
            let sent = try await fixture.notifySend("-p", "--expire-time", "500", "Soon gone")
            #expect(sent.status == 0 && sent.stdoutText == "1\n", "\(sent)")
            #expect(await monitor.until([closedLine(1, 1)]), "not expired: \(monitor.stdoutText)\n--- server ---\n\(server.stdoutText)")
            let listed = try await fixture.listed()
            #expect(listed.isEmpty, "listed: \(listed)")
        }
    }

    @Test("A transient notification is not kept in the history once it ends; another one is")
    func transientIsNotKept() async throws {
        try await withFreedesktop { fixture, _ in
            let monitor = try await fixture.monitor()
            let transient = try await fixture.notifySend("-p", "-h", "boolean:transient:true", "Passing by")
            #expect(transient.stdoutText == "1\n", "\(transient)")
            let kept = try await fixture.notifySend("-p", "Kept")
            #expect(kept.stdoutText == "2\n", "\(kept)")
            for id in ["1", "2"] {
                let closed = try await fixture.gdbusCall("CloseNotification", id)
                #expect(closed.status == 0, "\(closed)")
            }
            #expect(await monitor.until([closedLine(2, 3)]), "\(monitor.stdoutText)")
            let history = try await fixture.notiplay("history")
            #expect(history.stdoutText == "freedesktop-2  removed  desktop  Kept\n", "\(history)")
        }
    }

    @Test("After a restart the delivered notifications are known again: CloseNotification closes one (reason 3), ids go on")
    func restartKnowsDelivered() async throws {
        try await withFreedesktop { fixture, first in
            for title in ["One", "Two"] {
                _ = try await fixture.notifySend("-p", title)
            }
            #expect(await first.untilEvent("arrived", id: 2), "\(first.stdoutText)")
            let stopped = try await fixture.stop(first)
            #expect(stopped.status == 128 + SIGTERM, "\(stopped)")

            let second = try await fixture.startServer()
            let monitor = try await fixture.monitor()
            let closed = try await fixture.gdbusCall("CloseNotification", "1")
            #expect(closed.status == 0 && closed.stdoutText == "()\n", "\(closed)")
            #expect(await monitor.until([closedLine(1, 3)]), "\(monitor.stdoutText)")
            // Ids go on after every id handed out before (recorded a block at a time), so no
            // identifier in the history is used twice.
            let next = try await fixture.notifySend("-p", "Three")
            let id = try #require(Int(next.stdoutText.trimmingCharacters(in: .newlines)), "\(next)")
            #expect(id > 2, "an id handed out before the restart was used again: \(next)")
            #expect(await second.untilEvent("arrived", id: id), "\(second.stdoutText)")
            let listed = try await fixture.listed()
            #expect(listed == ["freedesktop-2": "Two", "freedesktop-\(id)": "Three"], "listed: \(listed)")
            let history = try await fixture.notiplay("history")
            #expect(history.stdoutText.contains("freedesktop-1  removed  desktop  One"), "\(history)")
            let ended = try await fixture.stop(second)
            #expect(ended.status == 128 + SIGTERM, "\(ended)")
        }
    }
}
