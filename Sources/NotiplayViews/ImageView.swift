import NotiplayCore

/// How an ``ImageView`` fits its image into its cells (iOS's `UIView.ContentMode`).
public enum ImageContentMode: Sendable, Hashable {
    /// Stretched to the whole area (iOS's default).
    case scaleToFill
    /// As large as fits whole, its proportions kept, in the middle.
    case scaleAspectFit
    /// The whole area covered, its proportions kept, the edges that overflow cut.
    case scaleAspectFill
    /// At its own size (a pixel a point), in the middle; cut where it overflows.
    case center
}

/// An image in the view: a picture on a terminal that shows pictures, its stand-in text
/// (`[image: photo.png 640×480]`, dim, in the middle) on any other, and in plain output.
///
/// In the flow it is as high as the image's proportions make it at the width (a cell is 8 points
/// wide, 16 high, a pixel a point), between 1 row and ``maximumRows``; placed, it fills its
/// frame. Without an image it shows nothing.
public struct ImageView: ViewElement, Hashable {
    /// The image; `nil` shows nothing.
    public var image: PictureImage?
    /// How the image fits the area.
    public var contentMode: ImageContentMode
    /// Where it sits in its container, in points; `nil`: in the flow.
    public var placement: PointFrame?

    /// The most rows it takes in the flow: 20 (a card's whole view area) by default.
    public var maximumRows = 20
    /// The most rows it is laid out in when placed, whatever its frame's height.
    public static let maximumPlacedRows = 200

    /// A view of `image`.
    public init(image: PictureImage?, contentMode: ImageContentMode = .scaleToFill) {
        self.image = image
        self.contentMode = contentMode
    }

    public func render(width: Int) -> Grid {
        // Placed, as high as its frame, but never more rows than a card can show many times over:
        // a frame of a million points must not make a grid of a million rows.
        let rows = placement.map { min($0.cells.height, Self.maximumPlacedRows) } ?? naturalRows(width: width)
        var grid = Grid(width: width, height: image == nil ? (placement == nil ? 0 : rows) : rows)
        guard let image, width > 0, rows > 0 else { return grid }
        let text = TextLayout.truncate(image.standIn, width: width)
        grid.put(text, row: (rows - 1) / 2, column: max(0, (width - CellWidth.of(text)) / 2), style: .dim)
        grid.pictures = [Self.fit(image, mode: contentMode, in: Rect(x: 0, y: 0, width: width, height: rows))]
        return grid
    }

    /// Rows for the image's proportions at `width` columns.
    private func naturalRows(width: Int) -> Int {
        guard let image else { return 0 }
        let rows = Double(width) * PointFrame.pointsPerColumn * Double(image.pixelHeight) / Double(image.pixelWidth)
            / PointFrame.pointsPerRow
        return max(1, min(maximumRows, Int(rows.rounded())))
    }

    /// The picture of `image` in `area` as `mode` fits it.
    static func fit(_ image: PictureImage, mode: ImageContentMode, in area: Rect) -> Picture {
        let (pw, ph) = (Double(image.pixelWidth), Double(image.pixelHeight))
        let areaWidth = Double(area.width) * PointFrame.pointsPerColumn
        let areaHeight = Double(area.height) * PointFrame.pointsPerRow
        switch mode {
        case .scaleToFill:
            return Picture(frame: area, image: image)
        case .scaleAspectFit:
            let scale = min(areaWidth / pw, areaHeight / ph)
            return Picture(frame: centred(pw * scale, ph * scale, in: area), image: image)
        case .scaleAspectFill:
            let scale = max(areaWidth / pw, areaHeight / ph)
            return Picture(frame: area, image: image, crop: middle(areaWidth / scale, areaHeight / scale, of: image))
        case .center:
            let frame = centred(min(pw, areaWidth), min(ph, areaHeight), in: area)
            let shown = (Double(frame.width) * PointFrame.pointsPerColumn, Double(frame.height) * PointFrame.pointsPerRow)
            let crop = pw > areaWidth || ph > areaHeight ? middle(min(pw, shown.0), min(ph, shown.1), of: image) : nil
            return Picture(frame: frame, image: image, crop: crop)
        }
    }

    /// Cells for a `width` × `height` points picture in the middle of `area`, at least one each way.
    private static func centred(_ width: Double, _ height: Double, in area: Rect) -> Rect {
        let columns = min(area.width, max(1, Int((width / PointFrame.pointsPerColumn).rounded())))
        let rows = min(area.height, max(1, Int((height / PointFrame.pointsPerRow).rounded())))
        return Rect(x: area.x + (area.width - columns) / 2, y: area.y + (area.height - rows) / 2, width: columns, height: rows)
    }

    /// The middle `width` × `height` pixels of `image`.
    private static func middle(_ width: Double, _ height: Double, of image: PictureImage) -> PixelRect {
        let w = min(image.pixelWidth, max(1, Int(width.rounded())))
        let h = min(image.pixelHeight, max(1, Int(height.rounded())))
        return PixelRect(x: (image.pixelWidth - w) / 2, y: (image.pixelHeight - h) / 2, width: w, height: h)
    }
}
