import NotiplayCore

/// Something that happened in a presentation: what the runtime records in an `EventLog`.
///
/// The `--events jsonl` line, the readable line and the names and fields a playback script
/// matches are projections of it (``name``, ``fields``, ``line(at:)``).
public enum PresentationEvent: Sendable, Equatable {
    /// A notification reached the extension's `didReceive(_:)`: a new card, or (`redelivery`) a
    /// notification of the thread the card shows.
    case didReceive(identifier: String, category: String, extension: String, redelivery: Bool = false)
    /// The media button asked the extension to play (`mediaPlay()`).
    case mediaPlay
    /// The media button, or a touch under an overlay button, asked the extension to pause.
    case mediaPause
    /// The extension reported its media playing (`mediaPlayingStarted()`).
    case mediaPlayingStarted
    /// The extension reported its media paused or ended (`mediaPlayingPaused()`).
    case mediaPlayingPaused
    /// The media button changed (or was first drawn).
    case buttonState(MediaButtonState)
    /// A person, or the extension, chose an action: `text` answers a text-input action, `source`
    /// says who chose the default action.
    case action(identifier: String, text: String? = nil, source: ActionSource? = nil)
    /// The extension replaced the card's action buttons.
    case actions(identifiers: [String])
    /// A person activated one of the extension's own buttons (a click, or Enter while it was
    /// focused): its action runs next. Only for an extension whose manifest enables user
    /// interaction.
    case control(title: String)
    /// The extension's completion handler answered (or, `timedOut`, the time limit answered
    /// ``UNNotificationContentExtensionResponseOption/dismiss`` for it).
    case response(option: UNNotificationContentExtensionResponseOption, identifier: String, timedOut: Bool = false)
    /// An action went on to the app: `text` for a text-input action, `url` for `open(_:)`.
    case forwarded(action: String, text: String? = nil, url: String? = nil)
    /// The app's command for a forwarded action ended with `status`.
    case command(action: String, status: Int)
    /// The card closed.
    case dismissed(reason: DismissReason)
    /// What the card's media player really did, as the engine reported it; `message` says why
    /// playback failed.
    case playback(PlaybackState, position: Double, message: String? = nil)
    /// What `ServiceExtensionStage` did with a notification.
    case service(extension: String, identifier: String, outcome: ServiceOutcome)
    /// Notifications removed through ``UNUserNotificationCenter``.
    case removed(RemovalKind, identifiers: [String])
    /// Something went wrong; the presentation goes on.
    case error(String)

    /// Who chose the default action.
    public enum ActionSource: String, Sendable {
        /// A person (Enter).
        case user
        /// The extension (`performNotificationDefaultAction()`).
        case `extension`
    }

    /// Why a card closed.
    public enum DismissReason: String, Sendable {
        /// A person closed it.
        case user
        /// An extension without response handling passed the action on to the app.
        case forwarded
        /// The completion handler was not called within the time limit.
        case timeout
        /// The completion handler answered `.dismiss` or `.dismissAndForwardAction`.
        case response
        /// The notification was opened (the default action).
        case defaultAction
        /// The extension closed it (`dismissNotificationContentExtension()`).
        case `extension`
    }

    /// What the player's media did.
    public enum PlaybackState: String, Sendable {
        /// Audio started or resumed.
        case started
        /// Audio paused.
        case paused
        /// The file played to its end.
        case ended
        /// Playback was stopped before the end.
        case stopped
        /// The file could not be played.
        case error
    }

    /// How the service extension stage ended.
    public enum ServiceOutcome: Sendable, Equatable {
        /// The app has a service extension, but the notification is not eligible (`reason` says why).
        case skipped(reason: String)
        /// The stage ran: its `result`, how many `attachments` the presented content has, and
        /// whether the time limit was reached (`serviceExtensionTimeWillExpire()` was called).
        case finished(ServiceResult, attachments: Int, timeWillExpire: Bool = false)
    }

    /// What the service extension's content came to.
    public enum ServiceResult: String, Sendable {
        /// Its content is presented.
        case modified
        /// Its content equals the original.
        case unchanged
        /// Its content took the alert text away; the original is presented.
        case ignored
        /// It did not answer in time; the original is presented.
        case expired
    }

    /// Which notifications were removed.
    public enum RemovalKind: String, Sendable {
        /// Requests waiting to be delivered.
        case pending
        /// Notifications delivered.
        case delivered
    }

    /// The event's name, as lines and scripts give it: `didReceive`, `mediaPlay`, `mediaPause`,
    /// `mediaPlayingStarted`, `mediaPlayingPaused`, `buttonState`, `action`, `actions`, `control`, `response`,
    /// `forwarded`, `command`, `dismissed`, `playback`, `service`, `removed` or `error`.
    public var name: String {
        switch self {
        case .didReceive: "didReceive"
        case .mediaPlay: "mediaPlay"
        case .mediaPause: "mediaPause"
        case .mediaPlayingStarted: "mediaPlayingStarted"
        case .mediaPlayingPaused: "mediaPlayingPaused"
        case .buttonState: "buttonState"
        case .action: "action"
        case .actions: "actions"
        case .control: "control"
        case .response: "response"
        case .forwarded: "forwarded"
        case .command: "command"
        case .dismissed: "dismissed"
        case .playback: "playback"
        case .service: "service"
        case .removed: "removed"
        case .error: "error"
        }
    }

    /// Whether this event means the card's media stopped playing: its playback ended, stopped,
    /// paused or failed, or the card was dismissed (which stops it).
    public var endsMedia: Bool {
        switch self {
        case .playback(let state, _, _): state != .started
        case .dismissed: true
        default: false
        }
    }
}
