/// An image's pixels, 8-bit RGB, row by row: what a sixel terminal is sent, once a decoder made
/// them from the file.
public struct RGBPixels: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Three bytes a pixel, `width × height` of them.
    public let bytes: [UInt8]

    /// Pixels; `nil` unless `bytes` holds exactly `width × height` RGB pixels.
    public init?(width: Int, height: Int, bytes: [UInt8]) {
        guard width > 0, height > 0, width <= 1 << 20, height <= 1 << 20, width * height * 3 == bytes.count else { return nil }
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}
