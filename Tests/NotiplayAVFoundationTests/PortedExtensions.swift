import Foundation
import Notiplay
import NotiplayAVFoundation

// Extensions written as they are on iOS with AVFoundation, `import NotiplayAVFoundation` in its
// place: what the tests present.

/// Plays its first attachment with an ``AVAudioPlayer`` made in `mediaPlay()`, and reports the
/// end through its delegate.
final class MemoExtension: TerminalViewController, UNNotificationContentExtension, AVAudioPlayerDelegate {
    let mediaPlayPauseButtonType = UNNotificationContentExtensionMediaPlayPauseButtonType.default
    let mediaPlayPauseButtonFrame = CGRect(cells: Rect(x: 0, y: 0, width: 2, height: 1))

    private var attachment: UNNotificationAttachment?
    private(set) var player: AVAudioPlayer?
    /// What `play()` returned, each time.
    private(set) var plays: [Bool] = []
    /// The `successfully` flags the delegate was given.
    private(set) var finishes: [Bool] = []
    /// The errors the delegate was given.
    private(set) var decodeErrors: [String] = []
    /// Set before the first `mediaPlay()`: the player's volume, start and loops.
    var volume: Float?
    var startTime: TimeInterval?
    var loops = 0

    func didReceive(_ notification: UNNotification) {
        attachment = notification.request.content.attachments.first
    }

    func mediaPlay() {
        guard let attachment else { return }
        if player == nil {
            do {
                let player = try AVAudioPlayer(contentsOf: attachment.url)
                player.delegate = self
                player.numberOfLoops = loops
                if let volume { player.volume = volume }
                if let startTime { player.currentTime = startTime }
                self.player = player
            } catch {
                decodeErrors.append(error.localizedDescription)
                return
            }
        }
        let started = player?.play() ?? false
        plays.append(started)
        if started { extensionContext?.mediaPlayingStarted() }
    }

    func mediaPause() {
        player?.pause()
        extensionContext?.mediaPlayingPaused()
    }

    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) {
        finishes.append(flag)
        extensionContext?.mediaPlayingPaused()
    }

    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) {
        decodeErrors.append(error.map { "\($0)" } ?? "no error")
    }
}

/// Makes an ``AVPlayer`` of an ``AVPlayerItem`` in `didReceive(_:)`: the file named by the
/// notification's body when it is a URL, else its first attachment; a new notification of the
/// thread replaces the player's item. `mediaPlay()` and `mediaPause()` play and pause it.
final class ItemPlayerExtension: TerminalViewController, UNNotificationContentExtension {
    let mediaPlayPauseButtonType = UNNotificationContentExtensionMediaPlayPauseButtonType.default
    let mediaPlayPauseButtonFrame = CGRect(cells: Rect(x: 0, y: 0, width: 2, height: 1))

    private(set) var player: AVPlayer?
    private(set) var item: AVPlayerItem?

    func didReceive(_ notification: UNNotification) {
        let content = notification.request.content
        guard let url = content.body.contains("://") ? URL(string: content.body) : content.attachments.first?.url
        else { return }
        let item = AVPlayerItem(url: url)
        self.item = item
        if let player {
            player.replaceCurrentItem(with: item)
        } else {
            player = AVPlayer(playerItem: item)
        }
    }

    func mediaPlay() {
        player?.play()
        extensionContext?.mediaPlayingStarted()
    }

    func mediaPause() {
        player?.pause()
        extensionContext?.mediaPlayingPaused()
    }
}
