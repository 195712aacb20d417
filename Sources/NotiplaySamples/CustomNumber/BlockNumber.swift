import Notiplay

/// A number drawn large: each character five rows high in full blocks, centred — the terminal's
/// version of seed 002's 96-point label. When the digits do not fit the width, the number is
/// drawn as plain bold text on the middle row instead, never cut.
struct BlockNumber: ViewElement, Hashable {
    /// What is drawn: digits, `-`, and `?` for the placeholder.
    let text: String
    /// The blocks' style.
    let style: CellStyle

    /// Rows of every glyph.
    static let height = 5

    /// Each glyph, 3 columns by 5 rows; `#` is a block.
    static let glyphs: [Character: [String]] = [
        "0": ["###", "# #", "# #", "# #", "###"],
        "1": [" # ", "## ", " # ", " # ", "###"],
        "2": ["###", "  #", "###", "#  ", "###"],
        "3": ["###", "  #", " ##", "  #", "###"],
        "4": ["# #", "# #", "###", "  #", "  #"],
        "5": ["###", "#  ", "###", "  #", "###"],
        "6": ["###", "#  ", "###", "# #", "###"],
        "7": ["###", "  #", "  #", " # ", " # "],
        "8": ["###", "# #", "###", "# #", "###"],
        "9": ["###", "# #", "###", "  #", "###"],
        "-": ["   ", "   ", "###", "   ", "   "],
        "?": ["###", "  #", " ##", "   ", " # "],
    ]

    init(_ text: String, style: CellStyle = .bold) {
        self.text = text
        self.style = style
    }

    /// The five rows of block text for `text`, glyphs one column apart; `nil` if a character has
    /// no glyph.
    static func rows(_ text: String) -> [String]? {
        var rows = [String](repeating: "", count: height)
        for (index, character) in text.enumerated() {
            guard let glyph = glyphs[character] else { return nil }
            for row in 0..<height {
                if index > 0 { rows[row] += " " }
                rows[row] += glyph[row].replacingHashes
            }
        }
        return rows
    }

    func render(width: Int) -> Grid {
        var grid = Grid(width: width, height: Self.height)
        guard let rows = Self.rows(text), let first = rows.first, first.count <= width else {
            let label = Label(text, style: style, alignment: .center).render(width: width)
            grid.draw(label, row: Self.height / 2, column: 0)
            return grid
        }
        let left = (width - first.count) / 2
        for (y, row) in rows.enumerated() {
            grid.put(row, row: y, column: left, style: style)
        }
        return grid
    }
}

extension String {
    /// `#` as a full block, everything else as a space.
    fileprivate var replacingHashes: String {
        String(map { $0 == "#" ? "█" : " " })
    }
}
