import NotiplayCore
import NotiplayViews
import NotiplayPlayback

/// Plays an audio attachment for an extension, in a line or two, as AVPlayer does on iOS.
///
/// ```swift
/// lazy var player = MediaPlayer(attachment: attachment)
/// func mediaPlay() { player?.play() }
/// func mediaPause() { player?.pause() }
/// // in didReceive: player.onFinish = { [weak self] in self?.extensionContext?.mediaPlayingPaused() }
/// ```
///
/// It plays through the engine (libmpv) of the card it was made for — made while the runtime calls
/// the extension, as in `didReceive(_:)` or `mediaPlay()` — and commands run in the order given.
/// Once its card is dismissed or replaced, its commands are ignored: a closed card stays silent
/// (``isCardShown`` tells).
@MainActor
public final class MediaPlayer {
    /// The file played.
    public let file: AudioFile
    /// Whether audio is being rendered.
    public private(set) var isPlaying = false
    /// The last known position, in seconds.
    public private(set) var position = 0.0
    /// The duration, once known.
    public private(set) var duration: Double?
    /// Called when audio starts (after `play()`).
    public var onStart: (@MainActor () -> Void)?
    /// Called when audio pauses (after `pause()`).
    public var onPause: (@MainActor () -> Void)?
    /// Called when the audio played to its end.
    public var onFinish: (@MainActor () -> Void)?
    /// Called as the position moves while playing (four times a second), and after a seek.
    public var onPosition: (@MainActor (Double) -> Void)?
    /// Called with a message when the file cannot be played.
    public var onError: (@MainActor (String) -> Void)?
    /// The volume, from 0 (silent) to 1 (as decoded, the default), on a linear scale of amplitude
    /// (0.5 renders half the amplitude); values outside are clamped, NaN is 1. It applies at once
    /// to what plays, and to each load of the file.
    public var volume = 1.0 {
        didSet {
            volume = volume.isNaN ? 1 : min(max(volume, 0), 1)
            guard volume != oldValue, isLoaded else { return }
            enqueue { lease, engine in
                guard !self.finished, lease.hasLoaded(self) else { return }
                try await engine.setVolume(PlaybackOptions.volume(forGain: self.volume))
            }
        }
    }

    /// Whether its commands reach an engine: it was made for a card, and that card is still shown.
    /// `false` for a player made outside a presentation, and once its card is dismissed or replaced.
    public var isCardShown: Bool {
        guard let lease else { return false }
        return !lease.isRevoked && lease.engine != nil
    }

    private var finished = false
    /// Where the next load starts, when a seek asked for it while nothing of this player was loaded.
    private var start: Double?
    /// Seeks asked for and not yet done by the engine: positions libmpv reports meanwhile are from
    /// before them, and would take ``position`` back (so that a second → counted from there).
    private var seeksUnderWay = 0
    /// The last command given.
    private var queue: Task<Void, Never>?
    /// The scope of the card it was made for, if it was made for one.
    private let scope: PresentationScope?
    /// What it plays through: the lease of the card it was made for, if it was made for one.
    private var lease: EngineLease? { scope?.lease }

    /// A player for an audio attachment, or `nil` if the attachment is not audio.
    public convenience init?(attachment: UNNotificationAttachment) {
        guard let file = attachment.audioFile else { return nil }
        self.init(file: file)
    }

    /// A player for a validated audio file. Made while the runtime calls the extension (or in a
    /// `Task` started then), it plays through the card being presented; made anywhere else, it
    /// reports through ``onError`` that no presentation is running.
    public init(file: AudioFile) {
        self.file = file
        scope = PresentationScope.current
    }

    /// Runs `body` in the scope of the card the player was made for, as when the runtime calls the
    /// extension for it: a player made in `body` plays through the same card. Without a card, it
    /// runs `body` as it is. For code that calls extension code later on the main actor (the
    /// AVFoundation notifications), outside the runtime's own calls.
    package func withCardScope<R>(_ body: () throws -> R) rethrows -> R {
        guard let scope else { return try body() }
        return try scope.bind(body)
    }

    /// Starts or resumes playback: from the start again after the end, or from where a ``seek(to:)``
    /// asked for meanwhile.
    public func play() {
        // Decided now, so that a seek asked for before the load runs (→ pressed as the card
        // starts) is kept for the file; the command decides again when it runs.
        let loads = finished || lease?.hasLoaded(self) != true
        var from: Double?
        if loads {
            from = start
            start = nil
            position = from ?? 0
            lease?.loadQueued(by: self)
        }
        enqueue(finally: { if loads { self.lease?.loadDone(by: self) } }) { lease, engine in
            if self.finished || !lease.hasLoaded(self) {
                self.finished = false
                let options = PlaybackOptions(start: from, volume: PlaybackOptions.volume(forGain: self.volume))
                await lease.load(self.file, options: options, for: self)
            } else {
                try await engine.play()
            }
        }
    }

    /// Pauses playback.
    public func pause() {
        enqueue { lease, engine in
            guard !self.finished, lease.hasLoaded(self) else { return }
            try await engine.pause()
        }
    }

    /// Moves to `seconds` from the start; ``position`` says so at once. When the file is not loaded
    /// (before the first ``play()``, or after the end) the next ``play()`` starts there.
    public func seek(to seconds: Double) {
        guard isLoaded else {
            start = max(0, seconds.isFinite ? seconds : 0)
            position = start ?? 0
            onPosition?(position)
            return
        }
        position = seconds
        onPosition?(seconds)
        seeksUnderWay += 1
        enqueue(finally: { self.seeksUnderWay -= 1 }) { lease, engine in
            guard lease.hasLoaded(self) else { return }
            try await engine.seek(to: seconds)
        }
    }

    /// Runs `command` after the commands given before it (through the card's lease, after those of
    /// every player of the card), then `finally` whether it ran or not.
    private func enqueue(
        finally: (@MainActor () -> Void)? = nil,
        _ command: @escaping @MainActor (EngineLease, any PlaybackEngine) async throws -> Void
    ) {
        let lease = self.lease
        let run: @MainActor () async -> Void = {
            defer { finally?() }
            guard let lease, let engine = lease.engine else {
                self.onError?("no presentation is running: a MediaPlayer plays through the presenting session")
                return
            }
            // Checked when the command runs: a card closed before that never plays again.
            guard !lease.isRevoked else { return }
            do {
                try await command(lease, engine)
            } catch {
                self.onError?("\(error)")
            }
        }
        if let lease {
            queue = lease.enqueue(run)
        } else {
            let previous = queue
            queue = Task { @MainActor in
                await previous?.value
                await run()
            }
        }
    }

    /// Whether its file is the one loaded, and not played to its end, or about to be loaded.
    var isLoaded: Bool {
        guard let lease else { return false }
        return lease.loadingPlayer === self || (!finished && lease.hasLoaded(self))
    }

    /// Waits until every command given so far was sent to the engine.
    public func settle() async {
        await queue?.value
    }

    func handle(_ kind: PlaybackEvent.Kind) {
        switch kind {
        case .loaded(let d): duration = d ?? duration
        case .duration(let d): duration = d
        case .position(let p):
            guard seeksUnderWay == 0 else { return }
            position = p
            onPosition?(p)
        case .started(let p):
            // With seeks still to run, the position they set stands.
            if seeksUnderWay == 0 { position = p }
            isPlaying = true
            onStart?()
        case .paused(let p):
            if seeksUnderWay == 0 { position = p }
            guard isPlaying else { return }
            isPlaying = false
            onPause?()
        case .ended(let reason):
            isPlaying = false
            finished = true
            switch reason {
            case .endOfFile:
                position = duration ?? position
                onFinish?()
            case .truncated(let reached):
                // Its audio ran out early: the position stays where it stopped.
                position = reached
                onFinish?()
            case .stopped: onPause?()
            case .failed(let failure): onError?(failure.message)
            }
        case .error, .outputFallback: break
        }
    }
}
