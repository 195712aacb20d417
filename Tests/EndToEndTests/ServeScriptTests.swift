import Foundation
import NotiplayTestSupport
import Testing

/// A script's `serve` center behaves as the real `serve`: what it presents after a dismissal, and
/// the age its cards show, on the script's virtual clock.
@Suite("Scripts' serve: presents as the server does", .tags(.endToEnd))
struct ServeScriptTests {
    let scratch: URL

    init() throws {
        scratch = try E2E.scratch()
        try """
            { "aps": { "alert": { "title": "Second one", "body": "a notification without thread-id" } } }
            """.write(to: scratch.appendingPathComponent("plain.apns"), atomically: true, encoding: .utf8)
    }

    /// Runs `notiplay test` on `steps` (after `app` and `serve`), written as a script in the
    /// scratch folder; `REMINDER` and `MEMO` in them are the samples' payloads.
    func runScript(app: String = "Reminder/Reminder.app.json", _ steps: String) async throws -> RunResult {
        let samples = E2E.root.appendingPathComponent("Samples")
        let script = scratch.appendingPathComponent("serve.playback")
        let filled = steps
            .replacingOccurrences(of: "REMINDER", with: samples.appendingPathComponent("Reminder/reminder.apns").path)
            .replacingOccurrences(of: "MEMO", with: samples.appendingPathComponent("VoiceMemo/voice-memo.apns").path)
            .replacingOccurrences(of: "TONE", with: E2E.media("tone-1s.wav"))
        try """
            app \(samples.appendingPathComponent(app).path)
            serve at 2026-01-05T09:00
            \(filled)
            """.write(to: script, atomically: true, encoding: .utf8)
        return try await run(try E2E.binary(), ["test", script.path, "--tap", "--untimed", "--jobs", "1"])
    }

    @Test("A notification without thread-id sent after the first card was dismissed shows")
    func afterDismissal() async throws {
        defer { E2E.remove(scratch) }
        let result = try await runScript("""
            send REMINDER id first
            expect screen contains "Water the plants"
            dismiss
            send plain.apns id second
            expect delivered second
            expect screen contains "Second one"
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.split(separator: "\n").contains { $0.hasPrefix("ok 1 ") }, "\(result)")
    }

    @Test("A notification without thread-id sent after a playing card was dismissed shows")
    func afterDismissingPlayingMedia() async throws {
        defer { E2E.remove(scratch) }
        let result = try await runScript(app: "VoiceMemo/VoiceMemo.app.json", """
            send MEMO attach TONE id memo
            press play
            wait until mediaPlayingStarted
            dismiss
            send plain.apns id second
            expect delivered second
            expect screen contains "Second one"
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.split(separator: "\n").contains { $0.hasPrefix("ok 1 ") }, "\(result)")
    }

    @Test("A card's age is counted on the script's clock")
    func ageOnTheVirtualClock() async throws {
        defer { E2E.remove(scratch) }
        let result = try await runScript("""
            send plain.apns id young
            expect screen contains "now"
            advance 2h
            expect screen contains "2h"
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutText.split(separator: "\n").contains { $0.hasPrefix("ok 1 ") }, "\(result)")
    }
}
