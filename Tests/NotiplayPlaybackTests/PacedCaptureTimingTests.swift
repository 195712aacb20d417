import Foundation
import NotiplayCore
@testable import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealTime {
    /// The paced capture with its production clock, timed with the monotonic clock from the
    /// engine's own events. What is heard is checked exactly in `RealEngine/PacedCaptureTests`;
    /// here only how long things take, with bounds a loaded 2-core machine (two busy loops beside
    /// the test) keeps, each of which still fails for the bug it names.
    @Suite(.timeLimit(.minutes(1)))
    struct PacedCaptureTimingTests {
        typealias Media = PacedMedia
        let clock = ContinuousClock()
        let block = PacedMedia.block
        /// The most a call into the engine may take while audio plays. A call that waits on a
        /// write of libmpv's blocked in the pipe (up to 65,536 samples, 1.5 s, begun at the last
        /// restart) takes about 1.3 s here, each call coming 150 ms after a restart; a loaded
        /// machine answers within tens of milliseconds.
        let quick: Duration = .milliseconds(750)

        /// Bugs caught: an unpaced capture (a 1 s file ends in about 40 ms; the lower bound, and
        /// no positions while playing), and, by the upper bound, a capture at less than 40 % of
        /// real time or an `ended` announced a second and a half after the last sound. (A loaded
        /// machine delays the end by milliseconds: the reader catches up on its own.)
        @Test func aFileIsHeardInRealTime() async throws {
            let engine = try MPVEngine(output: .pacedCapture(path: try Media.scratchWAV()))
            var events = EventCursor(engine)
            let begin = clock.now
            let item = try await engine.load(try Media.file("tone-1s.wav"), options: PlaybackOptions())
            try await events.next { $0.item == item && $0.kind.isStarted }
            #expect(try await events.end(of: item) == .endOfFile)
            let ended = clock.now
            await engine.shutdown()
            #expect(ended - begin >= .milliseconds(995), "a 1 s file ended after \(ended - begin)")
            #expect(ended - begin < .milliseconds(2_500), "a 1 s file ended after \(ended - begin)")
            // Positions every 250 ms or so: at least two in a second.
            let positions = events.kinds(of: item).filter { if case .position = $0 { true } else { false } }
            #expect(positions.count >= 2, "\(positions)")
        }

        /// Bugs caught: a pause that does not hold time (the whole shorter than the file plus the
        /// pause), a capture ahead of real time, a resume that skips (no seek back to where the
        /// listener stopped: the rest ends early), and, by the upper bounds, a second or more lost
        /// (a resume that replays, an end announced late), which a loaded machine does not reach:
        /// the capture catches up on its own.
        @Test func aPausedFileTakesItsLengthPlusThePause() async throws {
            let engine = try MPVEngine(output: .pacedCapture(path: try Media.scratchWAV()))
            var events = EventCursor(engine)
            let loadCalled = clock.now
            let item = try await engine.load(try Media.file("chime.wav"), options: PlaybackOptions())
            try await events.next { $0.item == item && $0.kind.isStarted }
            try await Task.sleep(for: .milliseconds(500))
            let pauseCalled = clock.now
            try await engine.pause()
            let heardAtPause = try #require(engine.heardSeconds)
            #expect(heardAtPause <= (clock.now - loadCalled).seconds + block, "heard \(heardAtPause) s")
            try await Task.sleep(for: .milliseconds(500))
            let playCalled = clock.now
            try await engine.play()
            #expect(try await events.end(of: item) == .endOfFile)
            let ended = clock.now
            await engine.shutdown()

            let length = 2.0
            let rest = (ended - playCalled).seconds
            #expect(rest >= length - heardAtPause - block && rest < length - heardAtPause + 1, "the last \(length - heardAtPause) s took \(rest) s")
            let pause = (playCalled - pauseCalled).seconds
            let wall = (ended - loadCalled).seconds
            #expect(wall >= length + pause - block && wall < length + pause + 1, "load to end in \(wall) s; \(length) s of audio, paused \(pause) s")
        }

        /// Every call returns at once while audio plays, however long libmpv's write into the
        /// pipe. Bug caught: a call made without muting the capture first waits for the write.
        @Test func everyCallReturnsQuicklyWhileAudioPlays() async throws {
            let engine = try MPVEngine(output: .pacedCapture(path: try Media.scratchWAV()))
            var events = EventCursor(engine)
            let memo = try Media.file("voice-memo.m4a")
            var item = try await engine.load(memo, options: PlaybackOptions())
            try await events.next { $0.item == item && $0.kind.isStarted }
            var took: [(String, Duration)] = []
            for round in 0..<3 {
                try await Task.sleep(for: .milliseconds(150))
                took.append(("position \(round)", await clock.timed { _ = await engine.position() }))
                took.append(("pause \(round)", try await clock.timed { try await engine.pause() }))
                took.append(("play \(round)", try await clock.timed { try await engine.play() }))
                try await Task.sleep(for: .milliseconds(150))
                took.append(("seek \(round)", try await clock.timed { try await engine.seek(to: Double(round)) }))
                try await Task.sleep(for: .milliseconds(150))
                let loadStart = clock.now
                item = try await engine.load(memo, options: PlaybackOptions())
                took.append(("load \(round)", clock.now - loadStart))
                try await events.next { $0.item == item && $0.kind.isStarted }
            }
            try await Task.sleep(for: .milliseconds(150))
            took.append(("stop", try await clock.timed { try await engine.stop() }))
            #expect(try await events.end(of: item) == .stopped)
            took.append(("shutdown", await clock.timed { await engine.shutdown() }))
            for (call, duration) in took {
                #expect(duration < quick, "\(call) took \(duration)")
            }
        }

        /// Bug caught: a shutdown that waits for libmpv's write blocked in the pipe (the capture not
        /// muted first) takes about 1.3 s, 150 ms after the file's first write began.
        @Test func shutdownWhilePlayingIsQuick() async throws {
            let engine = try MPVEngine(output: .pacedCapture(path: try Media.scratchWAV()))
            var events = EventCursor(engine)
            let item = try await engine.load(try Media.file("voice-memo.m4a"), options: PlaybackOptions())
            try await events.next { $0.item == item && $0.kind.isStarted }
            try await Task.sleep(for: .milliseconds(150))
            let took = await clock.timed { await engine.shutdown() }
            #expect(took < quick, "shutdown took \(took)")
            #expect(try await events.end(of: item) == .stopped)
        }

        /// Bugs caught: an unpaced capture (4 s of audio in well under a second), and two seconds
        /// or more lost between or within the files (the upper bound).
        @Test func filesInARowTakeTheirLength() async throws {
            let engine = try MPVEngine(output: .pacedCapture(path: try Media.scratchWAV()))
            let begin = clock.now
            for name in ["tone-1s.wav", "chime.ogg", "tone-1s.wav"] {
                #expect(try await engine.playToEnd(try Media.file(name)) == .endOfFile)
            }
            let took = clock.now - begin
            await engine.shutdown()
            #expect(took >= .milliseconds(3_995) && took < .seconds(6), "4 s of audio in \(took)")
        }
    }
}
