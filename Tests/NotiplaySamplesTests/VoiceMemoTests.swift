import NotiplayCore
import Foundation
import Notiplay
import NotiplayTestSupport
import Testing

@testable import NotiplaySamples

extension RealEngine {
    @MainActor
    @Suite("VoiceMemo: the .default button, position and duration, playback reported on real libmpv")
    struct VoiceMemoTests {
        /// memo.ogg's length as libmpv decodes it.
        static let memoSeconds = 6.12

        @Test("The payload's media-url is fetched and attached: ▶ at the start of the first row, sender and duration shown")
        func presents() async throws {
            try await SampleCard.run("VoiceMemo") { card in
                let controller = try await card.present("voice-memo.apns")
                let memo = try #require(controller as? VoiceMemoViewController)
                #expect(card.events("service").first?.string("outcome") == "modified")
                #expect(card.events("didReceive").first?.string("extension") == "VoiceMemo")
                #expect(memo.player != nil)
                #expect(card.session.buttonType == .default && card.session.buttonState == .play)
                let text = card.text
                #expect(text.contains("│ ▶  Ana  memo.ogg"), "\(text)")
                #expect(text.contains("0:00 / 0:06") && text.contains("Press space to listen."), "\(text)")
                #expect(text.contains("Voice memo from Ana") && text.contains("1 Call back  2 Reply…"), "\(text)")
            }
        }

        @Test("Played to the end: mediaPlay, started, mediaPlayingStarted, ended, mediaPlayingPaused, ▶ again; all of it heard")
        func playsToTheEnd() async throws {
            let heard = try await SampleCard.run("VoiceMemo", output: .capture) { card in
                try await card.present("voice-memo.apns")
                let mark = card.mark
                card.session.handle(.media)
                #expect(card.session.buttonState == .pause)
                try await card.playback("ended", since: mark)
                try await card.wait(for: "button ▶", since: mark) { $0.name == "buttonState" && $0.string("state") == "play" }
                #expect(
                    card.names(since: mark) == [
                        "mediaPlay", "buttonState", "playback", "mediaPlayingStarted", "playback", "mediaPlayingPaused", "buttonState",
                    ], "\(card.session.log.events.map(\.json))")
                #expect(card.session.buttonState == .play && !card.session.isPlaying)
                try await card.waitForText("the end") { $0.contains("Played to the end.") }
                #expect(card.text.contains("0:06 / 0:06") && card.text.contains("│ ▶"), "\(card.text)")
            }
            let wav = try #require(heard)
            #expect(abs(wav.seconds - Self.memoSeconds) < 0.05, "heard \(wav.seconds) s")
        }

        @Test("After the end, ▶ plays the memo again from the start")
        func playsAgain() async throws {
            try await SampleCard.run("VoiceMemo") { card in
                try await card.present("voice-memo.apns")
                var mark = card.mark
                card.session.handle(.media)
                try await card.playback("ended", since: mark)
                mark = card.mark
                card.session.handle(.media)
                let started = try await card.playback("started", since: mark)
                #expect((started.number("position") ?? 1) < 0.1)
                try await card.playback("ended", since: mark)
                try await card.wait(for: "mediaPlayingPaused", since: mark) { $0.name == "mediaPlayingPaused" }
            }
        }

        @Test("Media that cannot be fetched and wrong keys: an error event, no button, a clear line, no trap")
        func missingMedia() async throws {
            try await SampleCard.run("VoiceMemo") { card in
                try await card.present("voice-memo-missing.apns")
                #expect(card.events("error").first?.string("message")?.contains("no-such-memo.ogg") == true)
                #expect(card.session.buttonState == .none)
                let text = card.text
                #expect(text.contains("No recording attached to this memo."), "\(text)")
                #expect(text.contains("│    Voice memo"), "a sender that is not a string is not shown: \(text)")
                card.session.handle(.media)  // no button: nothing happens
                #expect(card.events("mediaPlay").isEmpty)
            }
        }

        @Test("It handles no actions: they go to the app, a text reply with its text")
        func actionsAreForwarded() async throws {
            try await SampleCard.run("VoiceMemo") { card in
                try await card.present("voice-memo.apns")
                let mark = card.mark
                card.session.handle(.actionNamed("reply", text: "on my way"))
                #expect(card.names(since: mark) == ["action", "forwarded", "dismissed"])
                let forwarded = try #require(card.events("forwarded", since: mark).first)
                #expect(forwarded.string("action") == "reply" && forwarded.string("text") == "on my way")
            }
        }
    }
}

extension RealTime {
    /// The voice memo paused and resumed in real time.
    @MainActor
    @Suite("VoiceMemo: pausing in real time", .tags(.realEngine))
    struct VoiceMemoPauseTimeTests {
        /// The pause is asked for once the card shows 0:01 (so at 1 s or later); on a 2-core
        /// machine with two busy loops beside it libmpv pauses within a few hundred ms of the
        /// ask. The bounds catch a pause reported at a position it did not pause at (below 1 s:
        /// the start, or a stale position) or applied late (2 s or more after the ask: at the next
        /// key, or after the memo ended); "resumed where it paused" (within 0.3 s) catches a
        /// resume from the start or from where the audio would have been without the pause.
        @Test("Pause and resume in real time: mediaPause pauses libmpv and the extension reports it; the position moves on")
        func pauseAndResume() async throws {
            try await SampleCard.run("VoiceMemo", output: .realTime) { card in
                try await card.present("voice-memo.apns")
                var mark = card.mark
                card.session.handle(.media)
                try await card.playback("started", since: mark)
                try await card.waitForText("position 0:01") { $0.contains("0:01 / 0:06") }
                #expect(card.text.contains("Playing…") && card.text.contains("│ ⏸"), "\(card.text)")

                mark = card.mark
                card.session.handle(.media)
                let paused = try await card.playback("paused", since: mark)
                try await card.wait(for: "mediaPlayingPaused", since: mark) { $0.name == "mediaPlayingPaused" }
                #expect(card.names(since: mark).prefix(2) == ["mediaPause", "buttonState"])
                #expect(card.session.buttonState == .play)
                try await card.waitForText("Paused.") { $0.contains("Paused.") }
                let position = try #require(paused.number("position"))
                #expect(position >= 1 && position < 3, "paused at \(position)")

                mark = card.mark
                card.session.handle(.media)
                let resumed = try await card.playback("started", since: mark)
                #expect(abs((resumed.number("position") ?? -1) - position) < 0.3, "resumed where it paused")
                try await card.wait(for: "mediaPlayingStarted", since: mark) { $0.name == "mediaPlayingStarted" }
                #expect(card.session.buttonState == .pause)
            }
        }
    }
}
