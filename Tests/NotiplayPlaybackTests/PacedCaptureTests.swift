import Foundation
import NotiplayCore
@testable import NotiplayPlayback
import NotiplayTestSupport
import Testing

/// The paced capture on real files: libmpv's `pcm` output writes into a pipe read in real time.
///
/// Timings are taken with the monotonic clock from the engine's own events (never a sleep standing
/// in for an event). Tolerances allow for a loaded 2-core machine, yet every timing check fails for
/// an unpaced capture (which renders a 1 s file in about 20 ms) or for a call that waits on a write
/// blocked in the pipe (libmpv's pcm output writes up to 65,536 samples, 1.5 s, at a time).
@Suite(.timeLimit(.minutes(1)))
struct PacedCaptureTests {
    let validator = AudioFileValidator()
    let clock = ContinuousClock()
    /// The most a call into the engine may take while audio plays.
    let quick: Duration = .milliseconds(250)

    /// `Media/NAME`, or a generated file for a name that starts with `generated-`.
    func file(_ name: String) throws -> AudioFile {
        if name == Self.shortTone { return try validator.validate(try Self.makeShortTone()) }
        return try validator.validate(TestMedia.path(name))
    }

    /// A 1.4 s mono tone at 44.1 kHz, 61,740 frames: shorter than one write of libmpv's pcm
    /// output (65,536), so libmpv has written all of it long before it is heard.
    static let shortTone = "generated-tone-1.4s.wav"
    static let shortToneFrames = 61_740

    static func makeShortTone() throws -> String {
        let path = try TestMedia.scratch().appendingPathComponent(shortTone).path
        let frames = shortToneFrames
        var bytes = Array("RIFF".utf8) + le32(36 + 2 * frames) + Array("WAVEfmt ".utf8)
        bytes += le32(16) + [1, 0, 1, 0] + le32(44_100) + le32(88_200) + [2, 0, 16, 0]
        bytes += Array("data".utf8) + le32(2 * frames)
        for i in 0..<frames {
            let value = Int16((sin(2 * Double.pi * 440 * Double(i) / 44_100) * 12_000).rounded())
            bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    func scratchWAV() throws -> String { try TestMedia.scratch().appendingPathComponent("heard.wav").path }

    /// Plays `name` to its end without a pause, into a capture of its own.
    func straightCapture(_ name: String) async throws -> WAVFile {
        let out = try scratchWAV()
        let engine = try MPVEngine(output: .pacedCapture(path: out))
        let reason = try await engine.playToEnd(try file(name))
        await engine.shutdown()
        #expect(reason == .endOfFile)
        return try WAVFile(contentsOf: out)
    }

    /// How far ahead of real time the capture may read: one block.
    let block = 0.005 + 1e-6

    /// What was heard when a pause, stop or shutdown came `sinceStarted` seconds after the
    /// `started` event and `sinceLoad` seconds after `load` was called: at least about the time
    /// since `started` (the capture is not slower than real time), more when that event reached
    /// us late (the audio began before), never more than real time since the load.
    func expectHeard(_ heard: Double, sinceStarted: Double, sinceLoad: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(heard >= sinceStarted - 0.15, "heard \(heard) s, \(sinceStarted) s after started", sourceLocation: sourceLocation)
        #expect(heard <= sinceLoad + block, "heard \(heard) s, \(sinceLoad) s after the load", sourceLocation: sourceLocation)
    }

    /// The offset of the first byte where `a` and `b` differ, if any (or the shorter's end).
    static func firstDifference(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int? {
        for (offset, pair) in zip(a, b).enumerated() where pair.0 != pair.1 { return offset }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    /// Runs `body` and returns how long it took.
    func timed(_ body: () async throws -> Void) async rethrows -> Duration {
        let begin = clock.now
        try await body()
        return clock.now - begin
    }

    @Test func aFilePlayedToItsEndIsHeardWholeInRealTime() async throws {
        let out = try scratchWAV()
        let engine = try MPVEngine(output: .pacedCapture(path: out))
        var events = EventCursor(engine)
        let begin = clock.now
        let item = try await engine.load(try file("tone-1s.wav"), options: PlaybackOptions())
        try await events.next { $0.item == item && $0.kind.isStarted }
        #expect(try await events.end(of: item) == .endOfFile)
        let ended = clock.now
        let heard = try #require(engine.heardSeconds)
        await engine.shutdown()

        // Positions every 250 ms or so, following what was heard.
        let positions = events.kinds(of: item).compactMap { kind -> Double? in
            if case .position(let position) = kind { position } else { nil }
        }
        #expect(positions.count >= 2 && positions == positions.sorted(), "\(positions)")
        #expect(positions.allSatisfy { $0 > 0 && $0 <= 1.0 }, "\(positions)")

        let wav = try WAVFile(contentsOf: out)
        #expect(wav.sampleRate == 44_100 && wav.channels == 2 && wav.bitsPerSample == 16)
        #expect(wav.frames == 44_100, "\(wav)")
        #expect(abs(heard - wav.seconds) < 1e-9, "heard \(heard), file \(wav)")
        #expect(ended - begin >= .milliseconds(995), "a 1 s file ended after \(ended - begin)")
        #expect(ended - begin < .milliseconds(1_500), "a 1 s file ended after \(ended - begin)")
        // The audio is the file's: a mono 660 Hz tone at -6 dBFS, on both channels at -3 dB
        // (libmpv's upmix), so 0.5 / √2.
        let peak = try wav.peak()
        #expect(abs(peak - 0.5.squareRoot() / 2) < 0.01, "peak \(peak)")
        // The pipe lived in a private folder, gone now.
        let fifo = try #require(engine.capture?.fifoPath)
        #expect(!FileManager.default.fileExists(atPath: fifo))
        #expect(!FileManager.default.fileExists(atPath: (fifo as NSString).deletingLastPathComponent))
    }

    @Test func thePipeIsInAPrivateFolder() async throws {
        let engine = try MPVEngine(output: .pacedCapture(path: try scratchWAV()))
        let fifo = try #require(engine.capture?.fifoPath)
        let folder = (fifo as NSString).deletingLastPathComponent
        let folderMode = try #require(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int)
        #expect(folderMode & 0o777 == 0o700)
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        await engine.shutdown()
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    /// A pause stops what is heard at once; nothing is heard while paused; after resuming, the rest
    /// of the file is heard, all of it. Also when libmpv wrote the whole file before the pause
    /// (a 1.4 s tone fits in one write of libmpv's; paused after 0.3 s, to leave a loaded
    /// machine time) and when it had not (`chime.wav`, 2 s, paused after 0.5 s).
    @Test(arguments: [(shortTone, shortToneFrames, 0.3), ("chime.wav", 88_200, 0.5)])
    func aPauseStopsWhatIsHeard(name: String, frames: Int, pauseAfter: Double) async throws {
        async let reference = straightCapture(name)
        let out = try scratchWAV()
        let engine = try MPVEngine(output: .pacedCapture(path: out))
        var events = EventCursor(engine)
        let loadCalled = clock.now
        let item = try await engine.load(try file(name), options: PlaybackOptions())
        try await events.next { $0.item == item && $0.kind.isStarted }
        let started = clock.now
        try await Task.sleep(until: started + .seconds(pauseAfter), clock: clock)

        let pauseCalled = clock.now
        let pauseTook = try await timed { try await engine.pause() }
        let heardAtPause = try #require(engine.heardSeconds)
        expectHeard(heardAtPause, sinceStarted: (pauseCalled - started).seconds, sinceLoad: (clock.now - loadCalled).seconds)
        let paused = try await events.next { $0.item == item && $0.kind.isPaused }
        let pausedAt = try #require(paused.kind.position)
        #expect(pauseTook < quick, "pause took \(pauseTook)")
        // The position is what was heard (one file, from 0).
        #expect(abs(pausedAt - heardAtPause) < 0.01, "paused at \(pausedAt), heard \(heardAtPause)")

        // Nothing more is heard while paused, and the position stands still.
        try await Task.sleep(until: pauseCalled + .milliseconds(500), clock: clock)
        #expect(engine.heardSeconds == heardAtPause)
        #expect(await engine.position() == pausedAt)

        let playCalled = clock.now
        let playTook = try await timed { try await engine.play() }
        #expect(playTook < quick, "play took \(playTook)")
        let resumed = try await events.next { $0.item == item && $0.kind.isStarted }
        #expect(abs((resumed.kind.position ?? -1) - pausedAt) < 0.01)
        #expect(try await events.end(of: item) == .endOfFile)
        let ended = clock.now
        let heard = try #require(engine.heardSeconds)
        await engine.shutdown()

        let wav = try WAVFile(contentsOf: out)
        #expect(wav.frames == frames, "\(wav)")
        #expect(abs(heard - wav.seconds) < 1e-9)
        // What was heard is the file, sample for sample, as if there had been no pause.
        let same = wav.samples.elementsEqual(try await reference.samples)
        #expect(same, "the audio differs from a capture without a pause")
        // Real time: the rest of the file took as long as it lasts (a little more for the seek
        // back and the `ended` event), and the whole took its length plus the pause.
        let length = Double(frames) / 44_100
        let rest = (ended - playCalled).seconds
        #expect(rest >= length - heardAtPause - block && rest < length - heardAtPause + 0.3, "the last \(length - heardAtPause) s took \(rest) s")
        let pause = (playCalled - pauseCalled).seconds
        let wall = (ended - loadCalled).seconds
        #expect(wall >= length + pause - block && wall < length + pause + 0.4, "load to end in \(wall) s; \(length) s of audio, paused \(pause) s")
        let transitions = events.kinds(of: item).filter { $0.isStarted || $0.isPaused }
        #expect(transitions.count == 3)
    }

    /// A seek while playing: what was buffered from before the seek is never heard, what follows
    /// the target is heard whole, and the seek returns at once.
    @Test(arguments: [
        ("chime.wav", 2.0, 1.5), ("voice-memo.ogg", 146_950.0 / 22_050, 5.5),
        // libmpv wrote all of it at once: the seek comes after its end of file.
        (shortTone, Double(shortToneFrames) / 44_100, 1.0),
    ])
    func aSeekWhilePlayingHearsTheRestFromTheTarget(name: String, length: Double, target: Double) async throws {
        async let reference = straightCapture(name)
        let out = try scratchWAV()
        let engine = try MPVEngine(output: .pacedCapture(path: out))
        var events = EventCursor(engine)
        let item = try await engine.load(try file(name), options: PlaybackOptions())
        try await events.next { $0.item == item && $0.kind.isStarted }
        let started = clock.now
        try await Task.sleep(until: started + .milliseconds(400), clock: clock)

        let before = try #require(engine.heardSeconds)
        let seekCalled = clock.now
        let seekTook = try await timed { try await engine.seek(to: target) }
        // What had been heard when the audio from the target began (the engine counts from there).
        let after = Double(engine.queue.sync { engine.state.playedBase }) / 176_400
        #expect(seekTook < quick, "seek took \(seekTook)")
        #expect(after - before < 0.1, "heard \(after - before) s during the seek")
        let position = try #require(await engine.position())
        #expect(position >= target && position < target + 0.1, "position \(position) after seeking to \(target)")
        #expect(try await events.end(of: item) == .endOfFile)
        let ended = clock.now
        let heard = try #require(engine.heardSeconds)
        await engine.shutdown()

        // From the target to the end, once: nothing from before the seek comes along (not even
        // what libc buffered in front of the pipe).
        let rest = heard - after
        #expect(abs(rest - (length - target)) < 0.001, "heard \(rest) s after the seek, expected \(length - target)")
        let took = (ended - seekCalled).seconds
        #expect(took >= length - target - block && took < length - target + 0.3, "the last \(length - target) s took \(took) s")
        let wav = try WAVFile(contentsOf: out)
        #expect(abs(wav.seconds - heard) < 1e-9)
        #expect(events.kinds(of: item).contains(.position(target)))
        // The same samples as the end of a capture without a seek (exact for PCM; a decoder or
        // a resampler may start a little differently after a seek).
        let full = try await reference
        let tail = full.samples.suffix(Int(((length - target) * 44_100).rounded()) * 4)
        let heardTail = wav.samples.suffix(tail.count)
        if name.hasSuffix(".wav") {
            let tailMatches = heardTail.elementsEqual(tail)
            #expect(tailMatches, "the audio after the seek is not the file's from \(target) s")
            // And before it, the file from its start up to the seek, with nothing in between.
            let head = wav.samples.count - tail.count
            let firstDifference = Self.firstDifference(wav.samples.prefix(head), full.samples.prefix(head))
            #expect(firstDifference == nil, "the audio before the seek differs from the file's start at frame \((firstDifference ?? 0) / 4) of \(head / 4)")
        }
    }

    @Test func stopWhilePlayingEndsAtOnceAndKeepsWhatWasHeard() async throws {
        let out = try scratchWAV()
        let engine = try MPVEngine(output: .pacedCapture(path: out))
        var events = EventCursor(engine)
        let loadCalled = clock.now
        let item = try await engine.load(try file("voice-memo.ogg"), options: PlaybackOptions())
        try await events.next { $0.item == item && $0.kind.isStarted }
        let started = clock.now
        try await Task.sleep(until: started + .milliseconds(500), clock: clock)

        let stopCalled = clock.now
        let stopTook = try await timed { try await engine.stop() }
        let heard = try #require(engine.heardSeconds)
        #expect(stopTook < quick, "stop took \(stopTook)")
        #expect(try await events.end(of: item) == .stopped)
        expectHeard(heard, sinceStarted: (stopCalled - started).seconds, sinceLoad: (clock.now - loadCalled).seconds)
        try await Task.sleep(for: .milliseconds(300))
        #expect(engine.heardSeconds == heard)
        #expect(await engine.position() == nil)
        await engine.shutdown()
        #expect(abs(try WAVFile(contentsOf: out).seconds - heard) < 1e-9)
    }

    @Test func loadingAnotherFileWhilePlayingReplacesItAtOnce() async throws {
        let out = try scratchWAV()
        let engine = try MPVEngine(output: .pacedCapture(path: out))
        var events = EventCursor(engine)
        let first = try await engine.load(try file("voice-memo.ogg"), options: PlaybackOptions())
        try await events.next { $0.item == first && $0.kind.isStarted }
        try await Task.sleep(until: clock.now + .milliseconds(500), clock: clock)

        let tone = try file("tone-1s.wav")
        let loadStart = clock.now
        let second = try await engine.load(tone, options: PlaybackOptions())
        let loadTook = clock.now - loadStart
        #expect(loadTook < quick, "load took \(loadTook)")
        #expect(try await events.end(of: first) == .stopped)
        try await events.next { $0.item == second && $0.kind == .started(position: 0) }
        // What had been heard of the first file when the second began.
        let heardOfFirst = Double(engine.queue.sync { engine.state.playedBase }) / 176_400
        #expect(try await events.end(of: second) == .endOfFile)
        let ended = clock.now
        let heard = try #require(engine.heardSeconds)
        await engine.shutdown()

        #expect(abs(heard - heardOfFirst - 1.0) < 0.03, "heard \(heard - heardOfFirst) s of the 1 s file")
        let took = (ended - loadStart).seconds
        #expect(took >= 1.0 - block && took < 1.4, "the 1 s file ended \(took) s after its load")
        #expect(abs(try WAVFile(contentsOf: out).seconds - heard) < 1e-9)
    }

    @Test func shutdownWhilePlayingIsQuickAndLeavesAValidFile() async throws {
        let out = try scratchWAV()
        let engine = try MPVEngine(output: .pacedCapture(path: out))
        var events = EventCursor(engine)
        let loadCalled = clock.now
        let item = try await engine.load(try file("voice-memo.m4a"), options: PlaybackOptions())
        try await events.next { $0.item == item && $0.kind.isStarted }
        let started = clock.now
        try await Task.sleep(until: started + .milliseconds(500), clock: clock)

        let before = try #require(engine.heardSeconds)
        let shutdownCalled = clock.now
        let took = await timed { await engine.shutdown() }
        let heard = try #require(engine.heardSeconds)
        #expect(took < quick, "shutdown took \(took)")
        #expect(try await events.end(of: item) == .stopped)
        #expect(heard - before < 0.05)
        let wav = try WAVFile(contentsOf: out)
        #expect(abs(wav.seconds - heard) < 1e-9, "\(wav), heard \(heard)")
        expectHeard(heard, sinceStarted: (shutdownCalled - started).seconds, sinceLoad: (clock.now - loadCalled).seconds)
        let fifo = try #require(engine.capture?.fifoPath)
        #expect(!FileManager.default.fileExists(atPath: (fifo as NSString).deletingLastPathComponent))
    }

    /// Every call returns at once while audio plays, however long libmpv's write into the pipe.
    @Test func everyCallReturnsQuicklyWhileAudioPlays() async throws {
        let engine = try MPVEngine(output: .pacedCapture(path: try scratchWAV()))
        var events = EventCursor(engine)
        let memo = try file("voice-memo.m4a")
        var item = try await engine.load(memo, options: PlaybackOptions())
        try await events.next { $0.item == item && $0.kind.isStarted }
        var took: [(String, Duration)] = []
        for round in 0..<3 {
            try await Task.sleep(for: .milliseconds(150))
            took.append(("position \(round)", await timed { _ = await engine.position() }))
            took.append(("pause \(round)", try await timed { try await engine.pause() }))
            took.append(("play \(round)", try await timed { try await engine.play() }))
            try await Task.sleep(for: .milliseconds(150))
            took.append(("seek \(round)", try await timed { try await engine.seek(to: Double(round)) }))
            try await Task.sleep(for: .milliseconds(150))
            let loadStart = clock.now
            item = try await engine.load(memo, options: PlaybackOptions())
            took.append(("load \(round)", clock.now - loadStart))
            try await events.next { $0.item == item && $0.kind.isStarted }
        }
        try await Task.sleep(for: .milliseconds(150))
        took.append(("stop", try await timed { try await engine.stop() }))
        #expect(try await events.end(of: item) == .stopped)
        took.append(("shutdown", await timed { await engine.shutdown() }))
        for (call, duration) in took {
            #expect(duration < quick, "\(call) took \(duration)")
        }
    }

    @Test func filesInARowAreEachHeardWhole() async throws {
        let out = try scratchWAV()
        let engine = try MPVEngine(output: .pacedCapture(path: out))
        let begin = clock.now
        for name in ["tone-1s.wav", "chime.ogg", "tone-1s.wav"] {
            #expect(try await engine.playToEnd(try file(name)) == .endOfFile)
        }
        let took = clock.now - begin
        let heard = try #require(engine.heardSeconds)
        await engine.shutdown()
        #expect(try WAVFile(contentsOf: out).frames == 4 * 44_100)
        #expect(heard == 4.0)
        #expect(took >= .milliseconds(3_995) && took < .seconds(5), "4 s of audio in \(took)")
    }

    @Test func aFileLoadedPausedIsHeardOnlyAfterPlay() async throws {
        let out = try scratchWAV()
        let engine = try MPVEngine(output: .pacedCapture(path: out))
        var events = EventCursor(engine)
        let item = try await engine.load(try file("tone-1s.wav"), options: PlaybackOptions(startPaused: true))
        try await events.next { $0.item == item && $0.kind == .position(0) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(engine.heardSeconds == 0)
        let playCalled = clock.now
        try await engine.play()
        try await events.next { $0.item == item && $0.kind == .started(position: 0) }
        #expect(try await events.end(of: item) == .endOfFile)
        #expect(clock.now - playCalled >= .milliseconds(995))
        await engine.shutdown()
        #expect(try WAVFile(contentsOf: out).frames == 44_100)
    }

    @Test func anUnwritableFileIsAClearFailure() throws {
        let folder = try TestMedia.scratch()
        for path in [folder.appendingPathComponent("missing/heard.wav").path, folder.path] {
            #expect {
                _ = try MPVEngine(output: .pacedCapture(path: path))
            } throws: { error in
                guard let failure = error as? PlaybackFailure else { return false }
                return failure.code == PlaybackFailure.captureFailed
                    && failure.message.hasPrefix("cannot write the audio capture file \(path): ")
            }
        }
    }

    @Test func otherOutputsDoNotMeasureWhatIsHeard() async throws {
        let engine = try MPVEngine(output: .null(untimed: true))
        #expect(engine.heardSeconds == nil)
        await engine.shutdown()
    }
}
