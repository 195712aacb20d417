import NotiplayTerminal
import NotiplayViews
import NotiplayTestSupport

/// A small terminal for the tests: it applies the renderer's bytes as an xterm-compatible
/// terminal does, and records anything a correct renderer never sends.
///
/// Understood: `CUP` (`ESC[r;cH`), `CUF` (`ESC[nC`), `ED 2` (`ESC[2J`, erasing with the pen's
/// background, as terminals with `bce` do), `SGR` (the codes the renderer uses), and printable
/// UTF-8 text, wide characters taking two columns. Writing over either half of a wide character
/// blanks its other half, as xterm and VTE do. The last column behaves as on a VT100: the cursor
/// stays there with a wrap pending, and the next character would wrap (and, on the last row,
/// scroll): that is recorded as a problem.
struct VirtualScreen {
    let width: Int
    let height: Int
    /// The screen, row by row; a `nil` character is the right half of a wide character.
    private(set) var cells: [Cell]
    private(set) var row = 0
    private(set) var column = 0
    private(set) var wrapPending = false
    private(set) var pen = CellStyle.plain
    /// What a correct renderer would never have sent.
    private(set) var problems: [String] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: .blank, count: width * height)
    }

    /// Fills the screen with rubbish, as a terminal holds after a resize or another program.
    mutating func scribble(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for i in cells.indices {
            cells[i] = Cell(Character(Unicode.Scalar(UInt8(0x21 + random.next() % 90))), style: CellStyle(reverse: true))
        }
    }

    /// The screen's rows as text, for messages.
    var lines: [String] {
        (0..<height).map { y in
            String(cells[(y * width)..<((y + 1) * width)].compactMap { $0.character })
        }
    }

    subscript(row: Int, column: Int) -> Cell { cells[row * width + column] }

    mutating func apply(_ bytes: [UInt8]) {
        var i = 0
        var text: [UInt8] = []
        func flush(_ screen: inout VirtualScreen) {
            guard !text.isEmpty else { return }
            guard let string = String(validating: text, as: UTF8.self) else {
                screen.problems.append("invalid UTF-8 \(text)")
                text.removeAll()
                return
            }
            for character in string { screen.print(character) }
            text.removeAll()
        }
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x1B {
                flush(&self)
                guard i + 1 < bytes.count, bytes[i + 1] == 0x5B else {
                    problems.append("ESC not followed by [ at byte \(i)")
                    i += 1
                    continue
                }
                var j = i + 2
                var parameters: [Int?] = []
                var current: Int?
                while j < bytes.count, (0x30...0x3B).contains(bytes[j]) {
                    if bytes[j] == 0x3B {
                        parameters.append(current)
                        current = nil
                    } else if bytes[j] == 0x3A {
                        problems.append("colon in CSI")
                    } else {
                        current = (current ?? 0) * 10 + Int(bytes[j] - 0x30)
                    }
                    j += 1
                }
                parameters.append(current)
                guard j < bytes.count else {
                    problems.append("unfinished CSI at the end")
                    return
                }
                control(final: bytes[j], parameters)
                i = j + 1
            } else if byte < 0x20 || byte == 0x7F {
                flush(&self)
                problems.append("control byte 0x\(String(byte, radix: 16))")
                i += 1
            } else {
                text.append(byte)
                i += 1
            }
        }
        flush(&self)
    }

    private mutating func control(final: UInt8, _ parameters: [Int?]) {
        switch final {
        case 0x48:  // H
            let r = (parameters.first ?? nil) ?? 1
            let c = (parameters.count > 1 ? parameters[1] : nil) ?? 1
            if r < 1 || r > height || c < 1 || c > width { problems.append("CUP outside the screen: \(r);\(c)") }
            row = min(max(r, 1), height) - 1
            column = min(max(c, 1), width) - 1
            wrapPending = false
        case 0x43:  // C
            let n = max(1, (parameters.first ?? nil) ?? 1)
            if column + n >= width { problems.append("CUF past the right edge") }
            column = min(width - 1, column + n)
            wrapPending = false
        case 0x4A:  // J
            if (parameters.first ?? nil) != 2 {
                problems.append("ED other than 2")
                return
            }
            for i in cells.indices { cells[i] = Cell(" ", style: CellStyle(background: pen.background)) }
        case 0x6D:  // m
            sgr(parameters)
        default:
            problems.append("unexpected CSI final \(Character(Unicode.Scalar(final)))")
        }
    }

    private mutating func sgr(_ raw: [Int?]) {
        let parameters = raw.map { $0 ?? 0 }
        var i = 0
        func color(_ i: inout Int) -> TerminalColor? {
            guard i + 1 < parameters.count else { return nil }
            if parameters[i + 1] == 5, i + 2 < parameters.count {
                i += 2
                return .palette(UInt8(parameters[i]))
            }
            if parameters[i + 1] == 2, i + 4 < parameters.count {
                defer { i += 4 }
                return .rgb(UInt8(parameters[i + 2]), UInt8(parameters[i + 3]), UInt8(parameters[i + 4]))
            }
            return nil
        }
        while i < parameters.count {
            let p = parameters[i]
            switch p {
            case 0: pen = .plain
            case 1: pen.bold = true
            case 2: pen.dim = true
            case 3: pen.italic = true
            case 4: pen.underline = true
            case 7: pen.reverse = true
            case 22:
                pen.bold = false
                pen.dim = false
            case 23: pen.italic = false
            case 24: pen.underline = false
            case 27: pen.reverse = false
            case 30...37: pen.foreground = .ansi(UInt8(p - 30))
            case 39: pen.foreground = .standard
            case 40...47: pen.background = .ansi(UInt8(p - 40))
            case 49: pen.background = .standard
            case 90...97: pen.foreground = .ansi(UInt8(p - 90 + 8))
            case 100...107: pen.background = .ansi(UInt8(p - 100 + 8))
            case 38:
                guard let c = color(&i) else { return problems.append("bad SGR 38") }
                pen.foreground = c
            case 48:
                guard let c = color(&i) else { return problems.append("bad SGR 48") }
                pen.background = c
            default: problems.append("unexpected SGR \(p)")
            }
            i += 1
        }
    }

    private mutating func print(_ character: Character) {
        let w = CellWidth.of(character)
        guard w > 0 else { return problems.append("zero-width character \(character.unicodeScalars.map { $0.value })") }
        if wrapPending || column + w > width {
            problems.append("character \(character) would wrap at row \(row + 1)")
            wrapPending = false
            column = 0
            row += 1
            if row == height {
                problems.append("the screen scrolled")
                cells.removeFirst(width)
                cells.append(contentsOf: Array(repeating: .blank, count: width))
                row = height - 1
            }
        }
        let base = row * width
        // Blank the halves of wide characters this one overlaps only in part.
        if cells[base + column].isContinuation, column > 0 { cells[base + column - 1] = .blank }
        let end = column + w - 1
        if let c = cells[base + end].character, CellWidth.of(c) == 2, end + 1 < width {
            cells[base + end + 1] = .blank
        }
        cells[base + column] = Cell(character, style: pen)
        if w == 2 { cells[base + column + 1] = .continuation(pen) }
        column += w
        if column >= width {
            column = width - 1
            wrapPending = true
        }
    }
}


/// What the screen should show for `grid`: each cell's character, made ASCII for the ASCII
/// glyph set, in its style brought down to `mode`. Worked out here on its own, not with the
/// renderer's code: a character holding a control, a zero-width character, a wide character
/// without its right half and a right half without its wide character show as a space.
func expectedScreen(_ grid: Grid, mode: ColorMode, glyphs: GlyphSet) -> [Cell] {
    func width(_ c: Character) -> Int {
        c.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } ? 0 : CellWidth.of(c)
    }
    func isWholeWide(_ y: Int, _ x: Int) -> Bool {
        guard let c = grid[y, x].character, width(c) == 2 else { return false }
        return x + 1 < grid.width && grid[y, x + 1].isContinuation
    }
    var cells: [Cell] = []
    for y in 0..<grid.height {
        for x in 0..<grid.width {
            let cell = grid[y, x]
            let style = mode.map(cell.style)
            if let c = cell.character {
                let w = width(c)
                if w == 0 || (w == 2 && !isWholeWide(y, x)) {
                    cells.append(Cell(" ", style: style))
                } else {
                    cells.append(Cell(glyphs.isUnicode ? c : GlyphSet.asciiSafe(c).first!, style: style))
                }
            } else if x > 0, isWholeWide(y, x - 1) {
                let head = grid[y, x - 1]
                cells.append(
                    glyphs.isUnicode
                        ? .continuation(style) : Cell(GlyphSet.asciiSafe(head.character!).last!, style: mode.map(head.style)))
            } else {
                cells.append(Cell(" ", style: style))
            }
        }
    }
    return cells
}

/// Where `grid` breaks its own rule that a wide character is followed by its right half and a
/// right half follows a wide character.
func invariantBreaks(_ grid: Grid) -> [String] {
    var found: [String] = []
    for y in 0..<grid.height {
        for x in 0..<grid.width {
            let cell = grid[y, x]
            if let c = cell.character {
                if CellWidth.of(c) == 2 && !(x + 1 < grid.width && grid[y, x + 1].isContinuation) {
                    found.append("row \(y) column \(x): \(c) without its right half")
                }
            } else if x == 0 || grid[y, x - 1].character.map({ CellWidth.of($0) != 2 }) ?? true {
                found.append("row \(y) column \(x): a right half without its wide character")
            }
        }
    }
    return found
}

/// The differences between the screen and what it should show, as messages.
func differences(_ screen: VirtualScreen, _ expected: [Cell]) -> [String] {
    var found: [String] = []
    for (i, want) in expected.enumerated() {
        let got = screen.cells[i]
        let same = got.character == want.character && (want.isContinuation || got.style == want.style)
        if !same {
            found.append("row \(i / screen.width) column \(i % screen.width): \(String(describing: got)) ≠ \(String(describing: want))")
        }
    }
    return found
}

/// The bytes as text with ESC shown as `⎋`, for messages and exact comparisons.
func visible(_ bytes: [UInt8]) -> String {
    var out = ""
    for c in String(decoding: bytes, as: UTF8.self) { if c == "\u{1B}" { out += "⎋" } else { out.append(c) } }
    return out
}
