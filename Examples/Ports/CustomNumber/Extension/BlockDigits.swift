/// Digits five rows high, for the storyboard label's text size of 96: the view's part of the
/// port, not in the seed's text.
enum BlockDigits {
    /// Each glyph's five rows, three cells wide.
    private static let glyphs: [Character: [String]] = [
        "0": ["███", "█ █", "█ █", "█ █", "███"],
        "1": [" █ ", "██ ", " █ ", " █ ", "███"],
        "2": ["███", "  █", "███", "█  ", "███"],
        "3": ["███", "  █", " ██", "  █", "███"],
        "4": ["█ █", "█ █", "███", "  █", "  █"],
        "5": ["███", "█  ", "███", "  █", "███"],
        "6": ["███", "█  ", "███", "█ █", "███"],
        "7": ["███", "  █", "  █", "  █", "  █"],
        "8": ["███", "█ █", "███", "█ █", "███"],
        "9": ["███", "█ █", "███", "  █", "███"],
        "-": ["   ", "   ", "███", "   ", "   "],
    ]

    /// `text` as five rows of block glyphs a column apart; a character without a glyph is
    /// drawn as itself on the middle row. Empty text gives no rows.
    static func rows(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        return (0..<5).map { row in
            text.map { character in
                glyphs[character]?[row] ?? (row == 2 ? " \(character) " : "   ")
            }.joined(separator: " ")
        }
    }
}
