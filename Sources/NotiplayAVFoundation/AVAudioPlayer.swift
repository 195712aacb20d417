public import Foundation
import Notiplay
import NotiplayCore

/// Plays an audio file through the card's engine (Apple: AVFAudio's `AVAudioPlayer`).
///
/// ```swift
/// player = try AVAudioPlayer(contentsOf: attachment.url)
/// player?.delegate = self
/// player?.play()
/// ```
///
/// The file is validated when the player is made, as attachments are: a `file:` URL naming a
/// regular local file whose first bytes are audio notiplay plays. It plays through the libmpv
/// engine of the card being presented when the player is made — made while the runtime calls the
/// extension (`didReceive(_:)`, `mediaPlay()`, a delegate call or a `Task` started in one) — as a
/// `MediaPlayer` does, which it is built on. Once its card is dismissed or replaced it stays
/// silent, and ``play()`` returns `false`.
///
/// What differs from iOS: ``duration`` is 0 until the engine has opened the file (after the
/// first ``play()``); ``prepareToPlay()`` loads nothing; loops restart the file, so they are
/// not gapless.
@MainActor
public final class AVAudioPlayer {
    /// The file's URL, as given.
    public let url: URL?
    /// Told when the audio finishes or cannot be played. Held weakly.
    public weak var delegate: (any AVAudioPlayerDelegate)?
    /// How many times the audio plays again after the first time: 0 (the default) plays it once,
    /// 1 twice; a negative number loops until ``stop()`` or ``pause()``.
    public var numberOfLoops = 0
    /// Whether it is playing: `true` from a ``play()`` that returned `true` until ``pause()``,
    /// ``stop()``, the end or an error.
    public private(set) var isPlaying = false

    private let media: MediaPlayer
    /// Loops played since the last ``play()``.
    private var loopsPlayed = 0

    /// A player for the audio file at `url`.
    /// - Throws: a ``NotiplayError`` naming the URL or file when `url` is not a local `file:` URL,
    ///   names no file, a directory or another file that is not regular, or a file that is empty,
    ///   over 5 MB or not audio (its `localizedDescription` says which).
    public convenience init(contentsOf url: URL) throws {
        try self.init(contentsOf: url, fileTypeHint: nil)
    }

    /// A player for the audio file at `url`; the hint is ignored (the format is recognised from
    /// the file's content).
    /// - Throws: a ``NotiplayError``, as ``init(contentsOf:)``.
    public init(contentsOf url: URL, fileTypeHint utiString: String?) throws {
        let file = try LocalAudioURL.validate(url)
        self.url = url
        media = MediaPlayer(file: file)
        media.onFinish = { [weak self] in self?.finished() }
        media.onError = { [weak self] message in self?.failed(message) }
    }

    /// The position in seconds: where it plays, or where the next ``play()`` starts. Setting it
    /// moves there (clamped to 0…``duration`` once the duration is known); the end sets it to 0.
    public var currentTime: TimeInterval {
        get { media.position }
        set {
            var target = max(0, newValue.isFinite ? newValue : 0)
            if let duration = media.duration { target = min(target, duration) }
            media.seek(to: target)
        }
    }

    /// The file's duration in seconds: 0 until the engine has opened it.
    public var duration: TimeInterval { media.duration ?? 0 }

    /// The volume, from 0 (silent) to 1 (full, the default), on a linear scale of amplitude;
    /// values outside are clamped. It applies at once.
    public var volume: Float {
        get { Float(media.volume) }
        set { media.volume = Double(newValue) }
    }

    /// Whether it can play: `true` while the card it was made for is shown. Nothing is loaded
    /// ahead (libmpv opens files quickly).
    @discardableResult
    public func prepareToPlay() -> Bool {
        media.isCardShown
    }

    /// Starts or resumes playing from ``currentTime``.
    /// - Returns: `false`, doing nothing, when the player was made outside a presentation or its
    ///   card is gone.
    @discardableResult
    public func play() -> Bool {
        guard media.isCardShown else { return false }
        isPlaying = true
        media.play()
        return true
    }

    /// Pauses; ``play()`` resumes from here.
    public func pause() {
        isPlaying = false
        // Without a card there is nothing to pause (and nobody to tell that there is no card).
        if media.isCardShown { media.pause() }
    }

    /// Stops playing, loops included. As on iOS, ``currentTime`` stays where it stopped, so
    /// ``play()`` resumes from there.
    public func stop() {
        pause()
        loopsPlayed = 0
    }

    // MARK: What the engine reported

    private func finished() {
        if isPlaying, numberOfLoops < 0 || loopsPlayed < numberOfLoops {
            loopsPlayed += 1
            media.play()
            return
        }
        isPlaying = false
        loopsPlayed = 0
        media.seek(to: 0)
        delegate?.audioPlayerDidFinishPlaying(self, successfully: true)
    }

    private func failed(_ message: String) {
        let error = NotiplayError(.badData, file: url.map(Self.name), message)
        // A command the engine refused while the file plays on stops nothing.
        guard !media.isPlaying else {
            delegate?.audioPlayerDecodeErrorDidOccur(self, error: error)
            return
        }
        let wasPlaying = isPlaying
        isPlaying = false
        loopsPlayed = 0
        delegate?.audioPlayerDecodeErrorDidOccur(self, error: error)
        if wasPlaying { delegate?.audioPlayerDidFinishPlaying(self, successfully: false) }
    }

    /// The file's path, or the URL when it is not a file URL.
    private static func name(_ url: URL) -> String {
        url.isFileURL ? url.path : url.absoluteString
    }
}
