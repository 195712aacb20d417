/// A terminal colour: one of the 16 named colours, a 256-colour palette entry, or true colour.
public enum TerminalColor: Sendable, Hashable {
    /// The terminal's own colour (foreground or background).
    case standard
    /// One of the 16 ANSI colours (0–7 normal, 8–15 bright).
    case ansi(UInt8)
    /// An entry of the 256-colour palette.
    case palette(UInt8)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    public static let black = TerminalColor.ansi(0)
    public static let red = TerminalColor.ansi(1)
    public static let green = TerminalColor.ansi(2)
    public static let yellow = TerminalColor.ansi(3)
    public static let blue = TerminalColor.ansi(4)
    public static let magenta = TerminalColor.ansi(5)
    public static let cyan = TerminalColor.ansi(6)
    public static let white = TerminalColor.ansi(7)
    public static let gray = TerminalColor.ansi(8)
    /// The media button's tint when the extension gives none.
    public static let systemTint = TerminalColor.ansi(12)
}

/// How a cell's character is drawn.
public struct CellStyle: Sendable, Hashable {
    /// The character's colour.
    public var foreground: TerminalColor
    /// The cell's colour.
    public var background: TerminalColor
    /// Bold (or bright) text.
    public var bold: Bool
    /// Dim ("translucent") text.
    public var dim: Bool
    /// Italic text, where the terminal has it.
    public var italic: Bool
    /// Underlined text.
    public var underline: Bool
    /// Foreground and background swapped.
    public var reverse: Bool

    /// A style; every attribute off and the terminal's own colours by default.
    public init(
        foreground: TerminalColor = .standard, background: TerminalColor = .standard, bold: Bool = false,
        dim: Bool = false, italic: Bool = false, underline: Bool = false, reverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.italic = italic
        self.underline = underline
        self.reverse = reverse
    }

    /// The terminal's own style.
    public static let plain = CellStyle()
    /// Bold text.
    public static let bold = CellStyle(bold: true)
    /// Dim text.
    public static let dim = CellStyle(dim: true)

    /// This style with another foreground colour.
    public func foreground(_ color: TerminalColor) -> CellStyle {
        var style = self
        style.foreground = color
        return style
    }
}

/// One cell of the screen: a character (a whole grapheme cluster) and its style.
///
/// A character two columns wide (an emoji, a CJK ideograph) takes its cell and the next, which
/// holds ``continuation``.
public struct Cell: Sendable, Hashable {
    /// The character drawn; empty for the second half of a wide character.
    public var character: Character?
    /// Its style.
    public var style: CellStyle

    /// A cell showing `character` in `style`.
    public init(_ character: Character, style: CellStyle = .plain) {
        self.character = character
        self.style = style
    }

    private init(continuationOf style: CellStyle) {
        self.character = nil
        self.style = style
    }

    /// A blank cell.
    public static let blank = Cell(" ")

    /// The right half of a wide character in `style`.
    public static func continuation(_ style: CellStyle) -> Cell { Cell(continuationOf: style) }

    /// Whether this is the right half of a wide character.
    public var isContinuation: Bool { character == nil }
}
