/// A rectangle of terminal cells, in the extension view's coordinates.
public struct Rect: Sendable, Hashable {
    /// The left column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Whether it covers no cell.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
}

/// A size in terminal cells.
public struct Size: Sendable, Hashable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// No size.
    public static let zero = Size(width: 0, height: 0)
}
