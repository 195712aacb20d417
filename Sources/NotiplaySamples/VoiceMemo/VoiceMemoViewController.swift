public import Notiplay

/// A voice memo: who sent it, the recording's position and duration as a bar, and the runtime's
/// `.default` play/pause button (always visible, ▶/⏸) at the start of the first row. The audio is
/// the notification's first audio attachment — in `Samples/VoiceMemo/voice-memo.apns` the payload's
/// `media-url`, which the built-in service extension fetches — played with ``MediaPlayer``.
///
/// The extension reports what the audio really does through its context: ``NSExtensionContext/mediaPlayingStarted()``
/// when it starts, ``NSExtensionContext/mediaPlayingPaused()`` when it pauses, ends or fails, so
/// the button shows ▶ again at the end of the memo.
///
/// Payload keys: `sender` (a short string; "Voice memo" otherwise) and `duration` (seconds, shown
/// until the player knows the real one). Without an audio attachment the card says so and has no
/// button. It handles no actions: they all go on to the app.
public final class VoiceMemoViewController: TerminalViewController, UNNotificationContentExtension {
    private(set) var player: MediaPlayer?
    private var sender = ""
    private var fileName = ""
    private var announcedDuration: Double?
    private var state = PlaybackPhase.ready

    /// `.default` while there is a recording to play.
    public var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType {
        player == nil ? .none : .default
    }

    /// The first two cells of the first row.
    public var mediaPlayPauseButtonFrame: CGRect { CGRect(cells: Rect(x: 0, y: 0, width: 2, height: 1)) }

    /// Green, like a phone's voicemail button.
    public var mediaPlayPauseButtonTintColor: UIColor { .systemGreen }

    /// Shows the notification (called on presentation and for each new notification of the thread).
    public func didReceive(_ notification: UNNotification) {
        let content = notification.request.content
        switch PayloadField.string(content.jsonUserInfo, "sender", limit: 60) {
        case .success(let name): sender = name
        case .failure: sender = "Voice memo"
        }
        if case .success(let seconds) = PayloadField.number(content.jsonUserInfo, "duration", in: 0.001...86_400) {
            announcedDuration = seconds
        } else {
            announcedDuration = nil
        }
        let audio = content.attachments.first { $0.audioFile != nil }
        if let audio, let file = audio.audioFile {
            if player?.file != file {
                player?.pause()
                player = makePlayer(file)
                state = .ready
            }
            fileName = audio.identifier.isEmpty ? audio.displayName : audio.identifier
        } else {
            player?.pause()
            player = nil
            fileName = ""
        }
        redraw(force: true)
    }

    /// Plays the attachment (called by the runtime when the button is activated).
    public func mediaPlay() {
        player?.play()
    }

    /// Pauses the attachment (called by the runtime when the button is activated).
    public func mediaPause() {
        player?.pause()
    }

    private func makePlayer(_ file: AudioFile) -> MediaPlayer {
        MediaPlayer.reporting(file, to: self) { [weak self] phase in
            if let phase { self?.state = phase }
            self?.redraw()
        }
    }

    // MARK: The view

    private struct Shown: Equatable {
        var time: String
        var step: Int
        var status: String
    }

    private var shown: Shown?

    /// Redraws when what is shown changes (the clock, the bar by a step, the status line), not on
    /// every position update.
    private func redraw(force: Bool = false) {
        guard let player else {
            shown = nil
            view.elements = [
                Label("   " + sender, style: .bold),
                Label("No recording attached to this memo.", style: CellStyle(foreground: .yellow)),
            ]
            preferredContentSize = CGSize(rows: 2)
            return
        }
        let duration = player.duration ?? announcedDuration
        let position = state == .ended ? (duration ?? player.position) : player.position
        let time = "\(clockText(position)) / \(duration.map(clockText) ?? "–:––")"
        let progress = duration.map { $0 > 0 ? position / $0 : 0 } ?? 0
        let status: String =
            switch state {
            case .ready: "Press space to listen."
            case .playing: "Playing…"
            case .paused: "Paused."
            case .ended: "Played to the end. Press space to hear it again."
            case .failed(let message): "Cannot play it: \(message)"
            }
        let now = Shown(time: time, step: Int((min(1, max(0, progress)) * 1000).rounded(.down)), status: status)
        guard force || now != shown else { return }
        shown = now
        view.elements = [
            Label("   " + sender, style: .bold) + Label(fileName.isEmpty ? "" : "  " + fileName, style: .dim),
            ProgressBar(value: Double(now.step) / 1000, style: CellStyle(foreground: .green), label: time),
            Label(status, style: .dim),
        ]
        preferredContentSize = CGSize(rows: 3)
    }
}
