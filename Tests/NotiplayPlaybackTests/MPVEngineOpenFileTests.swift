import Foundation
import Glibc
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// The engine plays the file it opened and checked, never a path: what changes at the path
    /// after validation cannot reach libmpv, and what happens to the open file shows.
    @Suite(.timeLimit(.minutes(1)))
    struct MPVEngineOpenFileTests {
        let validator = AudioFileValidator()

        /// A copy of `source` in a new scratch folder, validated.
        func validatedCopy(of source: String, as name: String) throws -> (AudioFile, String) {
            let path = try TestMedia.scratch().appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: source, toPath: path)
            return (try validator.validate(path), path)
        }

        /// An attachment swapped for a FIFO between validation and play: libmpv used to open the
        /// path and wait for a writer for ever (no event, no end). Now the load opens the path
        /// without waiting, sees a FIFO with `fstat`, and refuses it, naming the file. The 30 s
        /// limit only guards against that hang; the refusal comes at once.
        @Test func aFileSwappedForAFIFOAfterValidationIsRefusedNotWaitedOn() async throws {
            let (file, path) = try validatedCopy(of: TestMedia.path("chime.wav"), as: "swapped.wav")
            try FileManager.default.removeItem(atPath: path)
            #expect(mkfifo(path, 0o600) == 0)
            let engine = try MPVEngine(output: .null(untimed: true))
            let error = await #expect(throws: NotiplayError.self) {
                try await withTimeout(30) {
                    var events = EventCursor(engine)
                    let item = try await engine.load(file, options: PlaybackOptions())
                    return try await events.end(of: item)
                }
            }
            #expect(error?.kind == .badData)
            #expect(error?.file == path)
            #expect(error?.reason == "is a FIFO, not a regular file")
            // Nothing was handed to libmpv: the engine plays the next file as ever.
            var events = EventCursor(engine)
            let next = try await engine.load(try validator.validate(TestMedia.path("tone-1s.wav")), options: PlaybackOptions())
            #expect(try await events.end(of: next) == .endOfFile)
            await engine.shutdown()
        }

        /// A file swapped for a symbolic link (to a file that would pass) is refused too: the
        /// validated path had none.
        @Test func aFileSwappedForALinkAfterValidationIsRefused() async throws {
            let (file, path) = try validatedCopy(of: TestMedia.path("chime.wav"), as: "linked.wav")
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: TestMedia.path("tone-1s.wav"))
            let engine = try MPVEngine(output: .null(untimed: true))
            let error = await #expect(throws: NotiplayError.self) {
                try await engine.load(file, options: PlaybackOptions())
            }
            #expect(error?.reason == "is a symbolic link, not a regular file")
            await engine.shutdown()
        }

        /// A 20 s WAV cut to 1 s of audio once it plays: libmpv plays what it had read and finds
        /// the end early. The end says so, and where the audio stopped — not the duration, not
        /// a plain end of file. Real-time output, so the file is still being read when it is
        /// cut: libmpv reads only a little ahead of what plays (here it ends near 0.95 s, where
        /// the cut left it), and the test would have to stall for some 18 s between `started`
        /// and the cut for libmpv to have read the whole file. The verdict needs no timing.
        @Test func aFileCutShortWhilePlayingEndsTruncatedWhereItsAudioStopped() async throws {
            let path = try TestMedia.scratch().appendingPathComponent("cut.wav").path
            try TestMedia.writeTone(to: path, seconds: 20, sampleRate: 48_000, channels: 2)
            let file = try validator.validate(path)
            let engine = try MPVEngine(output: .null(untimed: false))
            var events = EventCursor(engine)
            let item = try await engine.load(file, options: PlaybackOptions())
            try await events.next { $0.item == item && $0.kind.isStarted }
            #expect(truncate(path, 44 + 48_000 * 4) == 0)
            let reason = try await events.end(of: item)
            guard case .truncated(let position) = reason else {
                Issue.record("expected the end of a file cut short, got \(reason)")
                return
            }
            let lastReported = events.kinds(of: item).compactMap(\.position).max() ?? 0
            #expect(position >= lastReported, "ended at \(position), reported \(lastReported) before")
            #expect(position < 19, "ended at \(position)")
            await engine.shutdown()
        }
    }
}
