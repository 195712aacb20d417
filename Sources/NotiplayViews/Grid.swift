/// A rectangle of cells: what one frame of the card shows.
///
/// Writing is clipped to the grid; a wide character that would straddle the right edge (or a
/// clip edge) is drawn as a space instead. Control characters never enter a grid.
///
/// A grid also knows where the ``Button``s drawn into it are (``controls``): a grid drawn into
/// another (``draw(_:row:column:)``) brings its controls along, moved and clipped, so a card
/// knows where each of its extension's buttons ended up, however they were nested.
public struct Grid: Sendable, Hashable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// The cells, row by row.
    public private(set) var cells: [Cell]
    /// The buttons drawn into the grid, in the order they were drawn, each with its cells here.
    public package(set) var controls: [Control] = []
    /// The pictures drawn into the grid (an ``ImageView``'s image over its stand-in text), each
    /// with its cells here. Drawn into another grid, a picture comes along moved; one that would
    /// be cut there is left out (its stand-in shows).
    public var pictures: [Picture] = []

    /// A grid of blank cells.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The cell at `row`, `column` (both from 0).
    public subscript(row: Int, column: Int) -> Cell {
        get { cells[row * width + column] }
        set { cells[row * width + column] = newValue }
    }

    /// The cells of `row`.
    public func row(_ row: Int) -> ArraySlice<Cell> {
        cells[(row * width)..<((row + 1) * width)]
    }

    /// Writes `text` on `row` from `column`, in `style`, stopping before column `limit` (default:
    /// the right edge). Returns the column after the last one written.
    @discardableResult
    public mutating func put(_ text: some StringProtocol, row: Int, column: Int, style: CellStyle = .plain, limit: Int? = nil) -> Int {
        let end = min(limit ?? width, width)
        guard row >= 0, row < height else { return column }
        var x = column
        for character in text {
            let w = CellWidth.of(character)
            if w == 0 { continue }
            if x >= end { break }
            if x < 0 {
                x += w
                continue
            }
            if w == 2 && x + 1 >= end {
                clearWide(row: row, column: x)
                self[row, x] = Cell(" ", style: style)
                x += 1
                break
            }
            clearWide(row: row, column: x)
            self[row, x] = Cell(character, style: style)
            if w == 2 {
                clearWide(row: row, column: x + 1)
                self[row, x + 1] = .continuation(style)
            }
            x += w
        }
        return x
    }

    /// Fills `rect` (clipped) with `cell`; a picture there goes.
    public mutating func fill(row: Int, column: Int, width w: Int, height h: Int, with cell: Cell = .blank) {
        let (top, bottom) = (max(0, row), min(height, row + h))
        let (left, right) = (max(0, column), min(width, column + w))
        guard top < bottom, left < right else { return }
        let filled = Rect(x: left, y: top, width: right - left, height: bottom - top)
        pictures.removeAll { $0.frame.intersection(filled) != nil }
        for y in top..<bottom {
            for x in left..<right {
                clearWide(row: y, column: x)
                self[y, x] = cell
            }
        }
    }

    /// Copies `other` into this grid with its top-left corner at `row`, `column`, clipped; its
    /// ``controls`` come along, moved there and clipped (a control clipped away entirely is left
    /// out).
    public mutating func draw(_ other: Grid, row: Int, column: Int) {
        for control in other.controls {
            if let frame = control.frame.offset(x: column, y: row).clipped(width: width, height: height) {
                controls.append(Control(frame: frame, title: control.title, action: control.action))
            }
        }
        for picture in other.pictures {
            var moved = picture
            moved.frame = picture.frame.offset(x: column, y: row)
            if moved.frame.clipped(width: width, height: height) == moved.frame { pictures.append(moved) }
        }
        for y in 0..<other.height where row + y >= 0 && row + y < height {
            for x in 0..<other.width where column + x >= 0 && column + x < width {
                let cell = other[y, x]
                if cell.isContinuation && column + x == max(0, column) && x > 0 {
                    // The left half was clipped away.
                    clearWide(row: row + y, column: column + x)
                    self[row + y, column + x] = Cell(" ", style: cell.style)
                    continue
                }
                clearWide(row: row + y, column: column + x)
                self[row + y, column + x] = cell
            }
            // A wide character cut at the right clip edge.
            let last = column + other.width - 1
            if last + 1 > width, width > 0, self[row + y, width - 1].character != nil,
                CellWidth.of(self[row + y, width - 1].character!) == 2
            {
                self[row + y, width - 1] = Cell(" ", style: self[row + y, width - 1].style)
            }
        }
    }

    /// Overwriting either half of a wide character blanks the other half.
    private mutating func clearWide(row: Int, column: Int) {
        let cell = self[row, column]
        if cell.isContinuation, column > 0 {
            self[row, column - 1] = Cell(" ", style: self[row, column - 1].style)
        } else if let c = cell.character, CellWidth.of(c) == 2, column + 1 < width {
            self[row, column + 1] = Cell(" ", style: self[row, column + 1].style)
        }
    }

    /// The text of each row, wide characters once, trailing spaces kept: for tests and plain output.
    public var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for cell in row(y) { if let c = cell.character { line.append(c) } }
            return line
        }
    }
}

extension Grid {
    /// A place in a grid that takes a click or Enter: a ``Button`` drawn there.
    ///
    /// Two controls are equal when they show the same title on the same cells (their actions,
    /// closures, cannot be compared), so that grids compare by what they show.
    public struct Control: Sendable, Hashable {
        /// Its cells in the grid.
        public var frame: Rect
        /// Its title (cleaned), as a script names it.
        public var title: String
        /// What it does when activated: called on the main actor by the runtime, inside the
        /// card's scope, as iOS calls an `@IBAction`.
        public let action: @MainActor () -> Void

        /// A control on `frame` titled `title` doing `action`.
        public init(frame: Rect, title: String, action: @escaping @MainActor () -> Void) {
            self.frame = frame
            self.title = title
            self.action = action
        }

        public static func == (lhs: Control, rhs: Control) -> Bool {
            lhs.frame == rhs.frame && lhs.title == rhs.title
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(frame)
            hasher.combine(title)
        }
    }
}
