import Synchronization
import Logging

/// The clock of ``AudioOutput/pacedCapture(path:temporaryFolder:)``: the ``PacedCapture`` is the sound card, and
/// positions and `ended` follow what it played.
///
/// libmpv's `pcm` output writes up to 65,536 samples (1.5 s) at a time, ahead of what is heard,
/// and holds its output's lock while a write waits in the pipe; libmpv's core takes that lock to
/// pause, seek, stop or load. So:
/// - Before each of those, the capture is muted: it stops what is heard at once and reads the
///   pipe as fast as libmpv writes, throwing it away, so the blocked write ends and the call
///   returns in milliseconds. Every other libmpv call is made while libmpv is paused.
/// - A load or a seek holds libmpv paused until its restart, and reloads libmpv's output first:
///   closing it pushes out what libc still buffered in front of the pipe (up to 4 KiB), which
///   would otherwise come before the new audio. At the restart the capture throws away all that
///   libmpv wrote before, and libmpv plays on. Positions count what the capture played since.
/// - A pause mutes the capture; libmpv ran ahead of the listener meanwhile, so playing again
///   seeks back to where the listener stopped (`absolute+exact`), unless libmpv has stood still
///   since a restart.
/// - With `keep-open`, libmpv keeps a file it wrote to the end; the clock ends it (and stops it
///   in libmpv) once the capture played everything, so `ended` comes when the last sound did.
///
/// Threading: ``state`` is guarded by the engine's queue, like the engine's own state (every call
/// but ``heardSeconds`` comes on that queue); the capture is safe from any thread. That is what
/// makes the `@unchecked Sendable` conformance true.
final class PacedCaptureClock: OutputClock, @unchecked Sendable {
    /// The sound card.
    let capture: PacedCapture
    /// What the clock knows of the current file beyond the engine's state. Guarded by the
    /// engine's queue.
    var state = State()
    /// A tick is scheduled on the engine's queue and has not begun.
    let tickScheduled = Atomic<Bool>(false)

    struct State {
        /// The position at the last boundary (a load's or a seek's restart) and the bytes the
        /// capture had played then; the position now follows what it played since.
        var positionBase = 0.0
        var playedBase: Int64 = 0
        /// libmpv wrote the whole file (`eof-reached`, with `keep-open`).
        var eofReached = false
        /// libmpv's output was reloaded at the end, which pushes out its last bytes.
        var endFlushed = false
        /// How many times libmpv was held for a restart (tags the questions of `checkSilence`),
        /// and how many of those questions are unanswered.
        var holds: UInt64 = 0
        var silenceQueries = 0
        /// Paused: libmpv stands exactly where the listener stopped (it has been paused since a
        /// restart), so playing needs no seek back.
        var aligned = false
        /// Paused: where the listener stopped.
        var resumePosition = 0.0
        /// The file the clock ended itself, whose libmpv `END_FILE` is not news.
        var endedByEngine: PlaybackItemID?
    }

    /// Starts a capture into the WAV file at `path`, with its pipe in a private folder made in
    /// `temporaryFolder`, paced by `pacingClock`.
    /// - Throws: ``PlaybackFailure`` (``PlaybackFailure/captureFailed``) if it cannot be set up.
    init(path: String, temporaryFolder: String, pacingClock: any PacingClock) throws(PlaybackFailure) {
        capture = try PacedCapture(
            path: path, sampleRate: AudioOutput.pacedCaptureSampleRate, channels: AudioOutput.pacedCaptureChannels,
            temporaryFolder: temporaryFolder, clock: pacingClock)
    }

    /// Raw samples of a known format into the capture's pipe, so that bytes are time.
    /// (`audio-buffer` is left alone: the pcm output's soft buffer is its 65,536-sample device
    /// buffer whatever `audio-buffer` says; it can only make it larger.) `keep-open`: libmpv
    /// writes the end of a file before it is heard; the file stays loaded (paused, `eof-reached`)
    /// until the capture played it, so a pause or a seek near the end still works; the clock then
    /// stops it.
    var libmpvOptions: [(String, String)] {
        [
            ("ao", "pcm"), ("ao-pcm-file", capture.fifoPath), ("ao-pcm-waveheader", "no"), ("keep-open", "yes"),
            ("audio-format", "s16"), ("audio-samplerate", String(AudioOutput.pacedCaptureSampleRate)),
            ("audio-channels", AudioOutput.pacedCaptureChannels == 1 ? "mono" : "stereo"),
        ]
    }

    var heardSeconds: Double? { capture.heardSeconds }

    var heardAll: Bool { capture.isDrained }

    /// The capture's reader took what it heard as it came (``heardAll``): nothing to wait for.
    func outputClosed(engine: MPVEngine) -> Bool { true }

    func attach(to engine: MPVEngine) {
        capture.setNotify(interval: min(engine.positionInterval / 4, .milliseconds(50))) { [weak self, weak engine] in
            guard let self, let engine else { return }
            self.scheduleTick(engine)
        }
    }

    /// A write blocked on the capture's pipe must end for libmpv to close its output.
    func releaseOutput() {
        capture.setMode(.muted)
    }

    func finish() {
        capture.finish()
    }

    // MARK: Calls that move playback

    func prepareLoad(_ options: PlaybackOptions, engine: MPVEngine) throws {
        // libmpv loads paused; the new file's restart lets it play (`startAudio`).
        try holdForRestart(engine)
    }

    func prepareSeek(to target: Double, engine: MPVEngine) throws -> Double {
        try holdForRestart(engine)
        // A quarter of a sample later: libmpv's exact seek to a sample's time may start one
        // sample early (1.5 s at 44.1 kHz gives sample 66,149); a capture must hear the rest
        // of the file from that very sample, no more, no less.
        return target + 0.25 / Double(capture.sampleRate)
    }

    /// Nothing more is heard; a file whose end libmpv wrote and the capture had not played yet
    /// was stopped.
    func prepareStop(engine: MPVEngine) {
        capture.setMode(.muted)
        if let draining = engine.state.draining {
            engine.state.draining = nil
            if draining == engine.state.current { engine.state.playing = false }
            engine.emit(.ended(.stopped), item: draining)
        }
    }

    func setPause(_ paused: Bool, engine: MPVEngine) throws {
        guard engine.handle != nil else { throw PlaybackFailure.engineClosed }
        try engine.requireActive(paused ? "pause" : "play")
        guard let item = engine.state.current, paused != engine.state.paused else { return }
        if paused {
            let position = position(engine: engine) ?? engine.state.restartPosition
            capture.setMode(.muted)
            try engine.setLibmpvPause(true)
            engine.state.paused = true
            if engine.state.restarted {
                // libmpv went on writing until the pause took: play resumes from here.
                state.aligned = false
                state.resumePosition = position
            }
            if engine.state.playing {
                engine.state.playing = false
                engine.emit(.paused(position: position), item: item)
            }
        } else {
            engine.state.paused = false
            // Waiting for a restart: that restart plays.
            guard engine.state.restarted else { return }
            if state.aligned {
                // Where the listener stopped, read before the capture plays on: once it plays,
                // its reader may at once read a block ahead, which is not where audio resumed.
                let position = position(engine: engine) ?? engine.state.restartPosition
                resumeAudio(engine)
                engine.state.playing = true
                engine.emit(.started(position: position), item: item)
            } else {
                // Back to where the listener stopped; its restart sends `started`.
                try engine.sendSeek(state.resumePosition)
            }
        }
    }

    /// Where the last load or seek restarted plus what the capture played since.
    func position(engine: MPVEngine) -> Double? {
        guard engine.state.active else { return nil }
        guard engine.state.restarted else { return engine.state.restartPosition }
        return state.positionBase + Double(capture.playedBytes - state.playedBase) / Double(capture.bytesPerSecond)
    }

    /// Only the restarts the engine waits for (a load's, a seek's) are boundaries.
    func playbackRestarted(awaited: Bool, engine: MPVEngine) -> Bool {
        guard awaited else { return false }
        startAudio(engine)
        return true
    }

    // MARK: Holding and resuming libmpv

    /// Mutes the capture, pauses libmpv until the next restart, and reloads libmpv's output so
    /// that nothing written before stays in libc's buffer.
    private func holdForRestart(_ engine: MPVEngine) throws {
        guard engine.handle != nil else { throw PlaybackFailure.engineClosed }
        capture.setMode(.muted)
        try engine.setLibmpvPause(true)
        engine.reloadOutput()
        state.holds &+= 1
        state.eofReached = false
        state.endFlushed = false
        state.aligned = false
    }

    /// At a load's or a seek's restart (libmpv paused, nothing written since): throws away what
    /// the capture was sent before, starts counting the position from here, and lets libmpv play
    /// unless the user paused.
    private func startAudio(_ engine: MPVEngine) {
        capture.discard()
        state.positionBase = engine.state.restartPosition
        state.playedBase = capture.playedBytes
        engine.state.positionSent = ContinuousClock.now
        guard !engine.state.paused else {
            state.aligned = true
            return
        }
        resumeAudio(engine)
    }

    /// Plays from where libmpv stands.
    private func resumeAudio(_ engine: MPVEngine) {
        state.aligned = false
        capture.setMode(.playing)
        guard engine.handle != nil, !state.eofReached else { return }
        do {
            try engine.setLibmpvPause(false)
        } catch {
            engine.logger.error("libmpv refused to play on: \(error)")
        }
    }
}
