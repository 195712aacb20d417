/// Turns each frame of the card into the bytes that put it on the terminal, writing only what
/// changed since the frame before.
///
/// The grid is drawn from the terminal's top-left corner, with the cursor hidden (the terminal
/// guard hides it). The first frame, a frame of another size, a frame in another ``ColorMode``
/// or ``GlyphSet``, and the frame after ``invalidate()`` are drawn whole: pen reset, screen
/// cleared, cursor home, then every cell that is not blank. Any other frame is compared with
/// the last one, and only the cells that differ are written:
/// - in runs along a row, the cursor moved only where a run starts (`CUP`, or `CUF` when that is
///   shorter), and a short unchanged gap between two runs rewritten when that takes fewer bytes
///   than moving over it;
/// - with an `SGR` only where the style changes, adding and removing attributes one by one or
///   resetting with `ESC[0m`, whichever is shorter;
/// - a wide character (`日`, `🔇`) written once for its two columns; when either half changes,
///   or a new character overlaps an old wide one, both halves are rewritten, as a terminal
///   blanks the other half of a wide character written over;
/// - every frame ends with the pen reset and the cursor parked at the start of the grid's last
///   row, so a frame in which nothing changed writes nothing at all.
///
/// Autowrap: after a character in the grid's last column the cursor is taken as unknown and the
/// next write positions it first, so the pending wrap (the VT100 "last column" state) never
/// turns into a line feed and the screen never scrolls, even from the bottom-right cell. The
/// same is done after a wide character made of several scalars (`❤️`, flags), whose width
/// terminals disagree on.
///
/// What reaches the terminal from a cell is its character and nothing else: a C0 or C1 control
/// or DEL that got into a cell (a grid built cell by cell, bypassing ``Grid/put(_:row:column:style:limit:)``)
/// is dropped, and a cell left empty by that, a zero-width character, a wide character without its
/// right half and a right half without its wide character are drawn as a space. With the
/// ``GlyphSet/ascii`` set every character is made ASCII (`GlyphSet.asciiSafe(_:)`), keeping its
/// columns.
///
/// After a write that did not reach the terminal (or anything else drew on it), call
/// ``invalidate()``.
public struct FrameRenderer: Sendable {
    /// The last frame drawn, and how it was drawn; `nil` when the next frame is drawn whole.
    private var last: Grid?
    private var lastMode = ColorMode.none
    private var lastGlyphs = GlyphSet.unicode
    /// Which columns of the row being compared must be written; kept between frames.
    private var dirty: [Bool] = []

    /// A renderer whose first frame is drawn whole.
    public init() {}

    /// Makes the next frame a full redraw: after a resize, a failed write, or output of
    /// anything else on the terminal.
    public mutating func invalidate() {
        last = nil
    }

    /// Whether the next frame will be drawn whole whatever it holds.
    public var needsFullRedraw: Bool { last == nil }

    /// The bytes that change the screen from the last frame to `grid`, for one `write`.
    ///
    /// Empty when nothing changed. The grid becomes the last frame.
    /// - Parameters:
    ///   - grid: The frame.
    ///   - mode: The colours the terminal shows; the grid's colours are brought down to them.
    ///   - glyphs: The glyph set; with ``GlyphSet/ascii`` every character is written as ASCII.
    public mutating func render(_ grid: Grid, mode: ColorMode, glyphs: GlyphSet) -> [UInt8] {
        // The frame to compare with: the last one if it was drawn the same way, else a blank screen.
        let previous = last.flatMap { last in
            last.width == grid.width && last.height == grid.height && mode == lastMode && glyphs == lastGlyphs
                ? last : nil
        }
        let full = previous == nil
        let old = previous ?? Grid(width: grid.width, height: grid.height)
        let parkRow = max(0, grid.height - 1)
        var writer = FrameWriter(grid: grid, mode: mode, unicode: glyphs.isUnicode)
        if full {
            writer.bytes.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D, 0x1B, 0x5B, 0x32, 0x4A, 0x1B, 0x5B, 0x48])  // ESC[0m ESC[2J ESC[H
            writer.cursorRow = 0
            writer.cursorColumn = 0
        } else {
            writer.cursorRow = parkRow
            writer.cursorColumn = 0
        }
        if dirty.count < grid.width { dirty = Array(repeating: false, count: grid.width) }
        for row in 0..<grid.height where markChanges(row: row, old: old, new: grid, unicode: glyphs.isUnicode) {
            writer.writeRow(row, dirty: dirty)
        }
        if !writer.bytes.isEmpty {
            writer.resetPen()
            writer.move(row: parkRow, column: 0)
        }
        last = grid
        lastMode = mode
        lastGlyphs = glyphs
        return writer.bytes
    }

    /// Marks in `dirty` the columns of `row` to write; returns whether there is any.
    ///
    /// A column differs when its cell does; the marks then grow to whole characters of both
    /// frames, until stable: a half of a wide character (new or old) brings its other half.
    private mutating func markChanges(row: Int, old: Grid, new: Grid, unicode: Bool) -> Bool {
        let width = new.width
        let base = row * width
        var any = false
        old.cells.withUnsafeBufferPointer { oldCells in
            new.cells.withUnsafeBufferPointer { newCells in
                for x in 0..<width {
                    let changed = oldCells[base + x] != newCells[base + x]
                    dirty[x] = changed
                    any = any || changed
                }
            }
        }
        guard any else { return false }
        var grew = true
        while grew {
            grew = false
            for x in 0..<width where dirty[x] {
                for pass in 0..<2 {
                    let glyph = Glyph.at(pass == 0 ? old : new, row: row, column: x, unicode: unicode)
                    if glyph.isTail, x > 0, !dirty[x - 1] {
                        dirty[x - 1] = true
                        grew = true
                    } else if glyph.width == 2, x + 1 < width, !dirty[x + 1] {
                        dirty[x + 1] = true
                        grew = true
                    }
                }
            }
        }
        return true
    }

    /// The grid as plain lines, for output that is not a terminal: each row's characters (a wide
    /// character once), trailing spaces removed, rows joined with `\n`, no escape sequences.
    /// - Parameters:
    ///   - grid: The frame.
    ///   - glyphs: With ``GlyphSet/ascii`` every character is made ASCII.
    public static func plainText(_ grid: Grid, glyphs: GlyphSet = .unicode) -> String {
        var lines: [String] = []
        lines.reserveCapacity(grid.height)
        for row in 0..<grid.height {
            var line = ""
            for column in 0..<grid.width {
                let glyph = Glyph.at(grid, row: row, column: column, unicode: glyphs.isUnicode)
                if !glyph.isTail { line += glyph.text }
            }
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// What one cell puts on the screen.
struct Glyph {
    /// The text written: one character, or its ASCII stand-in; empty for a right half.
    var text: String
    /// The columns it takes: 1 or 2; 0 for the right half of a wide character.
    var width: Int
    /// Its style, before the colour mode.
    var style: CellStyle
    /// Whether every terminal agrees on its width.
    var certainWidth: Bool

    var isTail: Bool { width == 0 }

    /// What the cell at `row`, `column` of `grid` shows.
    static func at(_ grid: Grid, row: Int, column: Int, unicode: Bool) -> Glyph {
        let cell = grid[row, column]
        guard let character = cell.character else {
            if column > 0, let head = grid[row, column - 1].character, shown(head, unicode: unicode).width == 2 {
                return Glyph(text: "", width: 0, style: cell.style, certainWidth: true)
            }
            return Glyph(text: " ", width: 1, style: cell.style, certainWidth: true)
        }
        var (text, width, certain) = shown(character, unicode: unicode)
        if width == 2 && !(column + 1 < grid.width && grid[row, column + 1].isContinuation) {
            (text, width, certain) = (" ", 1, true)
        }
        return Glyph(text: text, width: width, style: cell.style, certainWidth: certain)
    }

    /// How `character` is written: its text without controls, its width (1 or 2), and whether
    /// terminals agree on that width.
    static func shown(_ character: Character, unicode: Bool) -> (text: String, width: Int, certain: Bool) {
        let scalars = character.unicodeScalars
        let first = scalars.first!.value
        if first >= 0x20 && first < 0x7F && scalars.count == 1 { return (String(character), 1, true) }
        var clean = character
        if scalars.contains(where: isControl) {
            var kept = String.UnicodeScalarView()
            kept.append(contentsOf: scalars.lazy.filter { !isControl($0) })
            let rest = String(kept)
            guard rest.count == 1, let only = rest.first else { return (" ", 1, true) }
            clean = only
        }
        let width = CellWidth.of(clean)
        if width == 0 { return (" ", 1, true) }
        // What would join a neighbour on the terminal (a text's leading combining mark, half a
        // flag) is written as blank columns; a trailing joiner or virama is left off.
        guard let standalone = ClusterEdges.standalone(clean) else {
            return (String(repeating: " ", count: width), width, true)
        }
        clean = standalone
        if !unicode { return (GlyphSet.asciiSafe(clean), width, true) }
        return (String(clean), width, width == 1 || clean.unicodeScalars.count == 1)
    }

    /// C0 and C1 controls and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
