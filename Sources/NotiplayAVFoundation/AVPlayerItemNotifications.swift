public import Foundation

extension NSNotification.Name {
    /// Posted on `NotificationCenter.default` when an ``AVPlayerItem`` played to its end; the
    /// notification's `object` is the item (Apple: `AVPlayerItemDidPlayToEndTime`).
    ///
    /// It is posted just after the engine reported the end, once the player's ``AVPlayer/rate``
    /// went to 0, so an observer may `seek(to: .zero)` and `play()` again. Observe it with a block
    /// (there is no `#selector` on Linux): with `queue: nil` or `queue: .main`, the block runs on
    /// the main queue, on the main actor, in the scope of the card (a player made in it plays
    /// through the card):
    ///
    /// ```swift
    /// endObserver = NotificationCenter.default.addObserver(
    ///     forName: .AVPlayerItemDidPlayToEndTime, object: item, queue: nil
    /// ) { [weak self] _ in
    ///     MainActor.assumeIsolated { self?.extensionContext?.mediaPlayingPaused() }
    /// }
    /// ```
    public static let AVPlayerItemDidPlayToEndTime = NSNotification.Name("AVPlayerItemDidPlayToEndTimeNotification")

    /// Posted on `NotificationCenter.default` when an ``AVPlayerItem`` could not be played to its
    /// end; the `object` is the item, and `userInfo[AVPlayerItemFailedToPlayToEndTimeErrorKey]`
    /// the error (Apple: `AVPlayerItemFailedToPlayToEndTime`).
    public static let AVPlayerItemFailedToPlayToEndTime = NSNotification.Name(
        "AVPlayerItemFailedToPlayToEndTimeNotification")
}

/// The key of the error in the `userInfo` of an ``NSNotification/Name/AVPlayerItemFailedToPlayToEndTime``
/// notification.
public let AVPlayerItemFailedToPlayToEndTimeErrorKey = "AVPlayerItemFailedToPlayToEndTimeErrorKey"
