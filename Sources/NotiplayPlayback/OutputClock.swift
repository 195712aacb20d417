/// Who keeps time for an ``MPVEngine``: what its positions, pauses and ends follow, and what
/// must happen around the libmpv calls that move playback.
///
/// The engine's own state (``MPVEngine/State``) is the same for every output; a clock keeps what
/// only its output needs.
/// - ``LibmpvClock`` (a device, `null`, a `pcm` file): what libmpv renders is heard as it renders
///   it, so libmpv's `pause` and `time-pos` are passed on, and libmpv tells the end of a file.
/// - ``PacedCaptureClock`` (``AudioOutput/pacedCapture(path:temporaryFolder:)``): libmpv writes
///   ahead of what is heard, so positions and ends follow what the capture played, and the calls
///   that move playback are made so that a write of libmpv's blocked in the pipe never holds them.
///
/// The engine calls the requirements that take it on its queue; a clock changes the engine's state
/// and sends its events there too. The others (``heardSeconds``, ``attach(to:)``,
/// ``releaseOutput()``, ``finish()``) come from any thread and touch only what is safe from any.
protocol OutputClock: Sendable {
    /// The libmpv options of the output (`ao` and its settings), set before the handle starts.
    var libmpvOptions: [(String, String)] { get }

    /// Seconds a listener heard so far, or `nil` when the output does not tell. Any thread.
    var heardSeconds: Double? { get }

    /// Whether everything libmpv sent the output has been heard. (libmpv's own outputs: always;
    /// `idle-active` tells when their last audio drained.)
    var heardAll: Bool { get }

    /// The engine's handle is ready and its wakeup callback installed: the clock may call back
    /// (on the engine's queue).
    func attach(to engine: MPVEngine)

    /// Just before the handle is destroyed: no write of libmpv's may keep its output from closing.
    func releaseOutput()

    /// The handle is destroyed (or was never made): the clock lets its output go. Idempotent.
    func finish()

    /// Before `loadfile`: libmpv's `pause` as the new file needs it (`options.startPaused`).
    func prepareLoad(_ options: PlaybackOptions, engine: MPVEngine) throws

    /// Before a seek to `target`; returns the time to send libmpv.
    func prepareSeek(to target: Double, engine: MPVEngine) throws -> Double

    /// Before `stop`.
    func prepareStop(engine: MPVEngine)

    /// `pause()` (`paused`) and `play()`.
    func setPause(_ paused: Bool, engine: MPVEngine) throws

    /// The position of what is being heard; `nil` when nothing is loaded.
    func position(engine: MPVEngine) -> Double?

    /// libmpv restarted playback of the current file (`PLAYBACK_RESTART`); `awaited`: the restart
    /// of a load or a seek. Returns whether the engine announces it (`started` or `position`).
    func playbackRestarted(awaited: Bool, engine: MPVEngine) -> Bool

    /// libmpv reported a change of a property that a clock may follow.
    func libmpvReported(_ report: LibmpvReport, engine: MPVEngine)

    /// libmpv's event queue overflowed: the clock reads afresh what it follows.
    func refreshAfterOverflow(engine: MPVEngine)

    /// libmpv answered an asynchronous property read (`reply_userdata`, and the value if it is a
    /// flag); only a clock asks such questions.
    func propertyReplied(_ userdata: UInt64, flag: Bool?, engine: MPVEngine)

    /// Whether libmpv's `END_FILE` of `item` is the stop of a file the clock ended itself, which is
    /// no news. Answers `true` once per such stop.
    func takeOwnEnd(of item: PlaybackItemID) -> Bool

    /// A file's audio was all heard and libmpv is idle: the failure of the output's capture file
    /// to report instead of its end (a write failed: a full disk, an I/O error), or `nil`.
    func captureFailure(engine: MPVEngine) -> PlaybackFailure?

    /// Whether the output that took the file is closed, so that ``captureFailure(engine:)`` can
    /// tell: a file's end waits for it (libmpv closes its output when it goes idle, and says so by
    /// `current-ao` becoming unavailable).
    func outputClosed(engine: MPVEngine) -> Bool
}

/// A change of an observed libmpv property that a clock may follow.
enum LibmpvReport: Sendable, Equatable {
    /// `pause`.
    case pause(Bool)
    /// `time-pos`, in seconds.
    case timePos(Double)
    /// `eof-reached`.
    case eofReached(Bool)
}
