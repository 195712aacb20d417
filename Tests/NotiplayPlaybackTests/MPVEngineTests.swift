import Foundation
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// The real engine on real files: libmpv's `pcm` output tells what was rendered; nothing here
    /// depends on how fast the machine is (files that must not end by themselves are loaded paused).
    @Suite(.timeLimit(.minutes(1)))
    struct MPVEngineTests {
        let validator = AudioFileValidator()

        func file(_ name: String) throws -> AudioFile { try validator.validate(TestMedia.path(name)) }

        /// Plays `name` once into a pcm capture and returns what was rendered.
        func capture(_ name: String, options: PlaybackOptions = PlaybackOptions()) async throws -> (WAVFile, EndReason) {
            let out = try TestMedia.scratch().appendingPathComponent("out.wav").path
            let engine = try MPVEngine(output: .pcm(path: out))
            let reason = try await engine.playToEnd(try file(name), options: options)
            await engine.shutdown()  // the WAV header is finished when the output closes
            return (try WAVFile(contentsOf: out), reason)
        }

        /// Source lengths in frames, with the decoder's block as the tolerance.
        @Test(arguments: [
            ("chime.wav", 88_200, 44_100, 1), ("chime.aiff", 44_100, 22_050, 1), ("chime.flac", 88_200, 44_100, 4_096),
            ("chime.mp3", 88_200, 44_100, 1_152), ("chime.m4a", 88_200, 44_100, 1_024), ("chime.ogg", 88_200, 44_100, 2_048),
            ("chime.opus", 96_000, 48_000, 960), ("voice-memo.ogg", 146_950, 22_050, 2_048),
            ("voice-memo.m4a", 146_950, 22_050, 1_024), ("tone-1s.wav", 44_100, 44_100, 1),
        ])
        func pcmCaptureIsAsLongAsTheSource(name: String, frames: Int, rate: Int, block: Int) async throws {
            let (captured, reason) = try await capture(name)
            #expect(reason == .endOfFile)
            #expect(captured.sampleRate == rate)
            #expect(abs(captured.frames - frames) <= block, "\(name): captured \(captured), source \(frames) frames")
        }

        @Test func startAndEndRenderAnExactSegment() async throws {
            let (captured, reason) = try await capture("chime.ogg", options: PlaybackOptions(start: 0.5, end: 1.2))
            #expect(reason == .endOfFile)
            #expect(abs(captured.seconds - 0.7) < 0.001, "\(captured)")
        }

        @Test func seekWhilePausedThenPlay() async throws {
            let out = try TestMedia.scratch().appendingPathComponent("out.wav").path
            let engine = try MPVEngine(output: .pcm(path: out))
            var events = EventCursor(engine)
            let item = try await engine.load(try file("chime.wav"), options: PlaybackOptions(startPaused: true))
            try await events.next { $0.item == item && $0.kind == .loaded(duration: 2.0) }
            try await engine.seek(to: 1.5)
            try await engine.play()
            let started = try await events.next { $0.item == item && $0.kind.isStarted }
            // Where the seek landed: 1.5 s, or the sample libmpv reports for it (66,149 / 44,100 s)
            // when its `time-pos` came before the play.
            guard case .started(let position) = started.kind else { return }
            #expect(abs(position - 1.5) < 0.001, "started at \(position)")
            #expect(try await events.end(of: item) == .endOfFile)
            await engine.shutdown()
            let captured = try WAVFile(contentsOf: out)
            #expect(abs(captured.seconds - 0.5) < 0.001, "\(captured)")
        }

        @Test func oneEnginePlaysFiftyFilesInARow() async throws {
            let engine = try MPVEngine(output: .null(untimed: true))
            var events = EventCursor(engine)
            let names = ["tone-1s.wav", "chime.ogg", "chime.mp3", "chime.flac", "chime.opus"]
            var items: Set<PlaybackItemID> = []
            for round in 0..<50 {
                let item = try await engine.load(try file(names[round % names.count]), options: PlaybackOptions())
                items.insert(item)
                #expect(try await events.end(of: item) == .endOfFile, "file \(round)")
                // Each file was opened and started before it ended: nothing was skipped.
                let kinds = events.kinds(of: item)
                #expect(kinds.first { if case .loaded = $0 { true } else { false } } != nil, "file \(round): \(kinds)")
                #expect(kinds.contains(.started(position: 0)), "file \(round): \(kinds)")
            }
            #expect(items.count == 50)
            await engine.shutdown()
        }

        /// libmpv opens the pcm output anew for each file: a capture holds the last file only.
        @Test func pcmCaptureHoldsTheLastFile() async throws {
            let out = try TestMedia.scratch().appendingPathComponent("out.wav").path
            let engine = try MPVEngine(output: .pcm(path: out))
            for name in ["chime.ogg", "tone-1s.wav"] {
                #expect(try await engine.playToEnd(try file(name)) == .endOfFile)
            }
            await engine.shutdown()
            #expect(try WAVFile(contentsOf: out).frames == 44_100)
        }

        @Test func aFileLibmpvCannotDecodeEndsWithAnError() async throws {
            let dir = try TestMedia.scratch()
            let path = dir.appendingPathComponent("broken.wav").path
            var bytes = Array("RIFF".utf8) + [0x24, 0x10, 0, 0] + Array("WAVE".utf8)
            bytes += (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let engine = try MPVEngine(output: .null(untimed: true))
            var events = EventCursor(engine)
            let item = try await engine.load(try validator.validate(path), options: PlaybackOptions())
            let reason = try await events.end(of: item)
            guard case .failed(let failure) = reason else {
                Issue.record("expected a failure, got \(reason)")
                return
            }
            #expect(failure.code < 0)
            #expect(!failure.message.isEmpty)
            #expect(events.kinds(of: item).contains(.error(failure)))
            // The engine is still usable.
            let next = try await engine.load(try file("tone-1s.wav"), options: PlaybackOptions())
            #expect(try await events.end(of: next) == .endOfFile)
            await engine.shutdown()
        }

        @Test func loadReplacesAndStopEnds() async throws {
            let engine = try MPVEngine(output: .null(untimed: false))
            var events = EventCursor(engine)
            // Loaded paused (the restart comes as a position): a playing file could end by itself
            // before a slow machine replaces or stops it.
            let first = try await engine.load(try file("chime.wav"), options: PlaybackOptions(startPaused: true))
            try await events.next { $0.item == first && $0.kind == .position(0) }
            let second = try await engine.load(try file("chime.ogg"), options: PlaybackOptions(startPaused: true))
            #expect(try await events.end(of: first) == .stopped)
            try await events.next { $0.item == second && $0.kind == .position(0) }
            try await engine.stop()
            #expect(try await events.end(of: second) == .stopped)
            await #expect(throws: PlaybackFailure.self) { try await engine.play() }
            await engine.shutdown()
        }

        @Test func shutdownFinishesStreamsAndRefusesWork() async throws {
            let engine = try MPVEngine(output: .null(untimed: false))
            var events = EventCursor(engine)
            // Loaded paused: a playing file could end by itself before a slow machine shuts down.
            let item = try await engine.load(try file("chime.wav"), options: PlaybackOptions(startPaused: true))
            try await events.next { $0.item == item && $0.kind == .position(0) }
            await engine.shutdown()
            #expect(try await events.end(of: item) == .stopped)
            await #expect(throws: EventCursor.StreamFinished.self) { try await events.next { _ in false } }
            await #expect(throws: PlaybackFailure.self) {
                try await engine.load(try file("chime.wav"), options: PlaybackOptions())
            }
            #expect(await engine.position() == nil)
            await engine.shutdown()  // twice is harmless
        }

        @Test(.enabled(if: !TestMedia.hasSoundDevice, "needs a machine without a sound card"))
        func systemOutputFallsBackToNullOnce() async throws {
            let engine = try MPVEngine(output: .system(untimedFallback: true))
            var events = EventCursor(engine)
            for _ in 0..<3 {
                let item = try await engine.load(try file("tone-1s.wav"), options: PlaybackOptions())
                #expect(try await events.end(of: item) == .endOfFile)
            }
            await engine.shutdown()
            let fallbacks = events.seen.filter { if case .outputFallback = $0.kind { true } else { false } }
            #expect(fallbacks == [PlaybackEvent(item: nil, .outputFallback(using: "null"))])
        }
    }
}

extension RealTime {
    @Suite(.timeLimit(.minutes(1)))
    struct MPVEngineTimingTests {
        func file(_ name: String) throws -> AudioFile { try AudioFileValidator().validate(TestMedia.path(name)) }

        /// The position stands still while paused and moves on after resuming, on the real-time
        /// `null` output. Bugs its bounds catch: a pause that does not stop the position (it moves
        /// 0.4 s in the 400 ms checked), a resume that does not play on (no end within the hang
        /// guard), a pause that does not hold time (2 s of audio with a 0.55 s pause would end
        /// before 2.5 s), a pause that lands at the end instead of where asked (after 1.5 s).
        /// A loaded machine only answers later: the pause lands later (still well before 1.5 s),
        /// the whole takes longer (the 8 s bound is for a resume that replays the file).
        @Test func pauseAndResumeMoveThePositionAsExpected() async throws {
            let engine = try MPVEngine(output: .null(untimed: false))
            var events = EventCursor(engine)
            let clock = ContinuousClock()
            let begin = clock.now
            let item = try await engine.load(try file("chime.wav"), options: PlaybackOptions())
            try await events.next { $0.item == item && ($0.kind.position ?? 0) >= 0.4 }

            try await engine.pause()
            let paused = try await events.next { $0.item == item && $0.kind.isPaused }
            let pausedAt = try #require(paused.kind.position)
            // At or after where we asked, and well before the end (a loaded machine answers late).
            #expect((0.4...1.5).contains(pausedAt), "paused at \(pausedAt)")
            // libmpv's position settles a few milliseconds after the pause is reported (what the audio
            // output had buffered); from then on it must not move. Both intervals are under test, not
            // stand-ins for events.
            try await Task.sleep(for: .milliseconds(150))
            let before = try #require(await engine.position())
            #expect(before - pausedAt < 0.1, "the position settled at \(before), paused at \(pausedAt)")
            try await Task.sleep(for: .milliseconds(400))
            let after = try #require(await engine.position())
            #expect(abs(after - before) < 0.001, "moved from \(before) to \(after) while paused")

            try await engine.play()
            let resumed = try await events.next { $0.item == item && $0.kind.isStarted }
            #expect(abs((resumed.kind.position ?? -1) - before) < 0.05)
            // It plays on to the end (a pause that landed late, near the end, may leave no room for a
            // position event in between: they come at most every 250 ms).
            #expect(try await events.end(of: item) == .endOfFile)
            let elapsed = clock.now - begin
            // 2 s of audio plus the 0.55 s pause; the drain makes the end a little later still.
            #expect(elapsed >= .milliseconds(2_500), "played 2 s with a 0.55 s pause in \(elapsed)")
            #expect(elapsed < .seconds(8), "a 2 s file with a 0.4 s pause took \(elapsed)")
            // Exactly one pause and two starts, in order.
            let transitions = events.kinds(of: item).filter { $0.isStarted || $0.isPaused }
            #expect(transitions.count == 3)
            await engine.shutdown()
        }
    }
}
