public import NotiplayCore
public import Notiplay

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A sound preview (a new ringtone, say) with the runtime's `.overlay` button: a dim ▶ over the
/// level meter while paused, hidden while playing. Touching the content while it plays pauses
/// it — the runtime routes the touch to ``mediaPause()``, which pauses the player, and the player's
/// pause is reported back with ``NSExtensionContext/mediaPlayingPaused()``, so the ▶ shows again.
///
/// The meter is drawn from the audio itself: when the notification arrives, the WAV attachment's
/// samples are read once into a coarse RMS envelope (``LevelEnvelope``, 50 ms windows). The card
/// shows the whole clip's loudness on one row (the part played so far highlighted), a bar with the
/// level as playback moves — the loudest window heard since the previous position report
/// (``LevelMeter``) — and the position and duration. Another format plays as well, but
/// without a meter; a WAV that cannot be decoded says why.
///
/// Actions: `use` ("Use as ringtone") is handled here — the card stays (`.doNotDismiss`) and says
/// so; every other action goes on to the app (`.dismissAndForwardAction`).
public final class PreviewViewController: TerminalViewController, UNNotificationContentExtension
{
    /// The action that picks the sound.
    public nonisolated static let useIdentifier = "use"

    private(set) var player: MediaPlayer?
    /// The loudness of the attachment, when it is a WAV file that could be read.
    var envelope: LevelEnvelope? { meter?.envelope }
    /// The level meter over ``envelope``.
    private(set) var meter: LevelMeter?
    private var meterProblem = ""
    private var name = ""
    private var chosen = false
    private var state = PlaybackPhase.ready

    /// `.overlay` while there is a sound to play.
    public var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType {
        player == nil ? .none : .overlay
    }

    /// The meter: the first three rows, 40 columns (clipped on a narrower card), so the ▶ sits over
    /// the level bar.
    public var mediaPlayPauseButtonFrame: CGRect { CGRect(cells: Rect(x: 0, y: 0, width: 40, height: 3)) }

    /// Shows the notification (called on presentation and for each new notification of the thread).
    public func didReceive(_ notification: UNNotification) {
        let content = notification.request.content
        let audio = content.attachments.first { $0.audioFile != nil }
        guard let audio, let file = audio.audioFile else {
            player?.pause()
            player = nil
            meter = nil
            name = content.title
            redraw()
            return
        }
        if player?.file != file {
            player?.pause()
            player = makePlayer(file)
            state = .ready
            meter = nil
            meterProblem = ""
            switch Self.readEnvelope(file) {
            case .success(let levels): meter = LevelMeter(levels)
            case .failure(let failure): meterProblem = "The meter needs WAV samples: \(failure.description)."
            }
        }
        name = audio.identifier.isEmpty ? audio.displayName : audio.identifier
        redraw()
    }

    /// Plays the attachment (called by the runtime when the button is activated).
    public func mediaPlay() {
        player?.play()
    }

    /// Pauses the attachment (called by the runtime: the button, or a touch under an overlay).
    public func mediaPause() {
        player?.pause()
    }

    /// Handles an action and calls `completion` with what happens to the card.
    public func didReceive(
        _ response: any UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        guard response.actionIdentifier == Self.useIdentifier else {
            completion(.dismissAndForwardAction)
            return
        }
        chosen = true
        redraw()
        completion(.doNotDismiss)
    }

    /// The envelope of a WAV attachment, or why there is none.
    static func readEnvelope(_ file: AudioFile) -> Result<LevelEnvelope, LevelEnvelope.Failure> {
        guard file.format == .wav else {
            return .failure(LevelEnvelope.Failure(description: "not a WAV file (\(file.format.rawValue))"))
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file.path))
        } catch {
            return .failure(LevelEnvelope.Failure(description: "the sound cannot be read"))
        }
        guard data.count <= AudioFileValidator.defaultSizeLimit else {
            return .failure(LevelEnvelope.Failure(description: "the sound grew past the size limit"))
        }
        do throws(LevelEnvelope.Failure) {
            return .success(try LevelEnvelope.decode([UInt8](data)))
        } catch {
            return .failure(error)
        }
    }

    private func makePlayer(_ file: AudioFile) -> MediaPlayer {
        MediaPlayer.reporting(file, to: self) { [weak self] phase in
            self?.update(phase)
        }
    }

    /// A new phase of the player, or (`nil`) a new position.
    private func update(_ phase: PlaybackPhase?) {
        if let phase {
            state = phase
            if phase == .playing, let player { meter?.started(at: player.position) } else { meter?.stopped() }
        } else if state == .playing, let player {
            meter?.moved(to: player.position)
        }
        redraw()
    }

    // MARK: The view

    private var shown: [String]?

    private func redraw() {
        guard let player else {
            shown = nil
            view.elements = [
                Label(name.isEmpty ? "Sound preview" : name, style: .bold),
                Label("No sound attached to preview.", style: CellStyle(foreground: .yellow)),
            ]
            preferredContentSize = CGSize(rows: 2)
            return
        }
        let duration = player.duration ?? envelope?.duration
        let position = state == .ended ? (duration ?? player.position) : player.position
        let progress = duration.map { $0 > 0 ? min(1, position / $0) : 0 } ?? 0
        let level = state == .playing ? meter?.level ?? 0 : 0
        let time = "\(clockText(position)) / \(duration.map(clockText) ?? "–:––")"
        var status: String =
            switch state {
            case .ready: "Press space (or tap) to preview."
            case .playing: "Playing — tap to pause."
            case .paused: "Paused."
            case .ended: "Played to the end."
            case .failed(let message): "Cannot play it: \(message)"
            }
        if chosen { status = "Chosen as your ringtone. " + status }
        // Position updates come a few times a second; the view changes when what it shows does.
        let stripStep = Int((progress * 200).rounded(.down))
        let meterStep = Int((LevelEnvelope.meter(level) * 100).rounded())
        let key = [time, status, "\(stripStep)", "\(meterStep)", name]
        guard key != shown else { return }
        shown = key
        var elements: [any ViewElement] = []
        if let envelope {
            elements.append(LevelStrip(envelope: envelope, played: progress, style: CellStyle(foreground: .cyan)))
            elements.append(
                ProgressBar(
                    value: Double(meterStep) / 100, style: CellStyle(foreground: Self.meterColor(meterStep)),
                    label: "level " + (state == .playing ? LevelEnvelope.decibels(level) : "–")))
        } else {
            elements.append(Label("No level meter", style: .dim))
            elements.append(ProgressBar(value: progress, style: CellStyle(foreground: .cyan)))
        }
        elements.append(Label(time + "  " + name))
        elements.append(Label(status, style: .dim))
        if envelope == nil { elements.append(Paragraph(meterProblem, style: .dim, maxLines: 2)) }
        view.elements = elements
        // A problem may wrap onto a second line.
        preferredContentSize = CGSize(rows: elements.count + (envelope == nil ? 1 : 0))
    }

    /// Green, yellow near the top, red at the top of the scale.
    private static func meterColor(_ step: Int) -> TerminalColor {
        step >= 95 ? .red : step >= 80 ? .yellow : .green
    }
}
