import NotiplayCore
import NotiplayViews
package import Notiplay

/// What a key does to a presented card.
package enum CardCommand: Sendable, Equatable {
    /// An input for the session.
    case input(PresentationSession.Input)
    /// Leave the card (q, Ctrl-D): the presentation ends normally.
    case quit
    /// Ctrl-C: the presentation ends as interrupted.
    case interrupt
    /// n or N: the next or the previous card of the center's queue (nothing on a single card).
    case otherCard(step: Int)
}

/// The one table of keys: what each key does on a card, for the keyboard and for a key script
/// (`--keys`) alike, and the names a key script gives keys.
package enum KeyBindings {
    /// ← and → move the media by this many seconds, as in mpv.
    package static let seekStep = 5.0

    /// What `key` does on a card; `nil` when it does nothing.
    ///
    /// space or p: the media button; 1–9: actions; Enter: the default action; Esc or d: dismiss;
    /// t: touch the content; ← and →: 5 s back or on; n and N: the next and previous card (the
    /// center's queue); q or Ctrl-D: quit; Ctrl-C: interrupt.
    package static func command(for key: Key) -> CardCommand? {
        switch key {
        case .space, .character("p"): .input(.media)
        case .character("t"): .input(.tapContent)
        case .enter: .input(.defaultAction)
        case .escape, .character("d"): .input(.dismiss)
        case .left: .input(.seekBy(-seekStep))
        case .right: .input(.seekBy(seekStep))
        case .character("n"): .otherCard(step: 1)
        case .character("N"): .otherCard(step: -1)
        case .character("q"), .controlD: .quit
        case .controlC: .interrupt
        case .character(let c):
            if let digit = c.wholeNumberValue, (1...9).contains(digit) { .input(.action(digit)) } else { nil }
        default: nil
        }
    }

    /// The key a key script names: `space`, `p`, `1`–`9`, `enter` (or `return`), `esc` (or
    /// `escape`), `d`, `q`, `n`, `N`, `tap` (t), `left` (or ←), `right` (or →).
    package static func key(named name: String) -> Key? {
        switch name {
        case "space": .space
        case "enter", "return": .enter
        case "esc", "escape": .escape
        case "tap": .character("t")
        case "left", "←": .left
        case "right", "→": .right
        case "p", "d", "q", "n", "N": .character(Character(name))
        default:
            if name.count == 1, let digit = Int(name), (1...9).contains(digit) { .character(Character(name)) } else { nil }
        }
    }

    /// The key names a key script accepts, for messages.
    package static let names = "space, p, 1-9, enter, esc, d, q, n, N, tap, left, right"
}
