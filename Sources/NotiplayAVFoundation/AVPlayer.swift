public import Foundation
import Notiplay

/// Plays an ``AVPlayerItem`` through the card's engine (Apple: AVFoundation's `AVPlayer`).
///
/// ```swift
/// let player = AVPlayer(url: attachment.url)
/// player.play()                                   // rate 1
/// player.seek(to: CMTime(seconds: 2, preferredTimescale: 600))
/// player.pause()                                  // rate 0
/// ```
///
/// It plays local audio files only, at normal speed: a ``rate`` above 0 plays, 0 pauses. At the
/// end of its item it pauses (``rate`` 0, as Apple's `actionAtItemEnd` `.pause`) and the item posts
/// ``NSNotification/Name/AVPlayerItemDidPlayToEndTime``; as on iOS, the item stays at its end
/// until a seek, so ``play()`` there does nothing: `seek(to: .zero)` first to play it again.
@MainActor
public final class AVPlayer {
    /// Whether the player is playing, paused, or waiting for its item to start (Apple:
    /// `AVPlayer.TimeControlStatus`).
    public enum TimeControlStatus: Int, Sendable {
        /// Paused: ``AVPlayer/rate`` is 0.
        case paused
        /// Asked to play, and the engine has not started yet (or cannot: no item, an item that
        /// failed).
        case waitingToPlayAtSpecifiedRate
        /// Audio is being rendered.
        case playing
    }

    /// The item it plays, if any.
    public private(set) var currentItem: AVPlayerItem?
    /// Whether it was asked to play and has not paused since.
    private var wantsToPlay = false
    /// Counts seeks, so that a seek's completion handler knows whether a later one replaced it.
    private var seeks = 0

    /// A player with no item.
    public init() {}

    /// A player of the audio file at `url` (an ``AVPlayerItem`` made of it).
    public convenience init(url: URL) {
        self.init(playerItem: AVPlayerItem(url: url))
    }

    /// A player of `item`.
    public init(playerItem item: AVPlayerItem?) {
        replaceCurrentItem(with: item)
    }

    /// The speed asked for: 1 while playing, 0 while paused. Setting a value above 0 plays (at
    /// normal speed: the rate then reads 1), 0 or below pauses.
    public var rate: Float {
        get { wantsToPlay ? 1 : 0 }
        set { if newValue > 0 { play() } else { pause() } }
    }

    /// Whether audio is being rendered, or the player waits for it.
    public var timeControlStatus: TimeControlStatus {
        guard wantsToPlay else { return .paused }
        return currentItem?.media?.isPlaying == true ? .playing : .waitingToPlayAtSpecifiedRate
    }

    /// The volume, from 0 (silent) to 1 (full, the default), on a linear scale of amplitude;
    /// values outside are clamped. It applies at once, to every item the player plays.
    public var volume: Float = 1 {
        didSet {
            volume = volume.isNaN ? 1 : min(max(volume, 0), 1)
            applyVolume()
        }
    }

    /// Whether the audio is muted (the ``volume`` is kept for when it is not).
    public var isMuted = false {
        didSet { applyVolume() }
    }

    /// Plays `item` in place of the current item, which stops; a player that is playing plays
    /// the new item at once. An item another player plays leaves that player.
    public func replaceCurrentItem(with item: AVPlayerItem?) {
        guard item !== currentItem else { return }
        if let old = currentItem {
            // A new file that plays takes the old one's place in the engine; otherwise it pauses.
            let replaced = wantsToPlay && item?.media != nil && item?.isAtEnd != true
            if wantsToPlay, !replaced, let media = old.media, media.isCardShown { media.pause() }
            old.player = nil
        }
        if let other = item?.player, other !== self { other.currentItem = nil }
        item?.player = self
        currentItem = item
        applyVolume()
        if wantsToPlay { startItem() }
    }

    /// Plays the current item from where it is (the same as setting ``rate`` to 1).
    public func play() {
        // At its end the item stays there: nothing plays until a seek (as on iOS).
        guard currentItem?.isAtEnd != true else { return }
        wantsToPlay = true
        startItem()
    }

    /// Pauses (the same as setting ``rate`` to 0).
    public func pause() {
        wantsToPlay = false
        guard let media = currentItem?.media, media.isCardShown else { return }
        media.pause()
    }

    /// The current item's position, or ``CMTime/zero`` without an item.
    public func currentTime() -> CMTime {
        currentItem?.currentTime() ?? .zero
    }

    /// Moves the current item to `time` (clamped to the file once its duration is known). The
    /// engine seeks exactly, always.
    public func seek(to time: CMTime) {
        seek(to: time, completion: nil)
    }

    /// Moves the current item to `time`, then calls `completionHandler` on the main actor: with
    /// `true` once the engine is there, `false` when a later seek or another item took its place
    /// or there was nothing to move (no item, a failed item, a time that is not a number).
    public func seek(to time: CMTime, completionHandler: @escaping @Sendable (Bool) -> Void) {
        seek(to: time, completion: completionHandler)
    }

    /// Moves the current item to `time`; the engine always seeks exactly, so the tolerances are
    /// not needed (they are accepted for code that gives them).
    public func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) {
        seek(to: time, completion: nil)
    }

    /// Moves the current item to `time` and calls `completionHandler`, as
    /// ``seek(to:completionHandler:)``; the tolerances are not needed.
    public func seek(
        to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime,
        completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        seek(to: time, completion: completionHandler)
    }

    // MARK: Inside

    private func seek(to time: CMTime, completion: (@Sendable (Bool) -> Void)?) {
        seeks += 1
        guard time.isNumeric, let item = currentItem, item.media != nil else {
            if let completion { Task { @MainActor in completion(false) } }
            return
        }
        item.seek(to: time.seconds)
        guard let completion else { return }
        let seek = seeks
        Task { @MainActor in
            await item.settle()
            completion(seek == self.seeks && item === self.currentItem)
        }
    }

    private func startItem() {
        guard let item = currentItem, !item.isAtEnd, let media = item.media else { return }
        media.play()
    }

    private func applyVolume() {
        currentItem?.media?.volume = isMuted ? 0 : Double(volume)
    }

    // MARK: What the item reported

    /// The item played to its end: the player pauses (the item posts its notification next).
    func itemPlayedToEnd(_ item: AVPlayerItem) {
        guard item === currentItem else { return }
        wantsToPlay = false
    }

    /// The item could not be played.
    func itemFailed(_ item: AVPlayerItem) {
        guard item === currentItem else { return }
        wantsToPlay = false
    }
}
