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
    /// X: dismiss every card of the center's queue (nothing on a single card).
    case dismissAll
    /// ?: list every key (on a terminal; nothing elsewhere).
    case help
}

/// The one table of keys: what each key does on a card, for the keyboard and for a key script
/// (`--keys`) alike, and the names a key script gives keys.
package enum KeyBindings {
    /// ← and → move the media by this many seconds, as in mpv.
    package static let seekStep = 5.0

    /// What `key` does on a card; `nil` when it does nothing.
    ///
    /// space or p: the media button; 1–9: actions; Tab and Shift-Tab: focus the next or previous
    /// button (the extension's, when it takes input, then the actions); Enter: the focused button,
    /// or the default action when none is; Esc or d: dismiss; t: touch the content; ← and →: 5 s
    /// back or on; n and N: the next and previous card (the center's queue); X: dismiss every
    /// card of the queue; ?: list the keys; q or Ctrl-D: quit;
    /// Ctrl-C: interrupt. A click (the left button pressed) reaches what is under it on the card,
    /// drawn from the screen's top-left corner; other mouse reports do nothing.
    package static func command(for key: Key) -> CardCommand? {
        switch key {
        case .space, .character("p"): .input(.media)
        case .character("t"): .input(.tapContent)
        case .tab: .input(.focusNext)
        case .backTab: .input(.focusPrevious)
        case .enter: .input(.confirm)
        case .mouse(let event): event.isClick ? .input(.click(column: event.column - 1, row: event.row - 1)) : nil
        case .escape, .character("d"): .input(.dismiss)
        case .left: .input(.seekBy(-seekStep))
        case .right: .input(.seekBy(seekStep))
        case .character("n"): .otherCard(step: 1)
        case .character("N"): .otherCard(step: -1)
        case .character("X"): .dismissAll
        case .character("?"): .help
        case .character("q"), .controlD: .quit
        case .controlC: .interrupt
        case .character(let c):
            if let digit = c.wholeNumberValue, (1...9).contains(digit) { .input(.action(digit)) } else { nil }
        default: nil
        }
    }

    /// The key a key script names: `space`, `p`, `1`–`9`, `tab`, `shift-tab` (or `backtab`),
    /// `enter` (or `return`), `esc` (or `escape`), `d`, `q`, `n`, `N`, `X`, `?`, `tap` (t), `left` (or ←),
    /// `right` (or →); and a click, `click:COLUMN:ROW` (from 1, as a terminal reports it).
    package static func key(named name: String) -> Key? {
        switch name {
        case "space": .space
        case "tab": .tab
        case "shift-tab", "backtab": .backTab
        case "enter", "return": .enter
        case "esc", "escape": .escape
        case "tap": .character("t")
        case "left", "←": .left
        case "right", "→": .right
        case "p", "d", "q", "n", "N", "X", "?": .character(Character(name))
        default:
            if name.count == 1, let digit = Int(name), (1...9).contains(digit) {
                .character(Character(name))
            } else {
                click(named: name)
            }
        }
    }

    /// `click:COLUMN:ROW`: a press of the left button on that cell (from 1).
    private static func click(named name: String) -> Key? {
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "click",
            parts[1].count <= 4, parts[2].count <= 4, parts[1].allSatisfy(\.isASCII), parts[2].allSatisfy(\.isASCII),
            let column = Int(parts[1]), let row = Int(parts[2]), column >= 1, row >= 1
        else { return nil }
        return .mouse(.click(column: column, row: row))
    }

    /// The key names a key script accepts, for messages.
    package static let names = "space, p, 1-9, tab, shift-tab, enter, esc, d, q, n, N, X, ?, tap, left, right, click:COL:ROW"

    /// Every key, a line each, as `?` lists them on a terminal.
    package static let help: [String] = [
        "space, p   play or pause the media",
        "1-9        the card's actions",
        "tab        focus the next button (shift-tab: the previous)",
        "enter      the focused button, else the default action",
        "esc, d     dismiss the card",
        "t          touch the content",
        "←, →       5 s back or on",
        "n, N       the next or previous card",
        "X          dismiss every card",
        "?          this list (any key closes it)",
        "q          quit",
    ]
}
