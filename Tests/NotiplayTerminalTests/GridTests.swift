import NotiplayTerminal
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
