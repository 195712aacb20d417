import NotiplayTerminal
import NotiplayViews
import Testing

@Suite("Cells, widths, grids and text layout")
struct GridTests {
    @Test("widths: ASCII 1, CJK and emoji 2, combining marks 0, ▶ and ⏸ 1", arguments: [
        ("a", 1), ("é", 1), ("e\u{301}", 1), ("日", 2), ("한", 2), ("🔇", 2), ("🔊", 2), ("❤️", 2), ("🇫🇷", 2),
        ("▶", 1), ("⏸", 1), ("✕", 1), ("\u{200B}", 0), ("Ａ", 2),
    ])
    func widths(_ text: String, _ width: Int) {
        #expect(CellWidth.of(text) == width)
    }

    @Test("put clips, and a wide character never straddles the edge")
    func putClips() {
        var grid = Grid(width: 5, height: 1)
        #expect(grid.put("ab日本", row: 0, column: 0) == 5)
        #expect(grid.lines == ["ab日 "])
        grid.put("🔇", row: 0, column: 3)  // over 日's right half: its left half goes too
        #expect(grid.lines == ["ab 🔇"])
        grid.put("x", row: 0, column: 4)
        #expect(grid.lines == ["ab  x"])
        grid.put("\u{1B}\u{7}zz", row: 0, column: 0)  // control characters never enter a grid
        #expect(grid.lines == ["zz  x"])
    }

    @Test("clipping never leaves half a wide character, nor traps on a rectangle outside the grid")
    func clippingKeepsWideCharactersWhole() {
        var grid = Grid(width: 3, height: 1)
        grid.put("a日", row: 0, column: 0)
        grid.put("本", row: 0, column: 2)  // does not fit; lands on 日's right half
        #expect(grid.lines == ["a  "])
        #expect(grid[0, 1].character == " " && grid[0, 2].character == " ")

        var target = Grid(width: 4, height: 1)
        target.put("日x", row: 0, column: 0)
        var other = Grid(width: 2, height: 1)
        other.put("本", row: 0, column: 0)
        target.draw(other, row: 0, column: -1)  // only 本's right half is inside, over 日's left half
        #expect(target.lines == ["  x "])
        #expect(!target[0, 1].isContinuation)

        var small = Grid(width: 5, height: 2)
        small.put("hello", row: 0, column: 0)
        small.fill(row: 0, column: -5, width: 2, height: 1)
        small.fill(row: 0, column: 10, width: 2, height: 1)
        small.fill(row: -3, column: 0, width: 2, height: 1)
        small.fill(row: 5, column: 0, width: 2, height: 1)
        #expect(small.lines == ["hello", "     "])
    }

    @Test("wrap by columns; long words broken; paragraphs; the cut marked with an ellipsis")
    func wrap() {
        #expect(TextLayout.wrap("the quick brown fox jumps", width: 10) == ["the quick", "brown fox", "jumps"])
        #expect(TextLayout.wrap("abcdefghijkl", width: 5) == ["abcde", "fghij", "kl"])
        #expect(TextLayout.wrap("one\ntwo", width: 10) == ["one", "two"])
        #expect(TextLayout.wrap("日本語のテキスト", width: 6) == ["日本語", "のテキ", "スト"])
        #expect(TextLayout.wrap("the quick brown fox jumps", width: 10, maxLines: 2) == ["the quick", "brown fox…"])
        #expect(TextLayout.wrap("aaaa bbbb cccc", width: 4, maxLines: 2) == ["aaaa", "bbb…"])
        #expect(TextLayout.wrap("short", width: 10, maxLines: 1) == ["short"])
        #expect(TextLayout.truncate("hello world", width: 8) == "hello w…")
        #expect(TextLayout.truncate("日本語", width: 4) == "日…")
        #expect(TextLayout.truncate("fits", width: 4) == "fits")
    }

    @Test("a 10,000-character body wraps into a few lines quickly")
    func longBody() {
        let body = String(repeating: "lorem ipsum ", count: 834)
        let lines = TextLayout.wrap(body, width: 60, maxLines: 4)
        #expect(lines.count == 4)
        #expect(lines.last?.hasSuffix("…") == true)
        #expect(lines.allSatisfy { CellWidth.of($0) <= 60 })
    }
}
