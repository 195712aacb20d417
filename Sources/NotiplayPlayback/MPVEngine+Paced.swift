import CMPV
import Dispatch

/// The engine with a ``PacedCapture``: the capture is the clock.
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
/// - With `keep-open`, libmpv keeps a file it wrote to the end; the engine ends it (and stops it
///   in libmpv) once the capture played everything, so `ended` comes when the last sound did.
extension MPVEngine {
    /// Mutes the capture, pauses libmpv until the next restart, and reloads libmpv's output so
    /// that nothing written before stays in libc's buffer. Runs on `queue`.
    func holdForRestart(_ capture: PacedCapture) throws {
        guard let h = handle else { throw PlaybackFailure.engineClosed }
        capture.setMode(.muted)
        var flag: Int32 = 1
        try PlaybackFailure.check(mpv_set_property(h, "pause", MPV_FORMAT_FLAG, &flag), "set pause")
        flushOutput()
        state.holds &+= 1
        state.eofReached = false
        state.endFlushed = false
        state.aligned = false
    }

    /// Closes libmpv's output (it opens it again when audio comes): what libc buffered in front
    /// of the pipe goes into it. Only while libmpv is paused: its queued audio is dropped.
    private func flushOutput() {
        guard let h = handle else { return }
        let status = mpv_command_string(h, "ao-reload")
        if status < 0 { logger.debug("ao-reload: \(PlaybackFailure(mpv: status, "ao-reload"))") }
    }

    /// At a load's or a seek's restart (libmpv paused, nothing written since): throws away what
    /// the capture was sent before, starts counting the position from here, and lets libmpv play
    /// unless the user paused.
    func startPacedAudio(_ capture: PacedCapture) {
        capture.discard()
        state.positionBase = state.restartPosition
        state.playedBase = capture.playedBytes
        state.positionSent = ContinuousClock.now
        guard !state.paused else {
            state.aligned = true
            return
        }
        resumePacedAudio(capture)
    }

    /// Plays from where libmpv stands. Runs on `queue`.
    private func resumePacedAudio(_ capture: PacedCapture) {
        state.aligned = false
        capture.setMode(.playing)
        guard let h = handle, !state.eofReached else { return }
        var flag: Int32 = 0
        let status = mpv_set_property(h, "pause", MPV_FORMAT_FLAG, &flag)
        if status < 0 { logger.error("libmpv refused to play on: \(PlaybackFailure(mpv: status, "set pause"))") }
    }

    /// `pause()` and `play()` with a paced capture.
    func setPacedPause(_ paused: Bool, _ capture: PacedCapture) throws {
        guard let h = handle else { throw PlaybackFailure.engineClosed }
        try requireActive(paused ? "pause" : "play")
        guard let item = state.current, paused != state.paused else { return }
        if paused {
            let position = pacedPosition(capture) ?? state.restartPosition
            capture.setMode(.muted)
            var flag: Int32 = 1
            try PlaybackFailure.check(mpv_set_property(h, "pause", MPV_FORMAT_FLAG, &flag), "set pause")
            state.paused = true
            if state.restarted {
                // libmpv went on writing until the pause took: play resumes from here.
                state.aligned = false
                state.resumePosition = position
            }
            if state.playing {
                state.playing = false
                emit(.paused(position: position), item: item)
            }
        } else {
            state.paused = false
            // Waiting for a restart: that restart plays.
            guard state.restarted else { return }
            if state.aligned {
                // Where the listener stopped, read before the capture plays on: once it plays,
                // its reader may at once read a block ahead, which is not where audio resumed.
                let position = pacedPosition(capture) ?? state.restartPosition
                resumePacedAudio(capture)
                state.playing = true
                state.positionSent = ContinuousClock.now
                emit(.started(position: position), item: item)
            } else {
                // Back to where the listener stopped; its restart sends `started`.
                try sendSeek(state.resumePosition)
            }
        }
    }

    /// `stop()` with a paced capture: nothing more is heard.
    func stopPaced(_ capture: PacedCapture) {
        capture.setMode(.muted)
        if let draining = state.draining {
            state.draining = nil
            if draining == state.current { state.playing = false }
            emit(.ended(.stopped), item: draining)
        }
    }

    /// The position of what is being heard: where the last load or seek restarted plus what the
    /// capture played since. `nil` when nothing is loaded.
    func pacedPosition(_ capture: PacedCapture) -> Double? {
        guard state.active else { return nil }
        guard state.restarted else { return state.restartPosition }
        return state.positionBase + Double(capture.playedBytes - state.playedBase) / Double(capture.bytesPerSecond)
    }

    /// libmpv's `eof-reached` changed: true once it wrote the whole file and paused (`keep-open`).
    func pacedEndReached(_ reached: Bool) {
        guard let capture, state.active else { return }
        state.eofReached = reached
        guard reached, state.restarted, !state.paused, capture.mode == .playing else { return }
        // The file's last samples may still be in libc's buffer in front of the pipe. (Once:
        // reloading the output makes libmpv look at the end again.)
        if !state.endFlushed {
            state.endFlushed = true
            flushOutput()
        }
        checkPacedEnd()
    }

    /// Called from the capture's reader thread (through `schedulePacedTick`): sends a position
    /// at most every `positionInterval` while audio is heard, and ends a file whose end was heard.
    func pacedTick() {
        guard let capture, handle != nil else { return }
        checkPacedEnd()
        checkPacedDrain()
        checkSilence(capture)
        guard state.playing, state.restarted, !state.paused, let item = state.current else { return }
        let now = ContinuousClock.now
        if let sent = state.positionSent, now - sent < positionInterval { return }
        state.positionSent = now
        if let position = pacedPosition(capture) { emit(.position(position), item: item) }
    }

    /// `reply_userdata` of the questions `checkSilence` asks: this bit, one of the two below for
    /// the property, and `state.holds` in the low bits.
    static let silenceQueryTag: UInt64 = 1 << 62
    static let endQueryTag: UInt64 = 1 << 61
    static let pauseQueryTag: UInt64 = 1 << 60
    static let holdsMask: UInt64 = (1 << 60) - 1

    /// The capture ran out of audio while the engine expects libmpv to play. Either libmpv
    /// reached the end unannounced (it sends a property's change only when it finds the value
    /// different from the last one sent, so a file that was at its end before a seek can reach it
    /// again with no `eof-reached` news), or `keep-open` paused it for an end that a seek has
    /// since left (the end came while the seek was on its way; again with no `pause` news). So
    /// ask for both, without waiting (a write of libmpv's may be holding its core), and ask again
    /// 50 ms after the answers while the silence lasts.
    private func checkSilence(_ capture: PacedCapture) {
        guard let h = handle, state.active, state.restarted, !state.eofReached, !state.paused,
            capture.mode == .playing, state.silenceQueries == 0, capture.isDrained
        else { return }
        let holds = state.holds & Self.holdsMask
        for (tag, name) in [(Self.endQueryTag, "eof-reached"), (Self.pauseQueryTag, "pause")]
        where mpv_get_property_async(h, Self.silenceQueryTag | tag | holds, name, MPV_FORMAT_FLAG) >= 0 {
            state.silenceQueries += 1
        }
    }

    /// An answer to `checkSilence`: `value` of `eof-reached` or of `pause`.
    func silenceQueryAnswered(tag: UInt64, value: Bool?) {
        state.silenceQueries = max(0, state.silenceQueries - 1)
        guard tag & Self.holdsMask == state.holds & Self.holdsMask, let capture else { return }
        let stillSilent = state.active && state.restarted && !state.eofReached && !state.paused
            && capture.mode == .playing
        if tag & Self.endQueryTag != 0, value == true {
            pacedEndReached(true)
        } else if tag & Self.pauseQueryTag != 0, value == true, stillSilent, let h = handle {
            logger.debug("libmpv paused itself for an end a seek had left; playing on")
            var flag: Int32 = 0
            _ = mpv_set_property(h, "pause", MPV_FORMAT_FLAG, &flag)
        }
        guard state.silenceQueries == 0, stillSilent else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [weak self] in self?.pacedTick() }
    }

    /// Ends the current file once libmpv wrote all of it and the capture played all of it, then
    /// stops it in libmpv (paused at its end, so at once).
    func checkPacedEnd() {
        guard let capture, let item = state.current, state.active, state.restarted, state.eofReached,
            !state.paused, capture.mode == .playing, capture.isDrained
        else { return }
        state.active = false
        state.playing = false
        state.restarted = false
        state.eofReached = false
        state.endedByEngine = item
        capture.setMode(.muted)
        emit(.ended(.endOfFile), item: item)
        do {
            try command(["stop"], "stop")
        } catch {
            state.endedByEngine = nil
            logger.warning("libmpv did not stop a file that ended: \(error)")
        }
    }

    /// Without `keep-open`'s help (libmpv ended the file itself): ends it once libmpv closed its
    /// output and the capture played what it had.
    func checkPacedDrain() {
        guard let capture, state.draining != nil, state.idle || state.idleOverdue, capture.isDrained else { return }
        finishDraining(except: nil)
    }

    /// How the file still draining ends if cut now: at its end, or stopped before it was all heard.
    func drainingEndReason() -> EndReason {
        guard let capture else { return .endOfFile }
        return capture.isDrained ? .endOfFile : .stopped
    }
}
