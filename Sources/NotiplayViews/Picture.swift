public import NotiplayCore

/// An image a card can show: its bytes (a PNG or a JPEG, checked by their content), its size in
/// pixels and a name for its text stand-in. A plain value: it can be compared, copied, encoded.
public struct PictureImage: Sendable, Hashable, Codable {
    /// The format, from the bytes.
    public let format: ImageFormat
    /// Width in pixels.
    public let pixelWidth: Int
    /// Height in pixels.
    public let pixelHeight: Int
    /// The name the stand-in shows (a file's name), cleaned.
    public let name: String
    /// The file's bytes, as they were read.
    public let bytes: [UInt8]

    /// The largest image accepted, in bytes: iOS's limit for an image attachment, 10 MB.
    public static let maximumBytes = AttachmentLimits.default.image

    /// The image in `bytes`, or `nil` when they are not a PNG or JPEG of an acceptable size (at
    /// most ``maximumBytes``, and ``ImageHeader/maximumSide`` pixels a side).
    public init?(bytes: [UInt8], name: String) {
        guard bytes.count <= Self.maximumBytes, let header = ImageHeader.read(bytes) else { return nil }
        format = header.format
        pixelWidth = header.width
        pixelHeight = header.height
        self.name = TerminalText.clean(name)
        self.bytes = bytes
    }

    /// What a terminal without pictures shows in its place: `[image: photo.png 640×480]`.
    public var standIn: String {
        "[image: \(name.isEmpty ? format.rawValue : name) \(pixelWidth)×\(pixelHeight)]"
    }
}

extension ImageFormat: Codable {}

/// A part of an image, in pixels.
public struct PixelRect: Sendable, Hashable, Codable {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int

    /// A part of an image.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Where a picture goes on a grid: the cells it covers and the image (or the part of it, `crop`)
/// scaled into them. A grid carries its pictures (``Grid/pictures``) as it carries its buttons;
/// a terminal that shows pictures draws them over those cells, any other shows the text the
/// cells hold (the image's stand-in).
public struct Picture: Sendable, Hashable, Codable {
    /// The cells, in the grid's coordinates.
    public var frame: Rect
    /// The image.
    public var image: PictureImage
    /// The part of the image shown, stretched to ``frame``; `nil` for all of it.
    public var crop: PixelRect?

    /// A picture of `image` (or its `crop`) over `frame`.
    public init(frame: Rect, image: PictureImage, crop: PixelRect? = nil) {
        self.frame = frame
        self.image = image
        self.crop = crop
    }
}


