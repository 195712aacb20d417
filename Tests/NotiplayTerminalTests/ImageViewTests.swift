import NotiplayCore
import NotiplayTestSupport
import NotiplayViews
import Testing

@Suite("Images in the view: the stand-in text, the picture's cells for each content mode")
struct ImageViewTests {
    static let photo = PictureImage(bytes: TestImages.png(width: 640, height: 480), name: "photo.png")!

    @Test("Only a PNG or JPEG of acceptable size is an image; its name is cleaned")
    func images() {
        #expect(PictureImage(bytes: TestImages.jpeg(width: 10, height: 20), name: "a.jpg")?.format == .jpeg)
        #expect(PictureImage(bytes: Array("not an image".utf8), name: "x.png") == nil)
        #expect(PictureImage(bytes: TestImages.png(width: 1, height: 1) + [UInt8](repeating: 0, count: 10 * 1_048_576), name: "big.png") == nil)
        let named = PictureImage(bytes: TestImages.png(width: 2, height: 3), name: "\u{1B}[31mred\u{7}.png")
        #expect(named?.standIn == "[image: red.png 2×3]")
        #expect(PictureImage(bytes: TestImages.png(width: 2, height: 3), name: "")?.standIn == "[image: png 2×3]")
    }

    @Test("In the flow it is as high as its proportions at the width; the stand-in sits in the middle")
    func flow() {
        // 24 columns = 192 points; 640×480 → 144 points high = 9 rows.
        let grid = ImageView(image: Self.photo).render(width: 24)
        #expect(grid.height == 9)
        #expect(grid.lines[4] == "[image: photo.png 640×4…")
        #expect(grid.pictures == [Picture(frame: Rect(x: 0, y: 0, width: 24, height: 9), image: Self.photo)])
        #expect(ImageView(image: nil).render(width: 24).height == 0)
    }

    @Test("Each content mode places the picture in its area", arguments: [
        (ImageContentMode.scaleToFill, Rect(x: 0, y: 0, width: 40, height: 5), nil),
        // 320×80 points; fit: ×(80/480) → 107×80 points → 13 columns × 5 rows, in the middle.
        (.scaleAspectFit, Rect(x: 13, y: 0, width: 13, height: 5), nil),
        // fill: ×0.5 → the middle 640×160 pixels over the whole area.
        (.scaleAspectFill, Rect(x: 0, y: 0, width: 40, height: 5), PixelRect(x: 0, y: 160, width: 640, height: 160)),
        // center: 640×480 points is larger: the middle 320×80 pixels, the whole area.
        (.center, Rect(x: 0, y: 0, width: 40, height: 5), PixelRect(x: 160, y: 200, width: 320, height: 80)),
    ] as [(ImageContentMode, Rect, PixelRect?)])
    func contentModes(_ mode: ImageContentMode, _ frame: Rect, _ crop: PixelRect?) {
        var view = ImageView(image: Self.photo, contentMode: mode)
        view.placement = PointFrame(x: 0, y: 0, width: 320, height: 80)
        let grid = VerticalStack([view]).render(width: 40)
        #expect(grid.height == 5)
        #expect(grid.pictures == [Picture(frame: frame, image: Self.photo, crop: crop)])
    }

    @Test("center keeps a small image at its size: 32×32 pixels are 4 columns × 2 rows")
    func centerSmall() {
        let small = PictureImage(bytes: TestImages.png(width: 32, height: 32), name: "s.png")!
        var view = ImageView(image: small, contentMode: .center)
        view.placement = PointFrame(x: 0, y: 0, width: 80, height: 64)
        #expect(VerticalStack([view]).render(width: 10).pictures == [Picture(frame: Rect(x: 3, y: 1, width: 4, height: 2), image: small)])
    }

    @Test("A picture comes along into the card, moved; cut by the card's edge or covered, it is left out")
    func carried() {
        var card = CardModel(header: "Photos")
        var view = ImageView(image: Self.photo, contentMode: .scaleToFill)
        view.placement = PointFrame(x: 0, y: 0, width: 80, height: 32)
        card.view = [view]
        card.preferredRows = 2
        let laid = CardLayout.render(card, width: 40)
        #expect(laid.pictures.map(\.frame) == [Rect(x: 2, y: 1, width: 10, height: 2)])
        #expect(laid.lines[1].contains("[image: p…"))

        var cut = Grid(width: 5, height: 5)
        cut.draw(laid, row: 0, column: 0)
        #expect(cut.pictures.isEmpty)
        var covered = laid
        covered.fill(row: 2, column: 5, width: 1, height: 1)
        #expect(covered.pictures.isEmpty)
    }

    @Test("Plain output and snapshots show the stand-in, never an escape")
    func plainText() {
        let text = FrameRenderer.plainText(ImageView(image: Self.photo).render(width: 30))
        #expect(text.contains("[image: photo.png 640×480]"))
        #expect(!text.contains("\u{1B}"))
    }
}

@Suite("Images in the view: hostile frames")
struct ImageViewBoundTests {
    @Test("A frame a million points high lays the image out in at most 200 rows; a card's 20-row view cuts its picture")
    func tallFrame() {
        var view = ImageView(image: ImageViewTests.photo, contentMode: .scaleAspectFit)
        view.placement = PointFrame(x: 0, y: 0, width: 80, height: 999_000)
        #expect(view.render(width: 10).height == ImageView.maximumPlacedRows)
        let stack = VerticalStack([view]).render(width: 10)
        #expect(stack.height == 1_000)
        // 640×480 fitted into 10 columns × 200 rows: 10 × 4, in the middle.
        #expect(stack.pictures.map(\.frame) == [Rect(x: 0, y: 98, width: 10, height: 4)])
        var card = CardModel(header: "Tall")
        card.view = [view]
        #expect(CardLayout.render(card, width: 40).pictures.isEmpty, "past the view's 20 rows: cut")
    }
}
