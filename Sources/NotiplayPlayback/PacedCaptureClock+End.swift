import Dispatch
import Logging
import Synchronization

/// A paced file ends when its last sound was heard: libmpv wrote all of it (`eof-reached`, with
/// `keep-open`) and the capture played all of it. The capture's reader wakes the clock (a tick)
/// while audio is heard and whenever it runs dry; each tick sends a position, at most every
/// `positionInterval`, and looks for the end.
extension PacedCaptureClock {
    func libmpvReported(_ report: LibmpvReport, engine: MPVEngine) {
        // The engine alone sets `pause` (also to hold libmpv until a restart), and `keep-open`
        // sets it at the end: its notifications tell nothing new. libmpv's `time-pos` runs ahead
        // of what was heard.
        guard case .eofReached(let reached) = report else { return }
        endReached(reached, engine)
    }

    func refreshAfterOverflow(engine: MPVEngine) {
        if let reached = engine.flagProperty("eof-reached") { endReached(reached, engine) }
    }

    func captureFailure(engine: MPVEngine) -> PlaybackFailure? { capture.writeFailure }

    func takeOwnEnd(of item: PlaybackItemID) -> Bool {
        guard item == state.endedByEngine else { return false }
        state.endedByEngine = nil
        return true
    }

    /// libmpv's `eof-reached` changed: true once it wrote the whole file and paused (`keep-open`).
    func endReached(_ reached: Bool, _ engine: MPVEngine) {
        guard engine.state.active else { return }
        state.eofReached = reached
        guard reached, engine.state.restarted, !engine.state.paused, capture.mode == .playing else { return }
        // The file's last samples may still be in libc's buffer in front of the pipe. (Once:
        // reloading the output makes libmpv look at the end again.)
        if !state.endFlushed {
            state.endFlushed = true
            engine.reloadOutput()
        }
        checkEnd(engine)
    }

    // MARK: Ticks

    /// Called from the capture's reader thread: schedules one tick on the engine's queue.
    func scheduleTick(_ engine: MPVEngine) {
        guard !tickScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        engine.queue.async {
            self.tickScheduled.store(false, ordering: .releasing)
            self.tick(engine)
        }
    }

    /// Sends a position at most every `positionInterval` while audio is heard, and ends a file
    /// whose end was heard.
    func tick(_ engine: MPVEngine) {
        guard engine.handle != nil else { return }
        checkEnd(engine)
        engine.checkDrain()
        checkSilence(engine)
        guard engine.state.playing, engine.state.restarted, !engine.state.paused, let item = engine.state.current
        else { return }
        let now = ContinuousClock.now
        if let sent = engine.state.positionSent, now - sent < engine.positionInterval { return }
        engine.state.positionSent = now
        if let position = position(engine: engine) { engine.emit(.position(position), item: item) }
    }

    /// Ends the current file once libmpv wrote all of it and the capture played all of it, then
    /// stops it in libmpv (paused at its end, so at once).
    func checkEnd(_ engine: MPVEngine) {
        guard let item = engine.state.current, engine.state.active, engine.state.restarted, state.eofReached,
            !engine.state.paused, capture.mode == .playing, capture.isDrained
        else { return }
        let ending = engine.endOfFileReason(of: item, at: position(engine: engine) ?? 0)
        engine.state.active = false
        engine.state.playing = false
        engine.state.restarted = false
        state.eofReached = false
        state.endedByEngine = item
        capture.setMode(.muted)
        engine.endHeardFile(item, ending)
        do {
            try engine.command(["stop"], "stop")
        } catch {
            state.endedByEngine = nil
            engine.logger.warning("libmpv did not stop a file that ended: \(error)")
        }
    }

    // MARK: Silence

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
    private func checkSilence(_ engine: MPVEngine) {
        guard engine.handle != nil, engine.state.active, engine.state.restarted, !state.eofReached,
            !engine.state.paused, capture.mode == .playing, state.silenceQueries == 0, capture.isDrained
        else { return }
        let holds = state.holds & Self.holdsMask
        for (tag, name) in [(Self.endQueryTag, "eof-reached"), (Self.pauseQueryTag, "pause")]
        where engine.requestFlag(name, userdata: Self.silenceQueryTag | tag | holds) {
            state.silenceQueries += 1
        }
    }

    /// An answer to `checkSilence`: `flag` is the value of `eof-reached` or of `pause`.
    func propertyReplied(_ userdata: UInt64, flag: Bool?, engine: MPVEngine) {
        guard userdata & Self.silenceQueryTag != 0 else { return }
        state.silenceQueries = max(0, state.silenceQueries - 1)
        guard userdata & Self.holdsMask == state.holds & Self.holdsMask else { return }
        let stillSilent = engine.state.active && engine.state.restarted && !state.eofReached
            && !engine.state.paused && capture.mode == .playing
        if userdata & Self.endQueryTag != 0, flag == true {
            endReached(true, engine)
        } else if userdata & Self.pauseQueryTag != 0, flag == true, stillSilent, engine.handle != nil {
            engine.logger.debug("libmpv paused itself for an end a seek had left; playing on")
            try? engine.setLibmpvPause(false)
        }
        guard state.silenceQueries == 0, stillSilent else { return }
        engine.queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [weak engine] in
            guard let engine else { return }
            self.tick(engine)
        }
    }
}
