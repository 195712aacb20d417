/// The bytes of one frame as they are written, and where that leaves the terminal's cursor and
/// pen.
struct FrameWriter {
    /// The frame being written.
    let grid: Grid
    let mode: ColorMode
    let unicode: Bool
    /// What is written so far.
    var bytes: [UInt8] = []
    /// The terminal's current style, its colours already brought down to `mode`.
    var pen = CellStyle.plain
    /// The cursor's row and column from 0, or -1 when unknown (after the last column, after a
    /// character of uncertain width).
    var cursorRow = -1
    var cursorColumn = -1

    /// The longest unchanged gap worth pricing: a move takes at most 10 bytes on a screen under
    /// 1,000 rows and columns, and each rewritten cell at least one.
    static let longestGap = 12

    init(grid: Grid, mode: ColorMode, unicode: Bool) {
        self.grid = grid
        self.mode = mode
        self.unicode = unicode
        bytes.reserveCapacity(128)
    }

    /// Writes the marked characters of `row`, left to right.
    mutating func writeRow(_ row: Int, dirty: [Bool]) {
        var x = 0
        while x < grid.width {
            guard dirty[x] else {
                x += 1
                continue
            }
            let glyph = Glyph.at(grid, row: row, column: x, unicode: unicode)
            if glyph.isTail {  // Its wide character, marked too, was written already.
                x += 1
                continue
            }
            let style = mode.map(glyph.style)
            reach(row: row, column: x, then: style)
            setPen(style)
            put(glyph)
            x += glyph.width
        }
    }

    /// Brings the cursor to `row`, `column`: by writing again the unchanged characters before it
    /// on the same row when that is shorter, else by moving it.
    private mutating func reach(row: Int, column: Int, then style: CellStyle) {
        if cursorRow == row && cursorColumn == column { return }
        if cursorRow == row, cursorColumn >= 0, cursorColumn < column, column - cursorColumn <= Self.longestGap,
            let rewrite = gapLength(row: row, to: column, then: style),
            rewrite <= moveLength(row: row, column: column) + SGR.length(from: pen, to: style)
        {
            var x = cursorColumn
            while x < column {
                let glyph = Glyph.at(grid, row: row, column: x, unicode: unicode)
                setPen(mode.map(glyph.style))
                put(glyph)
                x += glyph.width
            }
            return
        }
        move(row: row, column: column)
    }

    /// The bytes that rewrite the characters from the cursor to `column` and then set `style`;
    /// `nil` when that cannot be done safely.
    private func gapLength(row: Int, to column: Int, then style: CellStyle) -> Int? {
        var pen = self.pen
        var length = 0
        var x = cursorColumn
        while x < column {
            let glyph = Glyph.at(grid, row: row, column: x, unicode: unicode)
            guard !glyph.isTail, glyph.certainWidth, x + glyph.width <= column else { return nil }
            let glyphStyle = mode.map(glyph.style)
            length += SGR.length(from: pen, to: glyphStyle) + glyph.text.utf8.count
            pen = glyphStyle
            x += glyph.width
        }
        return length + SGR.length(from: pen, to: style)
    }

    /// Writes `glyph` where the cursor is, in the current pen.
    private mutating func put(_ glyph: Glyph) {
        bytes.append(contentsOf: glyph.text.utf8)
        cursorColumn += glyph.width
        if cursorColumn >= grid.width || !glyph.certainWidth {
            // The last column leaves the terminal waiting to wrap; never print from there.
            cursorRow = -1
            cursorColumn = -1
        }
    }

    /// Sets the terminal's style to `style` (colours already for `mode`).
    mutating func setPen(_ style: CellStyle) {
        guard pen != style else { return }
        SGR.append(from: pen, to: style, into: &bytes)
        pen = style
    }

    /// Turns every attribute and colour off.
    mutating func resetPen() {
        setPen(.plain)
    }

    /// Moves the cursor to `row`, `column` (from 0) with the shortest sequence: none, `CUF`
    /// along the row, or `CUP`.
    mutating func move(row: Int, column: Int) {
        if cursorRow == row && cursorColumn == column { return }
        if cursorRow == row, cursorColumn >= 0, cursorColumn < column,
            Self.forwardLength(column - cursorColumn) < Self.positionLength(row: row, column: column)
        {
            let n = column - cursorColumn
            bytes.append(contentsOf: [0x1B, 0x5B])
            if n > 1 { appendDecimal(n) }
            bytes.append(0x43)  // C
        } else {
            bytes.append(contentsOf: [0x1B, 0x5B])
            if row > 0 || column > 0 { appendDecimal(row + 1) }
            if column > 0 {
                bytes.append(0x3B)
                appendDecimal(column + 1)
            }
            bytes.append(0x48)  // H
        }
        cursorRow = row
        cursorColumn = column
    }

    /// The bytes `move(row:column:)` would write.
    private func moveLength(row: Int, column: Int) -> Int {
        if cursorRow == row && cursorColumn == column { return 0 }
        let position = Self.positionLength(row: row, column: column)
        if cursorRow == row, cursorColumn >= 0, cursorColumn < column {
            return min(position, Self.forwardLength(column - cursorColumn))
        }
        return position
    }

    /// `ESC[n C`, with n left out when it is 1.
    static func forwardLength(_ n: Int) -> Int { 3 + (n > 1 ? digits(n) : 0) }

    /// `ESC[row;col H`, with the defaults (1) left out.
    static func positionLength(row: Int, column: Int) -> Int {
        if row == 0 && column == 0 { return 3 }
        return 3 + digits(row + 1) + (column > 0 ? 1 + digits(column + 1) : 0)
    }

    static func digits(_ n: Int) -> Int {
        var count = 1
        var rest = n / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }

    private mutating func appendDecimal(_ n: Int) {
        SGR.appendDecimal(n, into: &bytes)
    }
}

/// Select Graphic Rendition: the escape sequences that set the pen.
enum SGR {
    /// Appends the shortest sequence that changes `pen` to `style`: the attributes turned off
    /// (22 bold and dim, 23, 24, 27) and on and the colours changed, or a reset (0) and all of
    /// `style`. Nothing when they are equal.
    static func append(from pen: CellStyle, to style: CellStyle, into bytes: inout [UInt8]) {
        guard pen != style else { return }
        let change = changeParameters(from: pen, to: style)
        let reset = resetParameters(style)
        appendSequence(encodedLength(change) < encodedLength(reset) ? change : reset, into: &bytes)
    }

    /// The bytes `append(from:to:into:)` writes.
    static func length(from pen: CellStyle, to style: CellStyle) -> Int {
        guard pen != style else { return 0 }
        return min(encodedLength(changeParameters(from: pen, to: style)), encodedLength(resetParameters(style)))
    }

    static func changeParameters(from pen: CellStyle, to style: CellStyle) -> [Int] {
        var parameters: [Int] = []
        if (pen.bold && !style.bold) || (pen.dim && !style.dim) {
            parameters.append(22)  // turns off both
            if style.bold { parameters.append(1) }
            if style.dim { parameters.append(2) }
        } else {
            if style.bold && !pen.bold { parameters.append(1) }
            if style.dim && !pen.dim { parameters.append(2) }
        }
        if pen.italic != style.italic { parameters.append(style.italic ? 3 : 23) }
        if pen.underline != style.underline { parameters.append(style.underline ? 4 : 24) }
        if pen.reverse != style.reverse { parameters.append(style.reverse ? 7 : 27) }
        if pen.foreground != style.foreground { appendColor(style.foreground, background: false, to: &parameters) }
        if pen.background != style.background { appendColor(style.background, background: true, to: &parameters) }
        return parameters
    }

    static func resetParameters(_ style: CellStyle) -> [Int] {
        var parameters = [0]
        if style.bold { parameters.append(1) }
        if style.dim { parameters.append(2) }
        if style.italic { parameters.append(3) }
        if style.underline { parameters.append(4) }
        if style.reverse { parameters.append(7) }
        if style.foreground != .standard { appendColor(style.foreground, background: false, to: &parameters) }
        if style.background != .standard { appendColor(style.background, background: true, to: &parameters) }
        return parameters
    }

    static func appendColor(_ color: TerminalColor, background: Bool, to parameters: inout [Int]) {
        let offset = background ? 10 : 0
        switch color {
        case .standard: parameters.append(39 + offset)
        case .ansi(let n) where n < 8: parameters.append(30 + offset + Int(n))
        case .ansi(let n) where n < 16: parameters.append(90 + offset + Int(n) - 8)
        case .ansi(let n), .palette(let n): parameters.append(contentsOf: [38 + offset, 5, Int(n)])
        case .rgb(let r, let g, let b): parameters.append(contentsOf: [38 + offset, 2, Int(r), Int(g), Int(b)])
        }
    }

    static func encodedLength(_ parameters: [Int]) -> Int {
        var length = 2 + parameters.count  // ESC [, the separators and the final m
        for p in parameters { length += FrameWriter.digits(p) }
        return length
    }

    static func appendSequence(_ parameters: [Int], into bytes: inout [UInt8]) {
        bytes.append(contentsOf: [0x1B, 0x5B])
        for (i, p) in parameters.enumerated() {
            if i > 0 { bytes.append(0x3B) }
            appendDecimal(p, into: &bytes)
        }
        bytes.append(0x6D)  // m
    }

    static func appendDecimal(_ n: Int, into bytes: inout [UInt8]) {
        if n >= 10 { appendDecimal(n / 10, into: &bytes) }
        bytes.append(0x30 + UInt8(n % 10))
    }
}
