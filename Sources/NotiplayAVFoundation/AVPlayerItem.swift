public import Foundation
import Notiplay
import NotiplayCore

/// The units of the times this module hands out: nanoseconds.
let mediaTimescale: CMTimeScale = 1_000_000_000

/// One audio file as an ``AVPlayer`` plays it, with its own position and status (Apple:
/// AVFoundation's `AVPlayerItem`).
///
/// The file is validated when the item is made, as attachments are: a `file:` URL naming a
/// regular local file whose first bytes are audio notiplay plays. An item that passed is
/// ``Status-swift.enum/readyToPlay``; one that did not is ``Status-swift.enum/failed``, with the
/// reason in ``error``, and a player given it plays nothing. An item plays through the libmpv
/// engine of the card being presented when it is made (made while the runtime calls the
/// extension), as a `MediaPlayer`, which it is built on, does.
@MainActor
public final class AVPlayerItem {
    /// Whether an item can be played (Apple: `AVPlayerItem.Status`).
    public enum Status: Int, Sendable {
        /// Not used here: an item is checked when it is made.
        case unknown
        /// The file passed validation.
        case readyToPlay
        /// The file failed validation, or could not be played; ``AVPlayerItem/error`` says why.
        case failed
    }

    /// The asset the item plays.
    public let asset: AVAsset
    /// Whether it can be played.
    public private(set) var status: Status
    /// Why it failed, when ``status`` is ``Status-swift.enum/failed``: a ``NotiplayError``.
    public private(set) var error: (any Error)?

    /// The name of the notification posted when an item played to its end (Apple's newer
    /// spelling of ``NSNotification/Name/AVPlayerItemDidPlayToEndTime``).
    public static let didPlayToEndTimeNotification = NSNotification.Name.AVPlayerItemDidPlayToEndTime
    /// The name of the notification posted when an item could not be played to its end
    /// (``NSNotification/Name/AVPlayerItemFailedToPlayToEndTime``).
    public static let failedToPlayToEndTimeNotification = NSNotification.Name.AVPlayerItemFailedToPlayToEndTime

    /// What plays the file: `nil` when it failed validation.
    let media: MediaPlayer?
    /// The player whose current item it is.
    weak var player: AVPlayer?
    /// Whether it played to its end and was not moved since: playing it again needs a seek first.
    private(set) var isAtEnd = false

    /// An item for the audio file at `url`.
    public convenience init(url: URL) {
        self.init(asset: AVURLAsset(url: url))
    }

    /// An item for `asset`'s file.
    public init(asset: AVAsset) {
        self.asset = asset
        do {
            media = MediaPlayer(file: try LocalAudioURL.validate(asset.location))
            status = .readyToPlay
        } catch {
            media = nil
            status = .failed
            self.error = error
        }
        media?.onFinish = { [weak self] in self?.playedToEnd() }
        media?.onError = { [weak self] message in self?.failedToPlay(message) }
    }

    /// The duration: ``CMTime/indefinite`` until the engine has opened the file (after the first
    /// play), and for an item that failed.
    public var duration: CMTime {
        guard let seconds = media?.duration else { return .indefinite }
        return CMTime(seconds: seconds, preferredTimescale: mediaTimescale)
    }

    /// The position: where it plays, or where it will play from; its ``duration`` after the end.
    public func currentTime() -> CMTime {
        CMTime(seconds: media?.position ?? 0, preferredTimescale: mediaTimescale)
    }

    // MARK: For the player

    /// Moves to `seconds` (clamped to the file once its duration is known).
    func seek(to seconds: Double) {
        guard let media else { return }
        var target = max(0, seconds)
        if let duration = media.duration { target = min(target, duration) }
        isAtEnd = false
        media.seek(to: target)
    }

    /// Waits until every command given to the file so far reached the engine (a seek: done).
    func settle() async {
        await media?.settle()
    }

    // MARK: What the engine reported

    private func playedToEnd() {
        isAtEnd = true
        player?.itemPlayedToEnd(self)
        post(.AVPlayerItemDidPlayToEndTime)
    }

    private func failedToPlay(_ message: String) {
        // A command the engine refused while the file plays on stops nothing.
        guard let media, !media.isPlaying else { return }
        let error = NotiplayError(.badData, file: Self.name(asset.location), message)
        status = .failed
        self.error = error
        player?.itemFailed(self)
        post(.AVPlayerItemFailedToPlayToEndTime, error: error)
    }

    /// Posts `name` on `NotificationCenter.default` with the item as its object (and `error` in
    /// its `userInfo`), from an operation of `OperationQueue.main`, in the card's scope.
    ///
    /// Not at once: Foundation on Linux runs the block of an observer of another queue than the
    /// current one by adding it to that queue and waiting for it, and the main actor runs on the
    /// main queue without it being the current `OperationQueue`; so a post from the main actor to
    /// an observer of `queue: .main` would wait for itself forever. Inside an operation of the
    /// main queue, observers of `nil` and of `.main` both run at once, on the main actor.
    private func post(_ name: NSNotification.Name, error: NotiplayError? = nil) {
        OperationQueue.main.addOperation { [self] in
            MainActor.assumeIsolated {
                let userInfo = error.map { [AVPlayerItemFailedToPlayToEndTimeErrorKey: $0] as [AnyHashable: Any] }
                let post = { NotificationCenter.default.post(name: name, object: self, userInfo: userInfo) }
                if let media { media.withCardScope(post) } else { post() }
            }
        }
    }

    /// The file's path, or the URL when it is not a file URL.
    private static func name(_ url: URL) -> String {
        url.isFileURL ? url.path : url.absoluteString
    }
}
