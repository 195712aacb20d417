/// A mouse report, as a terminal sends it with SGR mouse reporting (`ESC [ ? 1000 h` and
/// `ESC [ ? 1006 h`): `ESC [ < b ; column ; row M` for a press, `m` for a release; or in the
/// older X10 form (`ESC [ M` and three bytes), which a terminal without SGR reporting sends.
public struct MouseEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// A button went down.
        case press
        /// A button came up (the X10 form does not say which: ``button`` is then -1).
        case release
        /// The mouse moved with a button down (or none: ``button`` -1).
        case motion
        /// The wheel turned: ``button`` 0 up, 1 down, 2 left, 3 right.
        case wheel
    }

    /// What happened.
    public var kind: Kind
    /// The button: 0 left, 1 middle, 2 right, from 7 the extra buttons (X's 8, 9, … less one);
    /// for the wheel, its direction; -1 when the report does not say.
    public var button: Int
    /// The column, from 1 (as the terminal counts).
    public var column: Int
    /// The row, from 1.
    public var row: Int

    /// A mouse event.
    public init(_ kind: Kind, button: Int, column: Int, row: Int) {
        self.kind = kind
        self.button = button
        self.column = column
        self.row = row
    }

    /// A press of the left button at `column`, `row` (from 1): a click.
    public static func click(column: Int, row: Int) -> MouseEvent {
        MouseEvent(.press, button: 0, column: column, row: row)
    }

    /// Whether this is a click: the left button pressed (a release, motion, the wheel and the
    /// other buttons are not).
    public var isClick: Bool { kind == .press && button == 0 }

    /// The event of a report whose button field is `code` (its modifier bits — 4 Shift, 8 Alt, 16
    /// Ctrl — ignored), at `column`, `row`; `release` for SGR's `m`.
    ///
    /// The field's low two bits are the button (3: none, X10's release); 32 marks motion; 64 the
    /// wheel (X buttons 4–7); 128 the extra buttons (X 8–11).
    static func decode(code: Int, column: Int, row: Int, release: Bool) -> MouseEvent {
        let low = code & 3
        let group = code & 192
        let button =
            switch group {
            case 0: low == 3 ? -1 : low
            case 64: low
            default: 7 + low + (group == 192 ? 4 : 0)
            }
        let kind: Kind =
            if code & 32 != 0 { .motion }
            else if group == 64 { .wheel }
            else if release || (group == 0 && low == 3) { .release }
            else { .press }
        return MouseEvent(kind, button: button, column: column, row: row)
    }
}
