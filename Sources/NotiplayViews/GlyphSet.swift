/// The symbols the card draws with: Unicode, or plain ASCII when the locale is not UTF-8.
///
/// Each member is what the card puts on screen for one purpose; the widths differ between the
/// sets (the ASCII pause `||` takes two columns, `⏸` one), so measure them with
/// `CellWidth.of(_:)` rather than assuming one column. Speaker and mute
/// symbols are the extensions' own content and not part of the set.
public struct GlyphSet: Sendable, Hashable {
    /// Whether the terminal is expected to show any Unicode character (a UTF-8 locale).
    public let isUnicode: Bool
    /// The media button while paused: press to play (`▶`, `>`).
    public let play: String
    /// The media button while playing: press to pause (`⏸`, `||`).
    public let pause: String
    /// Playback at its end, in a status line (`■`, `[]`).
    public let stopped: String
    /// The card's close button (`✕`, `x`).
    public let close: String
    /// The mark of text cut short (`…`, `...`).
    public let ellipsis: String
    /// A horizontal line (`─`, `-`).
    public let horizontal: String
    /// A vertical line (`│`, `|`).
    public let vertical: String
    /// A box's top-left corner (`┌`, `+`).
    public let topLeft: String
    /// A box's top-right corner (`┐`, `+`).
    public let topRight: String
    /// A box's bottom-left corner (`└`, `+`).
    public let bottomLeft: String
    /// A box's bottom-right corner (`┘`, `+`).
    public let bottomRight: String
    /// A filled cell of a progress bar (`█`, `#`).
    public let progressFull: String
    /// An empty cell of a progress bar (`░`, `-`).
    public let progressEmpty: String

    /// The Unicode glyphs.
    public static let unicode = GlyphSet(
        isUnicode: true, play: "▶", pause: "⏸", stopped: "■", close: "✕", ellipsis: "…", horizontal: "─", vertical: "│",
        topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", progressFull: "█", progressEmpty: "░")

    /// The plain ASCII glyphs, for a locale that is not UTF-8.
    public static let ascii = GlyphSet(
        isUnicode: false, play: ">", pause: "||", stopped: "[]", close: "x", ellipsis: "...", horizontal: "-", vertical: "|",
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", progressFull: "#", progressEmpty: "-")

    /// The glyph set for the locale of `environment`, found as the C library finds it.
    ///
    /// The locale is the first non-empty one of `LC_ALL`, `LC_CTYPE` and `LANG`; it is UTF-8
    /// when its name contains `UTF-8` or `utf8` in any case (`en_US.UTF-8`, `C.utf8`). Anything
    /// else — `C`, `POSIX`, a Latin-1 locale, nothing set — gets ``ascii``.
    /// - Parameter environment: The process environment.
    public static func detect(environment: [String: String]) -> GlyphSet {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let name = locale.lowercased()
        return name.contains("utf-8") || name.contains("utf8") ? .unicode : .ascii
    }

    /// `text` as this set can show it: unchanged for ``unicode``, made ASCII by
    /// `asciiSafe(_:)` for ``ascii``.
    public func safe(_ text: some StringProtocol) -> String {
        isUnicode ? String(text) : Self.asciiSafe(text)
    }

    /// `text` in ASCII, taking as many columns as `text` does.
    ///
    /// Each character becomes `asciiSafe(_:)` of a character: lines, corners, arrows, quotes and
    /// accented Latin letters their nearest ASCII look-alike, anything else `?` for each column
    /// it takes, so a layout measured on `text` still fits. Control characters are dropped.
    public static func asciiSafe(_ text: some StringProtocol) -> String {
        var out = ""
        for character in text { out += asciiSafe(character) }
        return out
    }

    /// `character` in ASCII, in exactly `CellWidth.of(character)` columns: itself when it is
    /// printable ASCII, a look-alike (`─` → `-`, `é` → `e`, `“` → `"`), or `?` (`??` for a wide
    /// character); nothing for a control or zero-width character.
    public static func asciiSafe(_ character: Character) -> String {
        let width = CellWidth.of(character)
        guard width > 0 else { return "" }
        let scalars = character.unicodeScalars
        let first = scalars.first!
        if first.isASCII {
            // An ASCII letter with combining marks after it ("e\u{301}") shows as the letter.
            return String(Character(first))
        }
        if width == 1, let lookAlike = lookAlikes[first] { return String(lookAlike) }
        return String(repeating: "?", count: width)
    }

    /// One-column characters with an ASCII look-alike.
    private static let lookAlikes: [Unicode.Scalar: Character] = {
        let groups: [(String, Character)] = [
            ("─━═╌╍┄┅┈┉–—―‒−", "-"), ("│┃║╎╏┆┇┊┋", "|"),
            ("┌┐└┘├┤┬┴┼╭╮╯╰╔╗╚╝╠╣╦╩╬┏┓┗┛┣┫┳┻╋", "+"),
            ("█▓▒■", "#"), ("░□", "-"), ("▶►▸▷⏵", ">"), ("◀◄◂◁", "<"), ("⏸", "|"), ("✕✖×✗✘", "x"),
            ("…·•∙", "."), ("‘’‚‛′", "'"), ("“”„‟″«»", "\""), ("\u{A0}\u{2002}\u{2003}\u{2009}", " "),
            ("ÀÁÂÃÄÅĀĂĄ", "A"), ("àáâãäåāăą", "a"), ("ÇĆĈĊČ", "C"), ("çćĉċč", "c"), ("ĎĐ", "D"), ("ďđ", "d"),
            ("ÈÉÊËĒĔĖĘĚ", "E"), ("èéêëēĕėęě", "e"), ("ĜĞĠĢ", "G"), ("ĝğġģ", "g"), ("ÌÍÎÏĨĪĬĮİ", "I"),
            ("ìíîïĩīĭįı", "i"), ("ŁĹĻĽ", "L"), ("łĺļľ", "l"), ("ÑŃŅŇ", "N"), ("ñńņň", "n"),
            ("ÒÓÔÕÖØŌŎŐ", "O"), ("òóôõöøōŏő", "o"), ("ŔŖŘ", "R"), ("ŕŗř", "r"), ("ŚŜŞŠ", "S"), ("śŝşšß", "s"),
            ("ŢŤ", "T"), ("ţť", "t"), ("ÙÚÛÜŨŪŬŮŰŲ", "U"), ("ùúûüũūŭůűų", "u"), ("ÝŸŶ", "Y"), ("ýÿŷ", "y"),
            ("ŹŻŽ", "Z"), ("źżž", "z"),
        ]
        var table: [Unicode.Scalar: Character] = [:]
        for (sources, target) in groups {
            for scalar in sources.unicodeScalars { table[scalar] = target }
        }
        return table
    }()
}
