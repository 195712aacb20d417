internal import CMPV
import Dispatch
public import Logging
import NotiplayCore
import Synchronization

/// The playback engine: one libmpv handle, behind ``PlaybackEngine``.
///
/// libmpv runs with no config file, no scripts, no terminal output, no video, no ytdl, and with
/// the libavformat demuxer forced, so it never expands playlists, archives or references. It only
/// ever reads ``AudioFile`` values, which exist only after validation, and reads them through a
/// descriptor the engine opened and checked (``AudioFile/open()``, then `fd://N`): libmpv never
/// opens a path.
///
/// Threading: every libmpv call and every read or write of the mutable state happens on
/// ``queue``, a serial dispatch queue. The wakeup callback only schedules a drain on that queue.
/// That is what makes the `@unchecked Sendable` conformance true.
public final class MPVEngine: PlaybackEngine, @unchecked Sendable {
    /// The one queue that guards `handle` and `state`.
    let queue = DispatchQueue(label: "notiplay.mpv")
    /// libmpv's client API: `mpv.create()` calls `mpv_create`.
    let mpv: notiplay_mpv_functions
    /// The libmpv handle; `nil` after shutdown. Guarded by `queue`.
    var handle: OpaquePointer?
    /// What the engine knows of the current file. Guarded by `queue`.
    var state = State()
    /// The files handed to libmpv, by the entry that reads them, until libmpv is done with them:
    /// their `END_FILE` came, or a later entry started (libmpv never opens a replaced entry), or
    /// the handle was destroyed. Closing one sooner could let libmpv read a file opened later
    /// under the same descriptor number. Guarded by `queue`; outlives `state`'s resets.
    var openFiles: [PlaybackItemID: OpenAudioFile] = [:]
    /// Where audio goes.
    public let output: AudioOutput
    let logger: Logger
    /// Who keeps time for `output`: libmpv itself, or a paced capture whose positions and
    /// `ended` follow what it played. See <doc:PlayingAudio>.
    let outputClock: any OutputClock

    private let subscribers = Mutex<Subscribers>(Subscribers())
    private let captureFailureFound = Mutex<PlaybackFailure?>(nil)
    private let drainScheduled = Atomic<Bool>(false)
    private let wakeupBox: Unmanaged<WakeupBox>

    struct Subscribers {
        var next: UInt64 = 0
        var streams: [UInt64: AsyncStream<PlaybackEvent>.Continuation] = [:]
        var closed = false
    }

    /// The state of the current file, as the events told it; the same for every output (what only
    /// a paced capture needs is its clock's).
    struct State {
        /// The newest file handed to `loadfile`.
        var current: PlaybackItemID?
        /// `current` is loaded and has not ended.
        var active = false
        /// libmpv's `pause` property.
        var paused = false
        /// `PLAYBACK_RESTART` came for `current`: audio runs unless paused.
        var restarted = false
        /// A `started` event was sent and no `paused` or `ended` since.
        var playing = false
        /// The file that reached its end and whose audio is still draining.
        var draining: PlaybackItemID?
        /// How `draining` ended: at its end, or cut short while it played.
        var drainingReason = EndReason.endOfFile
        /// The last `time-pos` libmpv reported for `current` (every one, not only those sent).
        var lastPosition: Double?
        /// libmpv's `idle-active` property.
        var idle = true
        /// `idle-active` did not come within 3 s of the end of `draining`.
        var idleOverdue = false
        /// Where audio resumes after the next `PLAYBACK_RESTART`: the load's start or a seek target.
        /// Reading `time-pos` at that moment would be late in untimed runs.
        var restartPosition = 0.0
        /// A seek asked for before the file's first `PLAYBACK_RESTART`, sent when that comes.
        var deferredSeek: Double?
        /// Callers of `seek(to:)` waiting for the restart that completes their seek.
        var seekWaiters: [CheckedContinuation<Void, any Error>] = []
        var duration: Double?
        var loadedAnnounced = false
        var fallbackAnnounced = false
        /// When the last `position` event went out.
        var positionSent: ContinuousClock.Instant?
    }

    /// While audio plays, `position` events go out at most this often (libmpv reports a new
    /// position with every block of audio, 15 to 50 times a second; each event wakes every
    /// subscriber). While paused or seeking, every change goes out.
    public let positionInterval: Duration

    /// Creates a player with its own libmpv handle.
    /// - Parameters:
    ///   - output: Where rendered audio goes.
    ///   - logger: Receives libmpv's own messages (which never reach the terminal directly).
    ///   - positionInterval: The least time between two `position` events while audio plays
    ///     (default 250 ms).
    /// - Throws: ``LibmpvUnavailable`` if libmpv cannot be loaded (``Libmpv/load(_:)``, which
    ///   this calls), ``PlaybackFailure`` if it cannot create a player or refuses an option.
    public convenience init(
        output: AudioOutput, logger: Logger = Logger(label: "notiplay.playback"),
        positionInterval: Duration = .milliseconds(250)
    ) throws {
        try self.init(output: output, logger: logger, positionInterval: positionInterval, pacingClock: MonotonicPacingClock())
    }

    /// A player whose ``AudioOutput/pacedCapture(path:temporaryFolder:)`` paces itself by
    /// `pacingClock` (tests give it a clock that moves only when they move it).
    init(output: AudioOutput, logger: Logger, positionInterval: Duration, pacingClock: any PacingClock) throws {
        mpv = try Libmpv.load().functions
        self.output = output
        self.positionInterval = positionInterval
        self.logger = logger
        outputClock = try Self.makeClock(for: output, pacingClock: pacingClock)
        let box = WakeupBox()
        wakeupBox = Unmanaged.passRetained(box)
        do {
            try queue.sync { try self.start() }
        } catch {
            wakeupBox.release()
            outputClock.finish()
            throw error
        }
        box.engine = self
        if let handle {
            queue.sync { mpv.set_wakeup_callback(handle, mpvWakeup, wakeupBox.toOpaque()) }
        }
        outputClock.attach(to: self)
        // Events queued before the callback existed (initial property values) woke nobody.
        scheduleDrain()
    }

    deinit {
        // No queue work can be pending: every block on `queue` holds a strong reference.
        if let handle {
            mpv.set_wakeup_callback(handle, nil, nil)
            outputClock.releaseOutput()
            mpv.terminate_destroy(handle)
        }
        outputClock.finish()
        wakeupBox.release()
        finishSubscribers()
    }

    /// Seconds heard through ``AudioOutput/pacedCapture(path:temporaryFolder:)``; `nil` for other
    /// outputs.
    public var heardSeconds: Double? { outputClock.heardSeconds }

    /// The first failed write of the capture file (``AudioOutput/pcm(path:)``,
    /// ``AudioOutput/pacedCapture(path:temporaryFolder:)``) found so far: a full disk, an I/O
    /// error. It was reported as an `error` event and a failed end of the file it hit, and the
    /// file is checked once more at ``shutdown()`` (an engine-wide `error` event then). `nil` for
    /// other outputs, and while every write went well. Readable from any thread, at any time,
    /// also after shutdown: a command line turns it into a failing exit.
    public var captureFailure: PlaybackFailure? { captureFailureFound.withLock { $0 } }

    /// Keeps `failure` as ``captureFailure`` unless one was found before.
    func found(_ failure: PlaybackFailure) {
        captureFailureFound.withLock { if $0 == nil { $0 = failure } }
    }

    // MARK: Events out

    public func events() -> AsyncStream<PlaybackEvent> {
        let (stream, continuation) = AsyncStream<PlaybackEvent>.makeStream()
        let id: UInt64? = subscribers.withLock { subs in
            guard !subs.closed else { return nil }
            subs.next += 1
            subs.streams[subs.next] = continuation
            return subs.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `kind` to every subscriber.
    func emit(_ kind: PlaybackEvent.Kind, item: PlaybackItemID?) {
        let event = PlaybackEvent(item: item, kind)
        let streams = subscribers.withLock { Array($0.streams.values) }
        for stream in streams { stream.yield(event) }
    }

    func finishSubscribers() {
        let streams = subscribers.withLock { subs in
            subs.closed = true
            defer { subs.streams = [:] }
            return Array(subs.streams.values)
        }
        for stream in streams { stream.finish() }
    }

    // MARK: Wakeup

    /// Called from libmpv's thread: schedules one drain of the event queue.
    func scheduleDrain() {
        guard !drainScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async {
            self.drainScheduled.store(false, ordering: .releasing)
            self.drainEvents()
        }
    }
}

/// Holds the engine weakly for the C wakeup callback, whose context pointer must outlive it.
final class WakeupBox: @unchecked Sendable {
    // Written once, before the callback is installed; weak loads are atomic.
    weak var engine: MPVEngine?
}

/// libmpv's wakeup callback. It runs on a libmpv thread and must not call libmpv.
private func mpvWakeup(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<WakeupBox>.fromOpaque(context).takeUnretainedValue().engine?.scheduleDrain()
}
