import Foundation
import NotiplayCore
@testable import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// The paced capture on real files: libmpv's `pcm` output writes into a pipe read as a sound
    /// card would, by a virtual clock that moves only when the test moves it. So "after 0.3 s" is
    /// exact: the reader has then read 0.3 s and at most one block (5 ms) more, however slow the
    /// machine; files end only once the test let the clock run past their end. How long things
    /// take in real time is checked in `RealTime/PacedCaptureTimingTests`.
    @Suite(.timeLimit(.minutes(1)))
    struct PacedCaptureTests {
        typealias Media = PacedMedia
        let block = PacedMedia.block

        /// `heard` is what real time allows `seconds` after the audio began, and at most a block more.
        func expectHeard(_ heard: Double, after seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(heard > seconds - 1e-9 && heard <= seconds + block + 1e-9, "heard \(heard) s \(seconds) s in", sourceLocation: sourceLocation)
        }

        @Test func aFilePlayedToItsEndIsHeardWhole() async throws {
            let (out, clock, engine, item, started) = try await Media.playing("tone-1s.wav")
            var events = started
            // Nothing ends before its last sound: at 0.9 s the file is still loaded and playing.
            // (Not later: in its last 50 ms libmpv has finished writing, and the engine's queue
            // waits, in real time for a few milliseconds, here until the clock moves, for the end
            // that libc still buffered to go into the pipe.)
            try await clock.play(0.9)
            let heardBefore = try #require(engine.heardSeconds)
            expectHeard(heardBefore, after: 0.9)
            #expect(await engine.position() == heardBefore)
            try await clock.playOut()
            #expect(try await events.end(of: item) == .endOfFile)
            let heard = try #require(engine.heardSeconds)
            await engine.shutdown()

            let positions = events.kinds(of: item).compactMap { kind -> Double? in
                if case .position(let position) = kind { position } else { nil }
            }
            #expect(positions == positions.sorted() && positions.allSatisfy { $0 > 0 && $0 <= 1.0 }, "\(positions)")
            let wav = try WAVFile(contentsOf: out)
            #expect(wav.sampleRate == 44_100 && wav.channels == 2 && wav.bitsPerSample == 16)
            #expect(wav.frames == 44_100, "\(wav)")
            #expect(abs(heard - wav.seconds) < 1e-9, "heard \(heard), file \(wav)")
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
            let temporary = try TestMedia.scratch().path
            let engine = try MPVEngine(output: .pacedCapture(path: try Media.scratchWAV(), temporaryFolder: temporary))
            let fifo = try #require(engine.capture?.fifoPath)
            let folder = (fifo as NSString).deletingLastPathComponent
            // In the temporary folder the engine was given.
            #expect((folder as NSString).deletingLastPathComponent == temporary)
            let folderMode = try #require(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int)
            #expect(folderMode & 0o777 == 0o700)
            var info = stat()
            #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
            await engine.shutdown()
            #expect(!FileManager.default.fileExists(atPath: folder))
        }

        /// A pause stops what is heard at once; nothing is heard while paused; after resuming, the
        /// rest of the file is heard, all of it. Also when libmpv wrote the whole file before the
        /// pause (a 1.4 s tone fits in one write of libmpv's) and when it had not (`chime.wav`, 2 s).
        @Test(arguments: [(PacedMedia.shortTone, PacedMedia.shortToneFrames, 0.3), ("chime.wav", 88_200, 0.5)])
        func aPauseStopsWhatIsHeard(name: String, frames: Int, pauseAfter: Double) async throws {
            async let reference = Media.straightCapture(name)
            let (out, clock, engine, item, started) = try await Media.playing(name)
            var events = started
            try await clock.play(pauseAfter)

            let heardBeforePause = try #require(engine.heardSeconds)
            try await engine.pause()
            let heardAtPause = try #require(engine.heardSeconds)
            // Nothing more was heard: the clock stood still.
            #expect(heardAtPause == heardBeforePause)
            expectHeard(heardAtPause, after: pauseAfter)
            let paused = try await events.next { $0.item == item && $0.kind.isPaused }
            let pausedAt = try #require(paused.kind.position)
            // The position is what was heard (one file, from 0).
            #expect(abs(pausedAt - heardAtPause) < 1e-9, "paused at \(pausedAt), heard \(heardAtPause)")

            // Nothing more is heard while paused, however long, and the position stands still.
            clock.advance(by: 0.5)
            try await clock.turnTaken()
            #expect(engine.heardSeconds == heardAtPause)
            #expect(await engine.position() == pausedAt)

            try await engine.play()
            let resumed = try await events.next { $0.item == item && $0.kind.isStarted }
            #expect(abs((resumed.kind.position ?? -1) - pausedAt) < 1e-9)
            // From the resume on, real time again.
            try await clock.play(0.2)
            expectHeard(try #require(engine.heardSeconds) - heardAtPause, after: 0.2)
            try await clock.playOut()
            #expect(try await events.end(of: item) == .endOfFile)
            let heard = try #require(engine.heardSeconds)
            await engine.shutdown()

            let wav = try WAVFile(contentsOf: out)
            #expect(wav.frames == frames, "\(wav)")
            #expect(abs(heard - wav.seconds) < 1e-9)
            // What was heard is the file, sample for sample, as if there had been no pause.
            let same = wav.samples.elementsEqual(try await reference.samples)
            #expect(same, "the audio differs from a capture without a pause")
            let transitions = events.kinds(of: item).filter { $0.isStarted || $0.isPaused }
            #expect(transitions.count == 3)
        }

        /// A seek while playing: what was buffered from before the seek is never heard, what follows
        /// the target is heard whole, and from the target on in real time.
        @Test(arguments: [
            ("chime.wav", 2.0, 1.5), ("voice-memo.ogg", 146_950.0 / 22_050, 5.5),
            // libmpv decoded all of it at once: the seek comes after its end of file.
            (PacedMedia.shortTone, Double(PacedMedia.shortToneFrames) / 44_100, 1.0),
        ])
        func aSeekWhilePlayingHearsTheRestFromTheTarget(name: String, length: Double, target: Double) async throws {
            async let reference = Media.straightCapture(name)
            let (out, clock, engine, item, started) = try await Media.playing(name)
            var events = started
            try await clock.play(0.4)

            let before = try #require(engine.heardSeconds)
            try await engine.seek(to: target)
            // What had been heard when the audio from the target began (the engine counts from there):
            // nothing more than before the seek, the clock standing still.
            let after = Double(try await engine.playedAtLastRestart()) / Media.bytesPerSecond
            #expect(after == before, "heard \(after - before) s during the seek")
            // The engine reports the target at the restart, and counts from it.
            try await events.next { $0.item == item && $0.kind == .position(target) }
            let position = try #require(await engine.position())
            #expect(position >= target && position <= target + block + 1e-9, "position \(position) after seeking to \(target)")
            try await clock.play(0.1)
            expectHeard(try #require(engine.heardSeconds) - after, after: 0.1)
            #expect(abs(try #require(await engine.position()) - target - (try #require(engine.heardSeconds) - after)) < 1e-9)
            try await clock.playOut()
            #expect(try await events.end(of: item) == .endOfFile)
            let heard = try #require(engine.heardSeconds)
            await engine.shutdown()

            // From the target to the end, once: nothing from before the seek comes along (not even
            // what libc buffered in front of the pipe).
            let rest = heard - after
            #expect(abs(rest - (length - target)) < 0.001, "heard \(rest) s after the seek, expected \(length - target)")
            let wav = try WAVFile(contentsOf: out)
            #expect(abs(wav.seconds - heard) < 1e-9)
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
                let firstDifference = Media.firstDifference(wav.samples.prefix(head), full.samples.prefix(head))
                #expect(firstDifference == nil, "the audio before the seek differs from the file's start at frame \((firstDifference ?? 0) / 4) of \(head / 4)")
            }
        }

        @Test func stopWhilePlayingEndsAtOnceAndKeepsWhatWasHeard() async throws {
            let (out, clock, engine, item, started) = try await Media.playing("voice-memo.ogg")
            var events = started
            try await clock.play(0.5)

            let before = try #require(engine.heardSeconds)
            try await engine.stop()
            let heard = try #require(engine.heardSeconds)
            #expect(heard == before)
            expectHeard(heard, after: 0.5)
            #expect(try await events.end(of: item) == .stopped)
            clock.advance(by: 0.3)
            try await clock.turnTaken()
            #expect(engine.heardSeconds == heard)
            #expect(await engine.position() == nil)
            await engine.shutdown()
            #expect(abs(try WAVFile(contentsOf: out).seconds - heard) < 1e-9)
        }

        @Test func loadingAnotherFileWhilePlayingReplacesItAtOnce() async throws {
            let (out, clock, engine, first, started) = try await Media.playing("voice-memo.ogg")
            var events = started
            try await clock.play(0.5)
            let heardAtLoad = try #require(engine.heardSeconds)

            let second = try await engine.load(try Media.file("tone-1s.wav"), options: PlaybackOptions())
            #expect(try await events.end(of: first) == .stopped)
            try await events.next { $0.item == second && $0.kind == .started(position: 0) }
            // What had been heard of the first file when the second began: nothing after the load.
            let heardOfFirst = Double(try await engine.playedAtLastRestart()) / Media.bytesPerSecond
            #expect(heardOfFirst == heardAtLoad)
            try await clock.play(0.5)
            expectHeard(try #require(engine.heardSeconds) - heardOfFirst, after: 0.5)
            try await clock.playOut()
            #expect(try await events.end(of: second) == .endOfFile)
            let heard = try #require(engine.heardSeconds)
            await engine.shutdown()

            #expect(abs(heard - heardOfFirst - 1.0) < 1e-9, "heard \(heard - heardOfFirst) s of the 1 s file")
            #expect(abs(try WAVFile(contentsOf: out).seconds - heard) < 1e-9)
        }

        @Test func shutdownWhilePlayingLeavesAValidFile() async throws {
            let (out, clock, engine, item, started) = try await Media.playing("voice-memo.m4a")
            var events = started
            try await clock.play(0.5)

            let before = try #require(engine.heardSeconds)
            await engine.shutdown()
            let heard = try #require(engine.heardSeconds)
            #expect(try await events.end(of: item) == .stopped)
            #expect(heard == before)
            expectHeard(heard, after: 0.5)
            let wav = try WAVFile(contentsOf: out)
            #expect(abs(wav.seconds - heard) < 1e-9, "\(wav), heard \(heard)")
            let fifo = try #require(engine.capture?.fifoPath)
            #expect(!FileManager.default.fileExists(atPath: (fifo as NSString).deletingLastPathComponent))
        }

        @Test func filesInARowAreEachHeardWhole() async throws {
            let (out, clock, engine, cursor) = try Media.rig()
            var events = cursor
            for name in ["tone-1s.wav", "chime.ogg", "tone-1s.wav"] {
                let heardBefore = try #require(engine.heardSeconds)
                let item = try await engine.load(try Media.file(name), options: PlaybackOptions())
                try await events.next { $0.item == item && $0.kind.isStarted }
                try await clock.play(0.25)
                expectHeard(try #require(engine.heardSeconds) - heardBefore, after: 0.25)
                try await clock.playOut()
                #expect(try await events.end(of: item) == .endOfFile)
            }
            let heard = try #require(engine.heardSeconds)
            await engine.shutdown()
            #expect(try WAVFile(contentsOf: out).frames == 4 * 44_100)
            #expect(heard == 4.0)
        }

        @Test func aFileLoadedPausedIsHeardOnlyAfterPlay() async throws {
            let (out, clock, engine, cursor) = try Media.rig()
            var events = cursor
            let item = try await engine.load(try Media.file("tone-1s.wav"), options: PlaybackOptions(startPaused: true))
            try await events.next { $0.item == item && $0.kind == .position(0) }
            clock.advance(by: 0.3)
            try await clock.turnTaken()
            #expect(engine.heardSeconds == 0)
            // And the capture is muted: whatever libmpv wrote is not heard. (Time the reader spent
            // waiting for data is a gap that earns nothing, so `heardSeconds` alone could miss a
            // capture left playing whose first data came late.)
            #expect(engine.capture?.mode == .muted)
            try await engine.play()
            // Where the listener stopped, however soon the reader reads on.
            let started = try await events.next { $0.item == item && $0.kind.isStarted }
            #expect(started.kind == .started(position: 0))
            try await clock.play(0.5)
            expectHeard(try #require(engine.heardSeconds), after: 0.5)
            try await clock.playOut()
            #expect(try await events.end(of: item) == .endOfFile)
            await engine.shutdown()
            #expect(try WAVFile(contentsOf: out).frames == 44_100)
        }

        /// A 64 KiB disk takes 0.37 s of the 2 s chime: the capture keeps what fitted, in whole
        /// frames, and the file's end is the write's failure (it used to be a plain end of file).
        @Test(.enabled(if: Tmpfs.works, Tmpfs.note))
        func aFullDiskEndsTheFileWithTheWriteFailure() async throws {
            let scratch = try TestMedia.scratch().path
            let disk = try Tmpfs(in: scratch, size: "64k")
            defer { disk.unmount() }
            let out = disk.path + "/heard.wav"
            let clock = VirtualPacingClock()
            let engine = try Media.engine(out, clock: clock)
            var events = EventCursor(engine)
            let item = try await engine.load(try Media.file("chime.wav"), options: PlaybackOptions())
            try await events.next { $0.item == item && $0.kind.isStarted }
            try await clock.playOut()
            let reason = try await events.end(of: item)
            let failure = PlaybackFailure(
                code: PlaybackFailure.captureFailed,
                message: "cannot write the audio capture file \(out): no space left on device", operation: "capture")
            #expect(reason == .failed(failure))
            #expect(events.kinds(of: item).contains(.error(failure)))
            await engine.shutdown()
            let wav = try WAVFile(contentsOf: out)
            #expect(wav.frames > 0 && wav.frames < 88_200, "\(wav)")
        }

        @Test func otherOutputsDoNotMeasureWhatIsHeard() async throws {
            let engine = try MPVEngine(output: .null(untimed: true))
            #expect(engine.heardSeconds == nil)
            await engine.shutdown()
        }
    }
}

/// No libmpv: the capture fails before a handle is made.
struct PacedCaptureSetupTests {
    /// A capture goes to a regular file on a disk: a device or a file of /proc is refused before
    /// anything is written to it (a WAV header written to /proc/sysrq-trigger, as root, would act).
    @Test(arguments: [
        ("/dev/full", "it is a character device, not a regular file"),
        ("/proc/version", "it is a file of the kernel's proc file system, not a file on a disk"),
    ])
    func aPathThatIsNoFileOnADiskIsRefused(path: String, why: String) throws {
        for output in [AudioOutput.pacedCapture(path: path), .pcm(path: path)] {
            #expect(throws: PlaybackFailure(
                code: PlaybackFailure.captureFailed, message: "cannot write the audio capture file \(path): \(why)",
                operation: "capture")) {
                _ = try MPVEngine(output: output)
            }
        }
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
}
