#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NotiplayCore
package import Notiplay
package import NotiplayViews

/// How a presentation on a driver ended.
package enum CardEnd: Sendable, Equatable {
    /// The card was dismissed, or the person quit (q, Ctrl-D, end of input), or the keys ran out.
    case closed
    /// Ctrl-C, or an interrupting signal (SIGINT, SIGTERM, SIGHUP) with its number.
    case interrupted(signal: Int32)
    /// The terminal could not be used; what went wrong.
    case unavailable(String)
}

/// Shows a session's card somewhere and feeds it input until the presentation ends: the seam
/// between the runtime and a screen, as TermKit's console driver is.
///
/// `TerminalCardDriver` draws and redraws the card in a terminal with keys from the keyboard;
/// `PlainTextCardDriver` writes it once as text and feeds a key script; `HeadlessCardDriver`
/// only feeds a key script.
@MainActor
package protocol CardDriver {
    /// Presents `session`'s card: the `keys` first, as if typed, then whatever input the driver has.
    func present(_ session: PresentationSession, keys: KeyScript) async -> CardEnd
}

/// The notification center's cards, for a driver that shows one at a time: the shown card's
/// session (none while nothing waits), the line under it, and the moves between cards.
@MainActor
package protocol CardDeck: AnyObject {
    /// The session whose card is shown; `nil` while there is none.
    var shownSession: (any CardSession)? { get }
    /// The line under the card (how many others wait), or what to show while there is no card.
    var deckStatus: String? { get }
    /// Shows the next card (`step` 1) or the previous (-1); returns the session shown now.
    func move(by step: Int) -> (any CardSession)?
    /// The shown card was dismissed: the deck shows another, or none.
    func shownCardDismissed()
    /// A key was pressed on the shown card (arrivals then wait a few seconds before they take
    /// the screen from under the person).
    func keyPressed()
    /// Every card was dismissed at once (`X`): the deck shows none.
    func dismissAll()
    /// The first `limit` cards waiting after the shown one, in the order `n` reaches them.
    func queuedCards(limit: Int) -> [QueuedCard]
    /// Whether the shown card is critical: drawn so that it stands out.
    var shownIsCritical: Bool { get }
    /// Warnings about the shown card (its sound cannot play), for its dim status line.
    var shownNotice: String? { get }
    /// What Enter does on the shown card ("enter Open"), when it has a default action.
    var shownHint: String? { get }
    /// Set by the driver; the deck calls it when the shown session or its status changed.
    var onDeckChange: (@MainActor () -> Void)? { get set }
}

extension KeyScript.Outcome {
    /// The card's end when a key script ends this way.
    var cardEnd: CardEnd? {
        switch self {
        case .finished: nil
        case .quit: .closed
        case .interrupted: .interrupted(signal: 2)
        }
    }
}

/// No screen: the key script is fed and the presentation ends.
package struct HeadlessCardDriver: CardDriver {
    /// A driver that draws nothing.
    package init() {}

    package func present(_ session: PresentationSession, keys: KeyScript) async -> CardEnd {
        await keys.run(on: session).cardEnd ?? .closed
    }
}

/// A screen that is not a terminal: the card is written once as plain text, then the key script
/// is fed.
package struct PlainTextCardDriver: CardDriver {
    private let width: Int
    private let glyphs: GlyphSet
    private let write: @MainActor (String) -> Void
    private let shown: @MainActor () -> Void

    /// A driver writing the card `width` columns wide with `glyphs` through `write`, then calling
    /// `shown` before the keys.
    package init(
        width: Int, glyphs: GlyphSet, write: @escaping @MainActor (String) -> Void,
        shown: @escaping @MainActor () -> Void = {}
    ) {
        self.width = width
        self.glyphs = glyphs
        self.write = write
        self.shown = shown
    }

    package func present(_ session: PresentationSession, keys: KeyScript) async -> CardEnd {
        session.layoutWidth = width  // a click in the keys aims at the card as printed
        write(FrameRenderer.plainText(CardLayout.render(session.card(now: nil, prompt: nil, status: nil), width: width), glyphs: glyphs) + "\n")
        shown()
        return await keys.run(on: session).cardEnd ?? .closed
    }
}

/// A card waiting behind the shown one, as a line under it: its app, its title, how long ago it
/// arrived.
package struct QueuedCard: Sendable, Equatable {
    /// Its app's name.
    package var app: String
    /// Its title (else its body).
    package var title: String
    /// Seconds since it arrived.
    package var age: Double
    /// It is critical.
    package var critical: Bool

    /// A waiting card.
    package init(app: String, title: String, age: Double, critical: Bool) {
        self.app = app
        self.title = title
        self.age = age
        self.critical = critical
    }

    /// `app · title · 3m`, cleaned of terminal controls, cut to `width` columns by the grid.
    package var line: String {
        let mark = critical ? "‼ " : "· "
        return mark + TerminalText.clean(app) + " · " + TerminalText.clean(title) + " · " + Self.age(age)
    }

    /// An age as a person reads it: `now`, `12s`, `4m`, `2h`, `3d`.
    package static func age(_ seconds: Double) -> String {
        let s = Int(max(0, seconds))
        if s < 5 { return "now" }
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" }
        if s < 86_400 { return "\(s / 3600)h" }
        return "\(s / 86_400)d"
    }
}
