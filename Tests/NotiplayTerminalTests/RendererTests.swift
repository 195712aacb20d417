import NotiplayTerminal
import NotiplayViews
import Testing

/// Renders `grid`, applies the bytes to `screen`, and checks the screen shows the grid.
@discardableResult
private func draw(
    _ grid: Grid, _ renderer: inout FrameRenderer, _ screen: inout VirtualScreen, mode: ColorMode = .trueColor,
    glyphs: GlyphSet = .unicode, sourceLocation: SourceLocation = #_sourceLocation
) -> String {
    let bytes = renderer.render(grid, mode: mode, glyphs: glyphs)
    screen.apply(bytes)
    #expect(screen.problems.isEmpty, "\(screen.problems)", sourceLocation: sourceLocation)
    return visible(bytes)
}

private func lines(_ rows: [String], width: Int) -> Grid {
    var grid = Grid(width: width, height: rows.count)
    for (y, text) in rows.enumerated() { grid.put(text, row: y, column: 0) }
    return grid
}

@Suite("Frame renderer: full frames, differences, colours, wide characters")
struct RendererTests {
    @Test("the first frame is drawn whole: reset, clear, home, the text, the cursor parked")
    func firstFrame() {
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 5, height: 2)
        screen.scribble(seed: 1)
        #expect(renderer.needsFullRedraw)
        let out = draw(lines(["hi", ""], width: 5), &renderer, &screen)
        #expect(out == "⎋[0m⎋[2J⎋[Hhi⎋[2H")
        #expect(screen.lines == ["hi   ", "     "])
        #expect(!renderer.needsFullRedraw)
    }

    @Test("an unchanged frame writes nothing")
    func unchanged() {
        var renderer = FrameRenderer()
        let grid = audioCardFrame(position: 1, duration: 3)
        #expect(!renderer.render(grid, mode: .trueColor, glyphs: .unicode).isEmpty)
        #expect(renderer.render(grid, mode: .trueColor, glyphs: .unicode).isEmpty)
        #expect(renderer.render(grid, mode: .trueColor, glyphs: .unicode).isEmpty)
        // Equal content in another grid value: still nothing.
        #expect(renderer.render(audioCardFrame(position: 1, duration: 3), mode: .trueColor, glyphs: .unicode).isEmpty)
    }

    @Test("invalidate, a new size, a new colour mode or glyph set: drawn whole again")
    func fullRedraws() {
        var renderer = FrameRenderer()
        let grid = lines(["abc", "def"], width: 4)
        _ = renderer.render(grid, mode: .trueColor, glyphs: .unicode)
        renderer.invalidate()
        #expect(renderer.needsFullRedraw)
        #expect(visible(renderer.render(grid, mode: .trueColor, glyphs: .unicode)).hasPrefix("⎋[0m⎋[2J⎋[H"))
        #expect(visible(renderer.render(lines(["abc", "def"], width: 5), mode: .trueColor, glyphs: .unicode)).hasPrefix("⎋[0m⎋[2J"))
        #expect(visible(renderer.render(lines(["abc", "def"], width: 5), mode: .ansi16, glyphs: .unicode)).hasPrefix("⎋[0m⎋[2J"))
        #expect(visible(renderer.render(lines(["abc", "def"], width: 5), mode: .ansi16, glyphs: .ascii)).hasPrefix("⎋[0m⎋[2J"))
        #expect(renderer.render(lines(["abc", "def"], width: 5), mode: .ansi16, glyphs: .ascii).isEmpty)
    }

    @Test("only the changed cell is written, the cursor moved once, then parked")
    func oneCell() {
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 20, height: 5)
        var grid = lines(["row zero", "row one", "row two", "row three", "row four"], width: 20)
        draw(grid, &renderer, &screen)
        grid.put("Z", row: 3, column: 5)
        #expect(draw(grid, &renderer, &screen) == "⎋[4;6HZ⎋[5H")
        #expect(screen.lines[3] == "row tZree           ")
    }

    @Test("a short unchanged gap is rewritten; a long one is skipped with CUF")
    func gaps() {
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 30, height: 3)
        var grid = lines(["abcdefghijklmnopqrstuvwxyz", "", ""], width: 30)
        draw(grid, &renderer, &screen)
        grid.put("C", row: 0, column: 2)
        grid.put("E", row: 0, column: 4)
        #expect(draw(grid, &renderer, &screen) == "⎋[1;3HCdE⎋[3H")
        grid.put("B", row: 0, column: 1)
        grid.put("U", row: 0, column: 20)
        #expect(draw(grid, &renderer, &screen) == "⎋[1;2HB⎋[18CU⎋[3H")
        // A gap whose rewriting would need two SGRs costs more than a move over it.
        grid.put("c", row: 0, column: 2, style: .bold)
        _ = draw(grid, &renderer, &screen)
        grid.put("A", row: 0, column: 0)
        grid.put("e", row: 0, column: 4)
        #expect(draw(grid, &renderer, &screen) == "⎋[HA⎋[3Ce⎋[3H")
        #expect(screen.lines[0].hasPrefix("ABcdefghijklmnopqrstUvwxyz"))
    }

    @Test("SGR only when the style changes; attributes off one by one or by a reset, whichever is shorter")
    func sgrTransitions() {
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 4, height: 1)
        var grid = Grid(width: 4, height: 1)
        grid.put("a", row: 0, column: 0, style: CellStyle(bold: true, underline: true))
        grid.put("b", row: 0, column: 1, style: CellStyle(underline: true))
        grid.put("cd", row: 0, column: 2)
        #expect(draw(grid, &renderer, &screen) == "⎋[0m⎋[2J⎋[H⎋[1;4ma⎋[22mb⎋[0mcd⎋[H")
        grid.put("xy", row: 0, column: 0, style: CellStyle(foreground: .red, reverse: true))
        #expect(draw(grid, &renderer, &screen) == "⎋[7;31mxy⎋[0m⎋[H")
    }

    @Test("SGR in each colour mode; without colour, bold, dim, underline and reverse stay", arguments: [
        (ColorMode.trueColor, "⎋[1;4;38;2;255;0;0;48;5;21mX"),
        (.palette256, "⎋[1;4;38;5;196;48;5;21mX"),
        (.ansi16, "⎋[1;4;91;44mX"),
        (.none, "⎋[1;4mX"),
    ])
    func sgrModes(_ mode: ColorMode, _ expected: String) {
        var grid = Grid(width: 1, height: 1)
        grid.put("X", row: 0, column: 0, style: CellStyle(foreground: .rgb(255, 0, 0), background: .palette(21), bold: true, underline: true))
        var renderer = FrameRenderer()
        #expect(visible(renderer.render(grid, mode: mode, glyphs: .unicode)) == "⎋[0m⎋[2J⎋[H" + expected + "⎋[0m⎋[H")
    }

    @Test("NO_COLOR: the overlay button's dimness and the reverse video still show")
    func noColorKeepsDim() {
        var grid = Grid(width: 3, height: 1)
        grid.put("▶", row: 0, column: 0, style: CellStyle(foreground: .systemTint, dim: true))
        grid.put("1", row: 0, column: 2, style: CellStyle(foreground: .green, reverse: true))
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 3, height: 1)
        #expect(draw(grid, &renderer, &screen, mode: .none) == "⎋[0m⎋[2J⎋[H⎋[2m▶⎋[0m ⎋[7m1⎋[0m⎋[H")
        #expect(screen[0, 0].style == CellStyle(dim: true))
        #expect(screen[0, 2].style == CellStyle(reverse: true))
    }

    @Test("wide characters in differences: written once, both halves redrawn when either changes")
    func wideCharacters() {
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 10, height: 2)
        var grid = lines(["ab日本cd", ""], width: 10)
        #expect(draw(grid, &renderer, &screen) == "⎋[0m⎋[2J⎋[Hab日本cd⎋[2H")
        grid.put("🔇", row: 0, column: 4)
        #expect(draw(grid, &renderer, &screen) == "⎋[1;5H🔇⎋[2H")
        grid.put("x", row: 0, column: 3)  // over 日's right half
        #expect(draw(grid, &renderer, &screen) == "⎋[1;3H x⎋[2H")
        #expect(screen.lines[0] == "ab x🔇cd  ")
        grid.put("日本", row: 0, column: 0)
        #expect(draw(grid, &renderer, &screen) == "⎋[H日本⎋[2H")
        grid.put("q", row: 0, column: 4)  // over 🔇's left half
        #expect(draw(grid, &renderer, &screen) == "⎋[1;5Hq ⎋[2H")
        #expect(screen.lines[0] == "日本q cd  ")
        #expect(differences(screen, expectedScreen(grid, mode: .trueColor, glyphs: .unicode)).isEmpty)
    }

    @Test("a wide character whose width terminals disagree on: the cursor is placed again after it")
    func uncertainWidth() {
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 10, height: 1)
        #expect(draw(lines(["❤️ab"], width: 10), &renderer, &screen) == "⎋[0m⎋[2J⎋[H❤️⎋[1;3Hab⎋[H")
    }

    @Test("the last column of the last row: written without a wrap, the cursor placed again after it")
    func lastCell() {
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 3, height: 2)
        var grid = lines(["xxx", "xxx"], width: 3)
        #expect(draw(grid, &renderer, &screen) == "⎋[0m⎋[2J⎋[Hxxx⎋[2Hxxx⎋[2H")
        grid.put("Y", row: 1, column: 2)
        #expect(draw(grid, &renderer, &screen) == "xxY⎋[2H")
        grid.put("P", row: 0, column: 2)
        grid.put("Q", row: 1, column: 0)
        #expect(draw(grid, &renderer, &screen) == "⎋[1;3HP⎋[2HQ⎋[2H")
        grid.put("日", row: 1, column: 1)
        #expect(draw(grid, &renderer, &screen) == "Q日⎋[2H")
        #expect(screen.lines == ["xxP", "Q日"])
    }

    @Test("cells holding controls, lone halves or zero-width characters are drawn as spaces")
    func defensive() {
        var grid = Grid(width: 8, height: 1)
        grid[0, 0] = Cell("\u{1B}")
        grid[0, 1] = Cell("\u{9B}")
        grid[0, 2] = Cell("\r\n")
        grid[0, 3] = Cell("\u{7F}")
        grid[0, 4] = Cell("\u{200B}")
        grid[0, 5] = .continuation(.plain)  // no wide character before it
        grid[0, 6] = Cell("日")  // no right half after it
        grid[0, 7] = Cell("z")
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 8, height: 1)
        let bytes = renderer.render(grid, mode: .trueColor, glyphs: .unicode)
        screen.apply(bytes)
        #expect(screen.problems.isEmpty, "\(screen.problems)")
        #expect(screen.lines == ["       z"])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0.value != 0x1B) || (0x7F...0x9F).contains($0.value) })
        #expect(FrameRenderer.plainText(grid) == "       z")
    }

    @Test("a wide character losing its right half in a grid built cell by cell")
    func brokenWide() {
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 4, height: 1)
        var grid = lines(["日x"], width: 4)
        draw(grid, &renderer, &screen)
        grid[0, 1] = Cell("z")  // 日 keeps its cell but loses its right half
        #expect(draw(grid, &renderer, &screen) == " z⎋[H")
        #expect(screen.lines == [" zx "])
    }

    @Test("the ASCII glyph set: every character made ASCII in the same columns")
    func asciiGlyphs() {
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 10, height: 1)
        var grid = lines(["é日▶─"], width: 10)
        #expect(draw(grid, &renderer, &screen, glyphs: .ascii) == "⎋[0m⎋[2J⎋[He??>-⎋[H")
        grid.put("本", row: 0, column: 1)
        #expect(draw(grid, &renderer, &screen, glyphs: .ascii) == "e??⎋[H")
    }

    @Test("plain text: rows joined, trailing spaces trimmed, wide characters once, no escapes")
    func plainText() {
        var grid = Grid(width: 8, height: 3)
        grid.put("hi", row: 0, column: 0, style: .bold)
        grid.put("日本x", row: 1, column: 1)
        #expect(FrameRenderer.plainText(grid) == "hi\n 日本x\n")
        #expect(FrameRenderer.plainText(grid, glyphs: .ascii) == "hi\n ????x\n")
        #expect(FrameRenderer.plainText(Grid(width: 0, height: 0)) == "")
    }

    @Test("a position update writes at most 64 bytes: one digit of 0:01 / 0:03 and one cell of the bar")
    func positionBudget() {
        var renderer = FrameRenderer()
        var screen = VirtualScreen(width: 60, height: 10)
        draw(audioCardFrame(position: 1, duration: 3, filled: 14), &renderer, &screen)
        let update = renderer.render(audioCardFrame(position: 2, duration: 3, filled: 15), mode: .trueColor, glyphs: .unicode)
        screen.apply(update)
        #expect(update.count <= 64, "\(update.count) bytes: \(visible(update))")
        #expect(visible(update) == "⎋[6;18H⎋[94m█⎋[32C⎋[0m2⎋[10H")
        #expect(screen.problems.isEmpty)
        #expect(differences(screen, expectedScreen(audioCardFrame(position: 2, duration: 3, filled: 15), mode: .trueColor, glyphs: .unicode)).isEmpty)
    }

    @Test("position updates of whole clips stay within 64 bytes in every mode", arguments: ColorMode.allCases)
    func positionBudgetSweep(_ mode: ColorMode) {
        // mpv reports time-pos about every 100 ms: a 3 s clip at that pace, a 3 min clip each second,
        // and the 3 s clip one bar cell at a time.
        for (duration, step) in [(3.0, 0.1), (180.0, 1.0), (3.0, 3.0 / 43)] {
            for glyphs in [GlyphSet.unicode, .ascii] {
                var renderer = FrameRenderer()
                var screen = VirtualScreen(width: 60, height: 10)
                screen.apply(renderer.render(audioCardFrame(position: 0, duration: duration), mode: mode, glyphs: glyphs))
                var worst = 0
                var position = step
                while position <= duration {
                    let grid = audioCardFrame(position: position, duration: duration)
                    let update = renderer.render(grid, mode: mode, glyphs: glyphs)
                    screen.apply(update)
                    worst = max(worst, update.count)
                    position += step
                }
                #expect(worst <= 64, "\(duration) s clip, \(mode), unicode \(glyphs.isUnicode): \(worst) bytes")
                #expect(screen.problems.isEmpty)
                #expect(differences(screen, expectedScreen(audioCardFrame(position: position - step, duration: duration), mode: mode, glyphs: glyphs)).isEmpty)
            }
        }
    }
}
