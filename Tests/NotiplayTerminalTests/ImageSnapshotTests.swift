import NotiplayCore
import NotiplayTestSupport
import NotiplayViews
import Testing

/// Text snapshots of a card with an image: what plain output, headless runs and `notiplay test`
/// screens show (the stand-in), at a full and a compact width.
@Suite("Card snapshots: an image's stand-in")
struct ImageSnapshotTests {
    static func card() -> CardModel {
        var card = CardModel(header: "Photos", age: "now")
        var image = ImageView(image: PictureImage(bytes: TestImages.png(width: 640, height: 480), name: "beach.png"), contentMode: .scaleAspectFit)
        image.maximumRows = 5
        card.view = [Label("From Sam:", style: .bold), image]
        card.defaultContent = ("Holiday", "", "The beach at noon.")
        card.actions = [.init(title: "Like")]
        return card
    }

    @Test("the stand-in in the middle of the image's rows, at 60 columns; the compact card leaves the view out", arguments: [60, 24])
    func standIn(_ width: Int) throws {
        try CardSnapshotTests().check(CardLayout.render(Self.card(), width: width), "image-standin-\(width)")
    }
}
