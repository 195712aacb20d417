import Foundation
import Glibc
import Notiplay
import NotiplayTestSupport
import Testing

// What a card shows when its attachment changes after it was validated: the engine plays the
// file it opened and checked, so a swapped path is refused there, and a file cut while it plays
// ends where its audio stopped.

extension RealEngine {
    @Suite("Real libmpv: an attachment that changes after validation", .timeLimit(.minutes(5)))
    @MainActor
    struct RealEngineOpenFileTests {
        /// A copy of `source` in a new scratch folder.
        func copy(_ source: String, as name: String) throws -> String {
            let path = try TestMedia.scratch().appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: source, toPath: path)
            return path
        }

        /// libmpv used to open the FIFO and wait for a writer for ever: no `playback` event, the
        /// button stuck on ⏸, and the test waiting here until its 60 s guard. Now the press ends
        /// at once in a `playback` `error` that names the file, and the button shows ▶ again.
        @Test("An attachment swapped for a FIFO after validation: a playback error naming it, and ▶ again")
        func swappedForAFIFO() async throws {
            try await MatrixCard.run(.realTime) { card in
                let path = try copy(MatrixMedia.shortTone, as: "swapped.wav")
                try card.present(category: MatrixCard.defaultCardCategory, attachment: path)
                try FileManager.default.removeItem(atPath: path)
                #expect(mkfifo(path, 0o600) == 0)
                let mark = card.mark
                card.session.handle(.media)
                let error = try await card.playback("error", since: mark)
                #expect(error.string("message") == "\(path): is a FIFO, not a regular file")
                try await card.event(in: card.session.log, after: mark.session, "▶ again") {
                    $0.name == "buttonState" && $0.string("state") == "play"
                }
                #expect(!card.session.isPlaying)
                #expect(card.engineEvents(since: mark, named: "started").isEmpty)
            }
        }

        /// The 20 s attachment is cut to 1 s of audio once it plays: `playback ended` comes where
        /// its audio stopped, with a message saying why, not at the duration as if it had played
        /// whole. (libmpv reads only a little ahead of what plays: the test would have to stall
        /// some 18 s between `started` and the cut for it to have read the whole file.)
        @Test("An attachment cut short while it plays: playback ends where its audio stopped, and says why")
        func cutWhilePlaying() async throws {
            try await MatrixCard.run(.realTime) { card in
                let path = try TestMedia.scratch().appendingPathComponent("cut.wav").path
                try TestMedia.writeTone(to: path, seconds: 20, sampleRate: 48_000, channels: 2)
                try card.present(category: MatrixCard.defaultCardCategory, attachment: path)
                try await card.play()
                let mark = card.mark
                #expect(truncate(path, 44 + 48_000 * 4) == 0)
                let ended = try await card.playback("ended", since: mark)
                guard case .playback(_, let position, let reason) = ended.event else { return }
                #expect(position < 19, "ended at \(position)")
                let message = try #require(reason)
                #expect(message.hasPrefix("the file was cut short while it played: its audio ended at "), "\(message)")
                #expect(message.hasSuffix(", not at its end (20.0 s)"), "\(message)")
                try await card.event(in: card.session.log, after: mark.session, "▶ again") {
                    $0.name == "buttonState" && $0.string("state") == "play"
                }
            }
        }
    }
}
