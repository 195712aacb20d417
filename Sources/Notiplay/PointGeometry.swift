public import Foundation
import NotiplayViews

// Apple's geometry in points, as an extension declares its media button's frame and its preferred
// size. The types are Foundation's own, named here by type aliases (UIKit brings them with
// Foundation): an extension that also imports Foundation sees one type, not two, and an
// `@_exported` import of them would have brought C's library along without `@preconcurrency`.

/// A rectangle in points (Foundation's `CGRect`).
public typealias CGRect = Foundation.CGRect
/// A size in points (Foundation's `CGSize`).
public typealias CGSize = Foundation.CGSize
/// A point (Foundation's `CGPoint`).
public typealias CGPoint = Foundation.CGPoint
/// A coordinate (Foundation's `CGFloat`).
public typealias CGFloat = Foundation.CGFloat

/// How many points one terminal cell is: 8 wide and 16 high.
///
/// One rule maps a view's points to its cells, the same one the content-size ratio follows: cells
/// are about twice as tall as they are wide, so a view `ratio × width` points high is
/// `ratio × columns / 2` rows. A card 44 columns wide is 352 points wide, about an iPhone's
/// notification. A frame's origin is rounded down to its cell, its far edge up (a frame always
/// covers every cell it touches); a size's height is rounded to the nearest row.
public enum PointsPerCell {
    /// Points in one column.
    public static let width = CGFloat(PointFrame.pointsPerColumn)
    /// Points in one row.
    public static let height = CGFloat(PointFrame.pointsPerRow)
}

extension Rect {
    /// The cells a frame in points covers (see ``PointsPerCell``); an empty or non-finite frame
    /// gives an empty rectangle.
    public init(points frame: CGRect) {
        self = PointFrame(frame).cells
    }
}

extension CGRect {
    /// The frame in points that `cells` cover (see ``PointsPerCell``).
    public init(cells: Rect) {
        self.init(
            x: CGFloat(cells.x) * PointsPerCell.width, y: CGFloat(cells.y) * PointsPerCell.height,
            width: CGFloat(cells.width) * PointsPerCell.width, height: CGFloat(cells.height) * PointsPerCell.height)
    }
}

extension CGSize {
    /// A size `rows` rows high, in points (see ``PointsPerCell``), with no width: what an extension
    /// sets as its ``TerminalViewController/preferredContentSize`` when it counts in rows.
    public init(rows: Int) {
        self.init(width: 0, height: CGFloat(max(0, rows)) * PointsPerCell.height)
    }

    /// Rows for a preferred height in points: rounded to the nearest row, at least one for a
    /// positive height, 0 for none (see ``PointsPerCell``).
    var rows: Int {
        guard height.isFinite, height > 0 else { return 0 }
        return max(1, Int(min(height / PointsPerCell.height, 10_000).rounded()))
    }
}

extension PointFrame {
    /// The same rectangle as `frame`.
    init(_ frame: CGRect) {
        self.init(x: Double(frame.origin.x), y: Double(frame.origin.y), width: Double(frame.size.width), height: Double(frame.size.height))
    }
}

extension CGRect {
    /// The same rectangle as `frame`.
    init(_ frame: PointFrame) {
        self.init(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
    }
}
