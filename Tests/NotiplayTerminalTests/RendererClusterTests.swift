import NotiplayViews
import Testing

/// Cells whose characters would join their neighbours on a terminal that groups text as Unicode
/// says (found by the card fuzz target: a subtitle starting with U+302E, a Hangul tone mark,
/// after the card's padding shifted the rest of the row two columns left).
@Suite("Frame renderer: no cell joins its neighbour")
struct RendererClusterTests {
    /// The text the first frame writes, escape sequences taken out.
    private func printed(_ grid: Grid) -> String {
        var renderer = FrameRenderer()
        var text = ""
        var escape = false
        for character in String(decoding: renderer.render(grid, mode: .trueColor, glyphs: .unicode), as: UTF8.self) {
            if character == "\u{1B}" {
                escape = true
            } else if escape {
                if let ascii = character.asciiValue, (0x40...0x7E).contains(ascii), character != "[" { escape = false }
            } else {
                text.append(character)
            }
        }
        return text
    }

    /// One row of these cells, each as wide as `CellWidth` says (a right half after a wide one).
    private func row(_ characters: [Character]) -> Grid {
        let widths = characters.map { max(1, CellWidth.of($0)) }
        var grid = Grid(width: widths.reduce(0, +), height: 1)
        var x = 0
        for (character, width) in zip(characters, widths) {
            grid[0, x] = Cell(character)
            if width == 2 { grid[0, x + 1] = .continuation(.plain) }
            x += width
        }
        return grid
    }

    @Test(
        "a cell beside one it would join takes its own columns on the screen",
        arguments: [
            [" ", "\u{302E}", "S"],  // a spacing mark, wide (the fuzzer's case)
            ["a", "\u{0903}", "b"],  // a spacing mark, narrow
            ["x", "\u{1F3FB}", "y"],  // an emoji modifier alone
            ["\u{1F1E6}", "\u{1F1E7}"],  // two halves of a flag
            ["\u{0915}\u{094D}", "\u{0937}"],  // a consonant and virama, then a consonant
            ["\u{0915}\u{094D}\u{093C}", "\u{0937}"],  // a virama with a nukta after it
            ["\u{1F468}\u{200D}", "\u{1F469}"],  // an emoji and a joiner, then an emoji
            ["\u{0D4E}", "a"],  // a prepended letter
            ["\u{1100}", "\u{D7B0}"],  // a Hangul initial, then a vowel of Jamo Extended-B
        ] as [[Character]])
    func ownColumns(_ cells: [Character]) {
        let grid = row(cells)
        let text = printed(grid)
        #expect(CellWidth.of(text) == grid.width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test("a flag, an emoji sequence and a combined accent are written as they are")
    func wholeCharacters() {
        let cells = ["\u{1F1E6}\u{1F1E7}", "\u{1F468}\u{200D}\u{1F469}", "e\u{301}", "\u{0915}\u{094D}\u{0937}"].map {
            Character($0)
        }
        let text = printed(row(cells))
        for cell in cells { #expect(text.contains(cell), "\(cell)") }
    }
}
