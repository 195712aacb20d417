import NotiplayCore
import Foundation
import Notiplay
import NotiplayPlayback
import NotiplayTestSupport
import Testing

// ← and → (5 s back or on, as in mpv) move the card's media only when the card has a media button
// (its type is not `.none`: on iOS, the case where the system drives the media) and its player has
// a file loaded; otherwise nothing reaches libmpv.

extension RealEngine {
    @Suite("Real libmpv: seeking the card's media", .timeLimit(.minutes(5)))
    @MainActor
    struct RealEngineSeekTests {
        /// Waits until libmpv reports a position for which `accept` holds.
        @MainActor
        func position(_ card: MatrixCard, after mark: MatrixCard.Mark, _ what: String, _ accept: @escaping (Double) -> Bool)
            async throws
        {
            try await card.event(in: card.engineLog, after: mark.engine, what) { line in
                guard line.name == "position" || line.name == "paused" || line.name == "started",
                    case .number(let p)? = line.fields.first(where: { $0.0 == "position" })?.1
                else { return false }
                return accept(p)
            }
        }

        @Test("While playing, → moves 5 s on and ← 5 s back; the audio plays on", arguments: ["default.plain", MatrixCard.defaultCardCategory])
        func seekWhilePlaying(_ category: String) async throws {
            try await MatrixCard.run(.realTime) { card in
                try card.present(category: category, attachment: MatrixMedia.longTone())
                try await card.play()
                #expect(card.session.canSeek)
                var mark = card.mark
                card.session.handle(.seekBy(5))
                try await position(card, after: mark, "a position past 5 s") { $0 >= 5 && $0 < 7 }
                try await card.expectRunning(since: mark)
                // Enough ← to pass the start from wherever playback got to (a loaded machine may
                // have played on for seconds), and one more: the last ones are clamped at 0.
                let reached = try #require(await card.engine.position())
                mark = card.mark
                for _ in 0...(Int(reached / 5) + 1) { card.session.handle(.seekBy(-5)) }
                try await position(card, after: mark, "a position under 1 s") { $0 < 1 }
                try await card.expectRunning(since: mark)
                #expect(card.session.isPlaying && card.session.buttonState == .pause)
                #expect(card.buttonStates(since: mark).isEmpty)
            }
        }

        @Test("→ pressed with the button, before libmpv has the file, is kept: playback starts 10 s in")
        func seekWhileLoading() async throws {
            try await MatrixCard.run(.realTime) { card in
                try card.present(category: "default.plain", attachment: MatrixMedia.longTone())
                let mark = card.mark
                // In one turn of the main actor: the load is asked for and has not run yet.
                card.session.handle(.media)
                #expect(card.session.canSeek)
                card.session.handle(.seekBy(5))
                card.session.handle(.seekBy(5))
                try await card.playback("started", since: mark)
                // Settled, both seeks are done: dropped, the position would be under a second.
                await card.settle()
                let now = try #require(await card.engine.position())
                #expect(now >= 10, "playing at \(now)")
            }
        }

        @Test("While paused, a seek moves the position and stays paused")
        func seekWhilePaused() async throws {
            try await MatrixCard.run(.realTime) { card in
                try card.present(category: "default.plain", attachment: MatrixMedia.longTone())
                try await card.play()
                let paused = card.mark
                card.session.handle(.media)
                try await card.playback("paused", since: paused)
                let mark = card.mark
                card.session.handle(.seek(to: 12))
                await card.settle()
                try await position(card, after: mark, "a position at 12 s") { abs($0 - 12) < 0.2 }
                let now = try #require(await card.engine.position())
                #expect(abs(now - 12) < 0.2)
                #expect(card.engineEvents(since: mark, named: "started").isEmpty)
                try await card.expectPaused()
                #expect(card.session.buttonState == .play)
            }
        }

        @Test("Seeking past the end plays to the end: the button shows ▶ again")
        func seekPastTheEnd() async throws {
            try await MatrixCard.run(.realTime) { card in
                try card.present(category: "default.plain", attachment: MatrixMedia.longTone())
                try await card.play()
                let mark = card.mark
                card.session.handle(.seek(to: 1_000))
                try await card.engineEnded("endOfFile", since: mark)
                try await card.event(in: card.session.log, after: mark.session, "▶ again") {
                    $0.name == "buttonState" && $0.string("state") == "play"
                }
                #expect(!card.session.canSeek)
            }
        }

        @Test("No seeking without a media button, or before the media was asked to play")
        func seekNotAllowed() async throws {
            try await MatrixCard.run(.realTime) { card in
                // Nothing loaded yet.
                try card.present(category: "default.plain", attachment: MatrixMedia.longTone())
                #expect(!card.session.canSeek)
                var mark = card.mark
                card.session.handle(.seekBy(5))
                card.session.handle(.seek(to: 3))
                await card.expectIdle(since: mark)
                #expect(card.session.log.events.count == mark.session)

                // An extension with no media button plays its own media; the card does not move it.
                let ext = try #require(try card.present(category: "none.plain", attachment: MatrixMedia.longTone(), identifier: "n2", thread: "other"))
                mark = card.mark
                ext.mediaPlay()
                try await card.playback("started", since: mark)
                #expect(!card.session.canSeek)
                // Paused by the extension, the position stands still but for what the output had
                // already taken when the pause landed (at most its 0.2 s buffer, `ao-null-buffer`:
                // a pause right at the start reads 0 at once and the first block's end a moment
                // later). A seek that got through would move it by 5 s, however long anything took.
                let pausing = card.mark
                ext.mediaPause()
                try await card.playback("paused", since: pausing)
                await card.settle()
                let before = try #require(await card.engine.position())
                let seeked = card.mark
                card.session.handle(.seekBy(5))
                await card.settle()
                let now = try #require(await card.engine.position())
                #expect(abs(now - before) <= 0.25, "moved from \(before) to \(now)")
                #expect(card.session.log.events.count == seeked.session)
            }
        }
    }
}
