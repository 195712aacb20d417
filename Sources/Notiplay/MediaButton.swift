/// The media button's state machine: what the button shows for the extension's button type and
/// whether its media plays.
///
/// - `.none`: no button, whatever plays.
/// - `.default`: ▶ while paused, ⏸ while playing.
/// - `.overlay`: ▶ while paused, hidden while playing.
///
/// Pressing the button pauses what plays and plays what is paused; the extension's reports
/// (`mediaPlayingStarted()`, `mediaPlayingPaused()`) set whether it plays without a press.
struct MediaButton {
    /// What the button shows; `.none` until ``update(for:force:)`` first runs.
    private(set) var state = PresentationSession.ButtonState.none
    /// Whether the media plays, as the last press or report said.
    private(set) var isPlaying = false

    /// What pressing the button asks of the extension.
    enum Press {
        /// `mediaPlay()`.
        case play
        /// `mediaPause()`.
        case pause
    }

    /// The state for a button of `type`.
    static func state(
        for type: UNNotificationContentExtensionMediaPlayPauseButtonType, playing: Bool
    ) -> PresentationSession.ButtonState {
        switch type {
        case .none: .none
        case .default: playing ? .pause : .play
        case .overlay: playing ? .hidden : .play
        }
    }

    /// Shows the state for `type`; returns it if it changed (or, with `force`, always).
    mutating func update(
        for type: UNNotificationContentExtensionMediaPlayPauseButtonType, force: Bool = false
    ) -> PresentationSession.ButtonState? {
        let state = Self.state(for: type, playing: isPlaying)
        guard force || state != self.state else { return nil }
        self.state = state
        return state
    }

    /// A press: the media is taken to play if it was paused, to pause if it played.
    mutating func press() -> Press {
        isPlaying.toggle()
        return isPlaying ? .play : .pause
    }

    /// The extension reported its media playing or paused.
    mutating func report(playing: Bool) {
        isPlaying = playing
    }
}
