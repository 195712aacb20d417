import NotiplayCore
package import NotiplayViews

/// A notification's first audio attachment as the default card plays and shows it: a
/// ``MediaPlayer`` for the file, and two rows — the attachment's name (indented past the media
/// button) and a progress bar with the position and duration.
///
/// ``DefaultContentExtension`` is made of it, and so is any built-in card that plays its sound
/// the same way: the card forwards ``UNNotificationContentExtension/didReceive(_:)``,
/// `mediaPlay()` and `mediaPause()` here, puts ``rows`` at the top of its view (where the button's
/// frame, ``buttonFrame``, is) and redraws on ``onChange``. What the player does is reported to
/// the owner's ``NSExtensionContext``.
@MainActor
package final class AudioAttachmentRows {
    /// Where the `.default` button goes: the first two cells of the name row.
    package static let buttonFrame = Rect(x: 0, y: 0, width: 2, height: 1)

    /// The player, once a notification with an audio attachment was received.
    package private(set) var player: MediaPlayer?
    /// The two rows, or none without audio.
    package private(set) var rows: [any ViewElement] = []
    /// Called when ``rows`` may have changed: after each ``receive(_:)``, and as the position
    /// moves (only when what the rows show changes).
    package var onChange: (@MainActor () -> Void)?

    /// The extension whose context hears of playing and pausing.
    private weak var owner: TerminalViewController?
    private var attachmentName = ""
    private var shown: Shown?

    /// Rows for the extension `owner`; nothing until ``receive(_:)``.
    package init(owner: TerminalViewController) {
        self.owner = owner
    }

    /// `.default` with audio, `.none` without.
    package var buttonType: UNNotificationContentExtensionMediaPlayPauseButtonType {
        player == nil ? .none : .default
    }

    /// Takes `notification`'s first audio attachment: a new player when its file is another
    /// (the old one paused), the same player otherwise. Call it from
    /// ``UNNotificationContentExtension/didReceive(_:)``, so that the player belongs to the card.
    package func receive(_ notification: UNNotification) {
        let audio = notification.request.content.attachments.first { $0.audioFile != nil }
        if let audio, let file = audio.audioFile, player?.file != file {
            player?.pause()
            let player = MediaPlayer(file: file)
            player.onStart = { [weak self] in self?.owner?.extensionContext?.mediaPlayingStarted() }
            player.onPause = { [weak self] in self?.owner?.extensionContext?.mediaPlayingPaused() }
            player.onPosition = { [weak self] _ in self?.update(always: false) }
            player.onFinish = { [weak self] in
                self?.owner?.extensionContext?.mediaPlayingPaused()
                self?.update(always: false)
            }
            // A file that cannot be played (the `playback` `error` event says why) stops too:
            // the button goes back to ▶.
            player.onError = { [weak self] _ in self?.owner?.extensionContext?.mediaPlayingPaused() }
            self.player = player
            // A fetched file is cached under a hashed name; its identifier keeps the name it had.
            attachmentName = audio.identifier.isEmpty ? audio.displayName : TerminalText.clean(audio.identifier)
        }
        update(always: true)
    }

    /// Starts the media (the runtime's `mediaPlay()`).
    package func play() {
        player?.play()
    }

    /// Pauses the media (the runtime's `mediaPause()`).
    package func pause() {
        player?.pause()
    }

    /// Makes the rows again; tells ``onChange`` when they changed, or `always`.
    private func update(always: Bool) {
        guard let player else {
            shown = nil
            rows = []
            onChange?()
            return
        }
        let time = "\(Self.clock(player.position)) / \(player.duration.map(Self.clock) ?? "–:––")"
        let progress = player.duration.map { $0 > 0 ? player.position / $0 : 0 } ?? 0
        // Position updates come ten times a second; the rows change only when what they show does
        // (the clock, or the bar by a step finer than any terminal's width).
        let shown = Shown(name: attachmentName, time: time, step: Int((progress * 1000).rounded(.down)))
        guard always || shown != self.shown else { return }
        self.shown = shown
        rows = [
            Label("   " + attachmentName),
            ProgressBar(value: Double(shown.step) / 1000, style: CellStyle(foreground: .systemTint), label: time),
        ]
        onChange?()
    }

    private struct Shown: Equatable {
        var name: String
        var time: String
        var step: Int
    }

    /// `m:ss` for a number of seconds.
    static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.isFinite ? seconds.rounded(.down) : 0))
        let rest = s % 60
        return "\(s / 60):\(rest < 10 ? "0" : "")\(rest)"
    }
}
