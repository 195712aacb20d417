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
/// It plays through the presenting session's engine (libmpv); commands run in the order given.
/// Once its card is dismissed or replaced, its commands are ignored: a closed card stays silent.
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

    var item: PlaybackItemID?
    private var finished = false
    /// Seeks asked for and not yet done by the engine: positions libmpv reports meanwhile are from
    /// before them, and would take ``position`` back (so that a second → counted from there).
    private var seeksUnderWay = 0
    private var queue: Task<Void, Never>?
    private weak var session: PresentationSession?
    /// The session's card it was made for.
    private let card: Int

    /// A player for an audio attachment, or `nil` if the attachment is not audio.
    public convenience init?(attachment: UNNotificationAttachment) {
        guard let file = attachment.audioFile else { return nil }
        self.init(file: file)
    }

    /// A player for a validated audio file.
    public init(file: AudioFile) {
        self.file = file
        self.session = PresentationSession.current
        card = session?.cardNumber ?? 0
    }

    /// Starts or resumes playback (from the start again after the end).
    public func play() {
        enqueue { engine in
            if self.item == nil || self.finished || self.session?.currentPlayer !== self {
                self.finished = false
                self.item = nil
                self.session?.currentPlayer = self
                let item = try await engine.load(self.file, options: PlaybackOptions())
                self.item = item
                // Events of the new file may have come before its id did.
                self.session?.playerLoaded(self)
            } else {
                try await engine.play()
            }
        }
    }

    /// Pauses playback.
    public func pause() {
        enqueue { engine in
            guard self.item != nil, !self.finished, self.session?.currentPlayer === self else { return }
            try await engine.pause()
        }
    }

    /// Moves to `seconds` from the start; ``position`` says so at once.
    public func seek(to seconds: Double) {
        if item != nil, !finished {
            position = seconds
            onPosition?(seconds)
        }
        seeksUnderWay += 1
        enqueue(finally: { self.seeksUnderWay -= 1 }) { engine in
            guard self.item != nil, self.session?.currentPlayer === self else { return }
            try await engine.seek(to: seconds)
        }
    }

    /// Runs `command` after the commands given before it, then `finally` whether it ran or not.
    private func enqueue(
        finally: (@MainActor () -> Void)? = nil, _ command: @escaping @MainActor (any PlaybackEngine) async throws -> Void
    ) {
        let previous = queue
        queue = Task { @MainActor in
            await previous?.value
            defer { finally?() }
            guard let session = self.session else {
                self.onError?("no presentation is running: a MediaPlayer plays through the presenting session")
                return
            }
            // Checked when the command runs: a card closed before that never plays again.
            guard session.isShowing(card: self.card) else { return }
            let engine = session.engine
            do {
                try await command(engine)
            } catch {
                self.onError?("\(error)")
            }
        }
    }

    func isFor(card number: Int) -> Bool { card == number }

    /// Whether a file is loaded and not played to its end.
    var isLoaded: Bool { item != nil && !finished }

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
            position = p
            isPlaying = true
            onStart?()
        case .paused(let p):
            position = p
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
            case .stopped: onPause?()
            case .failed(let failure): onError?(failure.message)
            }
        case .error, .outputFallback: break
        }
    }
}
