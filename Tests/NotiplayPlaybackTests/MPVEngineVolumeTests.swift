import Foundation
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// `setVolume` on the real engine: libmpv's `pcm` output tells how loud the rendered audio
    /// was. Files are loaded paused, so that nothing is rendered before the volume is set,
    /// however slow the machine.
    @Suite(.timeLimit(.minutes(1)))
    struct MPVEngineVolumeTests {
        let validator = AudioFileValidator()

        func file(_ name: String) throws -> AudioFile { try validator.validate(TestMedia.path(name)) }

        /// The peak of `name` rendered at `volume` set while it is paused (`nil`: not set), and
        /// why it ended.
        func peak(of name: String, settingVolume volume: Double?) async throws -> (Double, EndReason) {
            let out = try TestMedia.scratch().appendingPathComponent("out.wav").path
            let engine = try MPVEngine(output: .pcm(path: out))
            var events = EventCursor(engine)
            let item = try await engine.load(try file(name), options: PlaybackOptions(startPaused: true))
            try await events.next { $0.item == item && $0.kind == .position(0) }
            if let volume { try await engine.setVolume(volume) }
            try await engine.play()
            let reason = try await events.end(of: item)
            await engine.shutdown()  // the WAV header is finished when the output closes
            return (try WAVFile(contentsOf: out).peak(), reason)
        }

        @Test("setVolume(50) renders an eighth of the amplitude (libmpv's cubic curve), 0 renders silence")
        func volumeScalesWhatIsRendered() async throws {
            let (full, fullEnd) = try await peak(of: "chime.wav", settingVolume: nil)
            let (half, halfEnd) = try await peak(of: "chime.wav", settingVolume: 50)
            let (silent, silentEnd) = try await peak(of: "chime.wav", settingVolume: 0)
            #expect([fullEnd, halfEnd, silentEnd] == [.endOfFile, .endOfFile, .endOfFile])
            #expect(full > 0.1, "the chime is audible at full volume: peak \(full)")
            #expect(abs(half / full - 0.125) < 0.005, "peak \(half) at 50, \(full) at 100")
            #expect(silent == 0)
        }

        @Test("Values outside 0…100 are clamped, NaN is 100; the next load sets its own volume")
        func clampedAndNotCarriedOver() async throws {
            let (full, _) = try await peak(of: "chime.wav", settingVolume: nil)
            let (loud, _) = try await peak(of: "chime.wav", settingVolume: 1_000)
            let (nan, _) = try await peak(of: "chime.wav", settingVolume: .nan)
            let (negative, _) = try await peak(of: "chime.wav", settingVolume: -5)
            #expect(abs(loud - full) < 0.001 && abs(nan - full) < 0.001, "\(loud), \(nan), \(full)")
            #expect(negative == 0)

            // A capture holds the last file: the second, loaded with the default volume of 100.
            let out = try TestMedia.scratch().appendingPathComponent("out.wav").path
            let engine = try MPVEngine(output: .pcm(path: out))
            var events = EventCursor(engine)
            let first = try await engine.load(try file("chime.wav"), options: PlaybackOptions(startPaused: true))
            try await events.next { $0.item == first && $0.kind == .position(0) }
            try await engine.setVolume(0)
            let second = try await engine.load(try file("chime.wav"), options: PlaybackOptions())
            #expect(try await events.end(of: second) == .endOfFile)
            await engine.shutdown()
            #expect(abs(try WAVFile(contentsOf: out).peak() - full) < 0.001)
        }
    }
}
