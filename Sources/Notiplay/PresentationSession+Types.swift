#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The state of the media button the runtime draws, as `buttonState` events name it.
public enum MediaButtonState: String, Sendable {
    /// No button (type `.none`, an empty frame, or no media).
    case none
    /// ▶: paused.
    case play
    /// ⏸: playing (`.default` only).
    case pause
    /// Playing under an `.overlay` button, which hides.
    case hidden
}

extension PresentationSession {
    /// The state of the media button.
    package typealias ButtonState = MediaButtonState

    /// What a person does to the card.
    public enum Input: Sendable, Equatable {
        /// The media button (space or p).
        case media
        /// A touch on the extension's content (pauses under an overlay button).
        case tapContent
        /// The action button with this number, from 1; `text` answers a text-input action.
        case action(Int, text: String? = nil)
        /// The action with this identifier.
        case actionNamed(String, text: String? = nil)
        /// The notification itself: the default action (Enter with nothing focused).
        case defaultAction
        /// Close the card (Esc or d).
        case dismiss
        /// Move the card's media to this position, in seconds (when ``canSeek``).
        case seek(to: Double)
        /// Move the card's media by this many seconds, back when negative (← and →, when ``canSeek``).
        case seekBy(Double)
        /// Focus the next button (Tab): the extension's buttons when its manifest enables user
        /// interaction, then the action buttons, then nothing, and round again.
        case focusNext
        /// Focus the previous button (Shift-Tab).
        case focusPrevious
        /// Enter: activate the focused button; with nothing focused, the default action.
        case confirm
        /// A click on the card's cell at `column`, `row` (from 0, the card's top-left corner at
        /// the origin) as laid out ``PresentationSession/layoutWidth`` wide: the ✕, the media
        /// button, an action button, an extension's button (when it takes input) or its content.
        case click(column: Int, row: Int)
    }

    /// Limits and options.
    public struct Configuration: Sendable {
        /// How long an extension may take to call a response's completion handler.
        public var responseTimeLimit: Duration
        /// How long the app's command for a forwarded action may run before it is stopped.
        public var commandTimeLimit: Duration
        /// The clock both limits are measured on: the system's, or a test's clock that moves only
        /// when the test says.
        public var clock: any Clock<Duration>
        /// The variables the app's command runs with, and where its output goes.
        public var environment: HostEnvironment
        /// How wide the card will be drawn, in columns, before a driver draws it (80 by default):
        /// the extension's `view.bounds` in `viewDidLoad()` follow it.
        public var cardColumns = 80
        /// The date a card's age is counted to: the system's, or the center's clock (a script's
        /// virtual one).
        package var now: @Sendable () -> Date = { Date() }

        /// The defaults: 10 s for a completion handler, 30 s for the app's command, the system's
        /// clock, and an empty `HostEnvironment`.
        public init(
            responseTimeLimit: Duration = .seconds(10), commandTimeLimit: Duration = .seconds(30),
            clock: any Clock<Duration> = ContinuousClock(), environment: HostEnvironment = HostEnvironment()
        ) {
            self.responseTimeLimit = responseTimeLimit
            self.commandTimeLimit = commandTimeLimit
            self.environment = environment
            self.clock = clock
        }
    }
}
