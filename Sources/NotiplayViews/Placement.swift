/// A rectangle in points, the unit iOS lays views out in: where an element was placed in the
/// element that holds it (its ``ViewElement/placement``).
///
/// One rule maps points to cells (``PointFrame/cells``): a column is 8 points wide
/// (``pointsPerColumn``) and a row 16 points high (``pointsPerRow``), since cells are about twice
/// as tall as they are wide; an origin is rounded down to its cell and a far edge up, so a frame
/// covers every cell it touches.
public struct PointFrame: Sendable, Hashable {
    /// The left edge, in points from the container's left.
    public var x: Double
    /// The top edge, in points from the container's top.
    public var y: Double
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double

    /// Points in one column.
    public static let pointsPerColumn: Double = 8
    /// Points in one row.
    public static let pointsPerRow: Double = 16
    /// The farthest edge, in points, a frame may reach and still cover cells: farther (or not a
    /// finite number) covers none.
    public static let limit: Double = 1_000_000

    /// A frame.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The frame that `cells` cover.
    public init(cells: Rect) {
        self.init(
            x: Double(cells.x) * Self.pointsPerColumn, y: Double(cells.y) * Self.pointsPerRow,
            width: Double(cells.width) * Self.pointsPerColumn, height: Double(cells.height) * Self.pointsPerRow)
    }

    /// The cells the frame covers: the origin rounded down to its cell, the far edge up, at least
    /// one cell each way. A negative size counts from the far edge (as `CGRect.standardized`); an
    /// empty frame, or one not finite or beyond ``limit``, covers nothing (``Rect/zero``).
    public var cells: Rect {
        let left = min(x, x + width)
        let top = min(y, y + height)
        let right = max(x, x + width)
        let bottom = max(y, y + height)
        guard [left, top, right, bottom].allSatisfy({ $0.isFinite && abs($0) < Self.limit }),
            right > left, bottom > top
        else { return .zero }
        let column = Int((left / Self.pointsPerColumn).rounded(.down))
        let row = Int((top / Self.pointsPerRow).rounded(.down))
        let end = Int((right / Self.pointsPerColumn).rounded(.up))
        let last = Int((bottom / Self.pointsPerRow).rounded(.up))
        return Rect(x: column, y: row, width: max(1, end - column), height: max(1, last - row))
    }
}

extension ViewElement {
    /// Not placed: the element is laid out in its container's flow, top to bottom. An element of
    /// your own that stores a placement declares `var placement: PointFrame?`; without it, setting
    /// one does nothing.
    public var placement: PointFrame? {
        get { nil }
        set {}
    }
}

/// How a ``VerticalStack`` lays out elements with a ``ViewElement/placement``: each is drawn
/// `cells.width` columns wide into its cells, over what the flow drew there, and clipped to
/// the stack's width and ``maximumRows``.
enum PlacedLayout {
    /// The lowest row a placed element may reach in one stack.
    static let maximumRows = 1_000

    /// The cells `placement` gets inside a stack `width` columns wide; `nil` when nothing shows.
    static func cells(_ placement: PointFrame, width: Int) -> Rect? {
        placement.cells.intersection(Rect(x: 0, y: 0, width: width, height: maximumRows))
    }

    /// The widest an element is laid out when placed.
    static let maximumColumns = 1_000

    /// `element` drawn into its placement's cells of `grid`, over what is there: rendered at the
    /// placed width (at most ``maximumColumns``), cut to the placed height and to the grid.
    static func draw(_ element: any ViewElement, placement: PointFrame, into grid: inout Grid) {
        guard let visible = cells(placement, width: grid.width) else { return }
        let full = placement.cells
        let drawn = element.render(width: min(full.width, maximumColumns))
        var clip = Grid(width: visible.width, height: visible.height)
        clip.draw(drawn, row: full.y - visible.y, column: full.x - visible.x)
        grid.fill(row: visible.y, column: visible.x, width: visible.width, height: visible.height)
        grid.draw(clip, row: visible.y, column: visible.x)
    }
}
