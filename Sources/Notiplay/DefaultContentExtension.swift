import NotiplayCore
import NotiplayViews
/// The built-in card for notifications no extension claims: the title, subtitle and body (drawn
/// by the card as default content), the actions, and for the first audio attachment a `.default`
/// play button with position and duration. It is an extension like any other and emits the same
/// events.
public final class DefaultContentExtension: TerminalViewController, UNNotificationContentExtensionMediaControl {
    /// The name it is registered under.
    public nonisolated static let typeName = "DefaultContentExtension"

    private(set) var player: MediaPlayer?
    private var attachmentName = ""

    public var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType {
        player == nil ? .none : .default
    }

    public var mediaPlayPauseButtonFrame: Rect { Rect(x: 0, y: 0, width: 2, height: 1) }

    public func didReceive(_ notification: UNNotification) {
        let audio = notification.request.content.attachments.first { $0.audioFile != nil }
        if let audio, let file = audio.audioFile, player?.file != file {
            player?.pause()
            let player = MediaPlayer(file: file)
            player.onStart = { [weak self] in self?.extensionContext?.mediaPlayingStarted() }
            player.onPause = { [weak self] in self?.extensionContext?.mediaPlayingPaused() }
            player.onPosition = { [weak self] _ in self?.redraw() }
            player.onFinish = { [weak self] in
                self?.extensionContext?.mediaPlayingPaused()
                self?.redraw()
            }
            self.player = player
            // A fetched file is cached under a hashed name; its identifier keeps the name it had.
            attachmentName = audio.identifier.isEmpty ? audio.displayName : TerminalText.clean(audio.identifier)
        }
        redraw()
    }

    public func mediaPlay() {
        player?.play()
    }

    public func mediaPause() {
        player?.pause()
    }

    func redraw() {
        guard let player else {
            shown = nil
            view.lines = []
            return
        }
        let time = "\(Self.clock(player.position)) / \(player.duration.map(Self.clock) ?? "–:––")"
        let progress = player.duration.map { $0 > 0 ? player.position / $0 : 0 } ?? 0
        // Position updates come ten times a second; the view changes only when what it shows does
        // (the clock, or the bar by a step finer than any terminal's width).
        let shown = Shown(name: attachmentName, time: time, step: Int((progress * 1000).rounded(.down)))
        guard shown != self.shown else { return }
        self.shown = shown
        view.elements = [
            Label("   " + attachmentName),
            ProgressBar(value: Double(shown.step) / 1000, style: CellStyle(foreground: .systemTint), label: time),
        ]
    }

    private struct Shown: Equatable {
        var name: String
        var time: String
        var step: Int
    }

    private var shown: Shown?

    /// `m:ss` for a number of seconds.
    static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.isFinite ? seconds.rounded(.down) : 0))
        let rest = s % 60
        return "\(s / 60):\(rest < 10 ? "0" : "")\(rest)"
    }
}
