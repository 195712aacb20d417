public import Foundation
import NotiplayCore
public import NotiplayViews

/// An image, as iOS's `UIImage`: a PNG or a JPEG read from a file or from data, checked by its
/// bytes (at most 10 MB, 16,384 pixels a side).
///
/// ```swift
/// if let attachment = notification.request.content.attachments.first,
///    let image = UIImage(contentsOfFile: attachment.url.path) {
///     imageView.image = image
/// }
/// ```
///
/// A ``UIImageView`` shows it: a picture on a terminal that draws them (kitty's graphics protocol,
/// iTerm2's inline images, sixel), its text stand-in (`[image: photo.png 640×480]`) anywhere else.
public final class UIImage: Sendable {
    /// The image as the card carries it.
    package let picture: PictureImage

    /// The image in the file at `path`; `nil` when it is missing, not a regular file, larger than
    /// 10 MB, or not a PNG or JPEG of an acceptable size.
    public init?(contentsOfFile path: String) {
        guard let bytes = ImageHeader.fileBytes(path, cap: PictureImage.maximumBytes),
            let picture = PictureImage(bytes: bytes, name: (path as NSString).lastPathComponent)
        else { return nil }
        self.picture = picture
    }

    /// The image in `data`; `nil` when it is not a PNG or JPEG of an acceptable size.
    public init?(data: Data) {
        guard data.count <= PictureImage.maximumBytes, let picture = PictureImage(bytes: [UInt8](data), name: "")
        else { return nil }
        self.picture = picture
    }

    /// Its size in points: a pixel a point (a scale of 1).
    public var size: CGSize {
        CGSize(width: picture.pixelWidth, height: picture.pixelHeight)
    }

    /// 1: a pixel a point.
    public var scale: CGFloat { 1 }
}

/// A view that shows an image, as iOS's `UIImageView`: an element of the view, with a
/// ``UIImage``, a content mode and, like any element, an optional `frame`.
///
/// ```swift
/// var imageView = UIImageView(image: UIImage(contentsOfFile: attachment.url.path))
/// imageView.contentMode = .scaleAspectFit
/// imageView.frame = CGRect(x: 0, y: 0, width: view.frame.width, height: 160)
/// view.elements = [imageView]
/// ```
///
/// On a terminal that draws pictures — kitty's graphics protocol (PNG), iTerm2's inline images
/// (PNG, JPEG) or sixel (PNG, when the terminal says its cell size), found by asking the terminal
/// when the card starts, never guessed from its name — the image is drawn in the view's cells;
/// elsewhere (plain output, headless, `notiplay test` screens, tmux, a terminal without
/// pictures) the cells show a stand-in, `[image: photo.png 640×480]`.
/// Without a frame it is as high as the image's proportions make it at the view's width (a
/// column is 8 points, a row 16), at most 20 rows.
public struct UIImageView: ViewElement {
    /// How the image fits the view (iOS's `UIView.ContentMode`).
    public typealias ContentMode = ImageContentMode

    /// The image; `nil` shows nothing.
    public var image: UIImage?
    /// How the image fits; `.scaleToFill` (stretched) by default, as on iOS.
    public var contentMode: ContentMode = .scaleToFill
    /// Where it sits, in points (set through `frame`).
    public var placement: PointFrame?

    /// A view of `image`.
    public init(image: UIImage?) {
        self.image = image
    }

    /// An empty view at `frame`.
    public init(frame: CGRect) {
        placement = PointFrame(frame)
    }

    public func render(width: Int) -> Grid {
        var view = ImageView(image: image?.picture, contentMode: contentMode)
        view.placement = placement
        return view.render(width: width)
    }
}
