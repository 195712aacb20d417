/// A key the user pressed, as ``KeyDecoder`` reads it from the terminal in raw mode.
///
/// Raw mode turns off the terminal's own handling of Ctrl-C, Ctrl-Z and Ctrl-D, so they arrive
/// here as keys (``controlC``, ``controlZ``, ``controlD``) and the program decides what they do.
public enum Key: Sendable, Hashable {
    /// A printable character: one Unicode scalar, never a space or a control character.
    case character(Character)
    /// The space bar.
    case space
    /// Enter or Return (CR or LF; a CR LF pair counts once).
    case enter
    /// Tab (Ctrl-I).
    case tab
    /// Shift-Tab (the back tab, `ESC [ Z`).
    case backTab
    /// Backspace (DEL, or Ctrl-H).
    case backspace
    /// Escape pressed on its own (see ``KeyDecoder`` for how it is told from the start of a
    /// sequence).
    case escape
    /// The up arrow.
    case up
    /// The down arrow.
    case down
    /// The right arrow.
    case right
    /// The left arrow.
    case left
    /// Ctrl-C (byte 0x03): the key loop's "interrupt".
    case controlC
    /// Ctrl-D (byte 0x04): "end of input" typed at the terminal.
    case controlD
    /// Ctrl-Z (byte 0x1A): "suspend".
    case controlZ
    /// Any other control key, named by its character: Ctrl-A is `control("a")`, Ctrl-@ is
    /// `control("@")`, Ctrl-\ is `control("\\")`.
    case control(Character)
    /// Not a key: a mouse report, which comes in the same stream as the keys, in order, while
    /// the terminal reports the mouse (see ``MouseEvent``).
    case mouse(MouseEvent)
}

extension Key: CustomStringConvertible {
    /// A short readable name: `q`, `space`, `enter`, `shift-tab`, `up`, `ctrl-c`, `ctrl-a`,
    /// `mouse-press-0@12:3`.
    public var description: String {
        switch self {
        case .character(let character): String(character)
        case .space: "space"
        case .enter: "enter"
        case .tab: "tab"
        case .backTab: "shift-tab"
        case .backspace: "backspace"
        case .escape: "escape"
        case .up: "up"
        case .down: "down"
        case .right: "right"
        case .left: "left"
        case .controlC: "ctrl-c"
        case .controlD: "ctrl-d"
        case .controlZ: "ctrl-z"
        case .control(let character): "ctrl-\(character)"
        case .mouse(let event): "mouse-\(event.kind)-\(event.button)@\(event.column):\(event.row)"
        }
    }
}
