import NotiplayTerminal
import NotiplayViews
import NotiplayTestSupport
import Testing

/// Random frames through the renderer into the virtual screen: after every frame the screen
/// must show exactly the grid, whatever the renderer chose to write. This is what proves the
/// differences right (runs, gaps, wide characters, styles, the last column).
@Suite("Frame renderer: random frames on a virtual screen")
struct RendererPropertyTests {
    static let pieces: [String] = [
        "a", "b", "Z", "0", "1", ":", " ", " ", "  ", "日", "本", "語", "🔇", "🔊", "한", "é", "e\u{301}", "▶", "⏸", "✕",
        "█", "░", "─", "│", "…", "Ａ", "x", "/", "❤️",
    ]

    static let styles: [CellStyle] = [
        .plain, .plain, .plain, .bold, .dim, CellStyle(reverse: true), CellStyle(italic: true, underline: true),
        CellStyle(foreground: .red), CellStyle(foreground: .systemTint, dim: true),
        CellStyle(foreground: .palette(208), bold: true), CellStyle(foreground: .rgb(250, 128, 114)),
        CellStyle(background: .rgb(0, 40, 80)), CellStyle(foreground: .ansi(15), background: .ansi(4), underline: true),
        CellStyle(background: .palette(236), reverse: true),
    ]

    static func text(_ random: inout SplitMix64) -> String {
        var text = ""
        for _ in 0..<Int(random.next() % 8 + 1) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
        return text
    }

    static func style(_ random: inout SplitMix64) -> CellStyle {
        styles[Int(random.next() % UInt64(styles.count))]
    }

    static func int(_ random: inout SplitMix64, _ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    /// One random change: text, a filled rectangle, a drawn sub-grid, or a single cell.
    static func mutate(_ grid: inout Grid, _ random: inout SplitMix64) {
        switch random.next() % 10 {
        case 0...4:
            grid.put(text(&random), row: int(&random, 0...grid.height - 1), column: int(&random, -2...grid.width),
                     style: style(&random))
        case 5:
            let filler = ["x", " ", "#", "░", "."][Int(random.next() % 5)]
            grid.fill(row: int(&random, -1...grid.height - 1), column: int(&random, -2...grid.width - 1),
                      width: int(&random, 1...8), height: int(&random, 1...3),
                      with: Cell(Character(filler), style: style(&random)))
        case 6:
            var other = Grid(width: int(&random, 1...10), height: int(&random, 1...3))
            for y in 0..<other.height { other.put(text(&random), row: y, column: int(&random, 0...2), style: style(&random)) }
            grid.draw(other, row: int(&random, -1...grid.height - 1), column: int(&random, -3...grid.width - 1))
        default:
            // The card's usual change: a digit or a bar cell somewhere.
            grid.put(String(random.next() % 10), row: int(&random, 0...grid.height - 1),
                     column: int(&random, 0...grid.width - 1), style: style(&random))
        }
    }

    /// Cells written one by one, as a careless extension might: controls, right halves alone,
    /// wide characters without theirs.
    static let strayCells: [Cell] = [
        Cell("\u{1B}"), Cell("\u{7}"), Cell("\u{9B}"), Cell("\u{200B}"), Cell("日"), Cell("🔇", style: .bold),
        .continuation(.plain), .continuation(CellStyle(reverse: true)), Cell("x"),
    ]

    @Test("500 random changes: the screen always equals the last grid", arguments: [
        (ColorMode.trueColor, true, false, UInt64(1)), (.trueColor, true, false, 2), (.palette256, true, false, 3),
        (.ansi16, true, false, 4), (.none, true, false, 5), (.trueColor, false, false, 6), (.ansi16, false, false, 7),
        (.trueColor, true, true, 8), (.ansi16, false, true, 9),
    ])
    func randomFrames(_ mode: ColorMode, _ unicode: Bool, _ stray: Bool, _ seed: UInt64) {
        let glyphs: GlyphSet = unicode ? .unicode : .ascii
        var random = SplitMix64(seed: seed)
        var grid = Grid(width: 24, height: 6)
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 24, height: 6)
        screen.scribble(seed: seed)
        var totalBytes = 0
        for step in 0..<500 {
            for _ in 0..<Self.int(&random, 1...3) {
                let before = grid
                if stray && random.next() % 4 == 0 {
                    grid[Self.int(&random, 0...grid.height - 1), Self.int(&random, 0...grid.width - 1)] =
                        Self.strayCells[Int(random.next() % UInt64(Self.strayCells.count))]
                    continue
                }
                Self.mutate(&grid, &random)
                let broken = stray ? [] : invariantBreaks(grid)
                guard broken.isEmpty else {
                    Issue.record("seed \(seed), step \(step): the grid broke its invariant: \(broken)\nbefore \(before.lines)\nafter \(grid.lines)")
                    return
                }
            }
            switch random.next() % 50 {
            case 0:
                // The terminal was resized: a new grid with the old one drawn in, rubbish on the screen.
                var resized = Grid(width: Self.int(&random, 1...32), height: Self.int(&random, 1...8))
                resized.draw(grid, row: 0, column: 0)
                grid = resized
                screen = VirtualScreen(width: grid.width, height: grid.height)
                screen.scribble(seed: random.next())
            case 1:
                renderer.invalidate()
                screen.scribble(seed: random.next())
            default: break
            }
            let bytes = renderer.render(grid, mode: mode, glyphs: glyphs)
            totalBytes += bytes.count
            screen.apply(bytes)
            let wrong = differences(screen, expectedScreen(grid, mode: mode, glyphs: glyphs))
            guard screen.problems.isEmpty, wrong.isEmpty else {
                Issue.record(
                    "seed \(seed), step \(step): \(screen.problems) \(wrong.prefix(4))\nwrote \(visible(bytes))\nscreen \(screen.lines)\nwanted \(FrameRenderer.plainText(grid, glyphs: glyphs))")
                return
            }
            #expect(renderer.render(grid, mode: mode, glyphs: glyphs).isEmpty, "seed \(seed), step \(step): a second render")
        }
        #expect(totalBytes > 0)
    }
}
