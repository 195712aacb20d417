/// The clock of libmpv's own outputs (a device, `null`, a `pcm` file): what libmpv renders is
/// heard as it renders it, so libmpv's `pause` and `time-pos` are what the engine reports, and
/// libmpv tells the end of a file (`END_FILE`, then `idle-active` once its output drained).
struct LibmpvClock: OutputClock {
    let libmpvOptions: [(String, String)]
    /// The capture file of the `pcm` output, checked after each file.
    var pcm: PCMCaptureFile? = nil

    var heardSeconds: Double? { nil }
    var heardAll: Bool { true }

    func attach(to engine: MPVEngine) {}
    func releaseOutput() {}
    func finish() {}

    func prepareLoad(_ options: PlaybackOptions, engine: MPVEngine) throws {
        try engine.setLibmpvPause(options.startPaused)
    }

    func prepareSeek(to target: Double, engine: MPVEngine) throws -> Double { target }

    func prepareStop(engine: MPVEngine) {}

    func setPause(_ paused: Bool, engine: MPVEngine) throws {
        guard engine.handle != nil else { throw PlaybackFailure.engineClosed }
        try engine.requireActive(paused ? "pause" : "play")
        try engine.setLibmpvPause(paused)
        // libmpv coalesces property notifications (a quick pause and play may bring none), so our
        // own change is applied now; the notification, when it comes, finds nothing to do.
        follow(paused: paused, engine)
    }

    func position(engine: MPVEngine) -> Double? {
        engine.state.active ? engine.doubleProperty("time-pos") : nil
    }

    func playbackRestarted(awaited: Bool, engine: MPVEngine) -> Bool { true }

    func libmpvReported(_ report: LibmpvReport, engine: MPVEngine) {
        switch report {
        case .pause(let paused):
            follow(paused: paused, engine)
        case .timePos(let position):
            follow(position: position, engine)
        case .eofReached:
            break
        }
    }

    func refreshAfterOverflow(engine: MPVEngine) {
        if let paused = engine.flagProperty("pause") { follow(paused: paused, engine) }
    }

    func propertyReplied(_ userdata: UInt64, flag: Bool?, engine: MPVEngine) {}

    func takeOwnEnd(of item: PlaybackItemID) -> Bool { false }

    /// libmpv's `pcm` output writes its header's sizes and flushes what libc buffered when it
    /// closes, which libmpv does before it reports itself idle: the file then tells what was lost.
    func captureFailure(engine: MPVEngine) -> PlaybackFailure? {
        guard let pcm else { return nil }
        return pcm.writeFailure(outputClosed: outputClosed(engine: engine))
    }

    /// With a `pcm` file, whether libmpv closed it (`current-ao` unavailable): only then does its
    /// header give the size of what was rendered. An `idle-active` seen before may be one libmpv
    /// sent before the file began, so being idle is not enough.
    func outputClosed(engine: MPVEngine) -> Bool {
        pcm == nil || !engine.hasProperty("current-ao")
    }

    /// libmpv's `pause` is `paused` (as reported, or as just set).
    private func follow(paused: Bool, _ engine: MPVEngine) {
        engine.state.paused = paused
        guard let item = engine.state.current, engine.state.active else { return }
        if paused, engine.state.playing {
            // The pause is in effect: `time-pos` is frozen where the audio stopped.
            engine.state.playing = false
            engine.state.restartPosition = engine.doubleProperty("time-pos") ?? engine.state.restartPosition
            engine.emit(.paused(position: engine.state.restartPosition), item: item)
        } else if !paused, engine.state.restarted, !engine.state.playing {
            // Reading `time-pos` now would be late on an unpaced output: use where it stood.
            engine.state.playing = true
            engine.emit(.started(position: engine.state.restartPosition), item: item)
        }
    }

    /// libmpv's `time-pos` is `position`: sent on, at most every `positionInterval` while playing.
    private func follow(position: Double, _ engine: MPVEngine) {
        guard let item = engine.state.current, engine.state.active, engine.state.restarted else { return }
        engine.state.lastPosition = position
        if !engine.state.playing { engine.state.restartPosition = position }
        let now = ContinuousClock.now
        if engine.state.playing, let sent = engine.state.positionSent, now - sent < engine.positionInterval { return }
        engine.state.positionSent = now
        engine.emit(.position(position), item: item)
    }
}
