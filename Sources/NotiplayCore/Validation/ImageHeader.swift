/// The size of a PNG or JPEG image, read from its bytes (never from its name), bounded: what the
/// card needs to place a picture and to say what it stands in for.
///
/// PNG: the signature, then the `IHDR` chunk first (13 bytes of data). JPEG: `SOI`, then marker
/// segments up to the first start-of-frame (`SOF0`…`SOF15` but `DHT`, `JPG`, `DAC`), whose
/// height and width it reads. Anything else — truncated, a zero or over-large size, a segment
/// running past the end — is no image.
public struct ImageHeader: Sendable, Hashable {
    /// The format.
    public var format: ImageFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// The widest or tallest image accepted, in pixels.
    public static let maximumSide = 16_384

    /// An image's size.
    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The header of `bytes` when they are a PNG or JPEG image of an acceptable size.
    public static func read(_ bytes: [UInt8]) -> ImageHeader? {
        let header: ImageHeader?
        switch ImageFormat.sniff(Array(bytes.prefix(16))) {
        case .png?: header = png(bytes)
        case .jpeg?: header = jpeg(bytes)
        default: header = nil
        }
        guard let header, (1...maximumSide).contains(header.width), (1...maximumSide).contains(header.height)
        else { return nil }
        return header
    }

    private static func png(_ bytes: [UInt8]) -> ImageHeader? {
        // Signature (8), length (4) = 13, "IHDR", width (4), height (4).
        guard bytes.count >= 24, bigEndian(bytes, at: 8, count: 4) == 13,
            bytes[12..<16].elementsEqual("IHDR".utf8)
        else { return nil }
        return ImageHeader(format: .png, width: bigEndian(bytes, at: 16, count: 4), height: bigEndian(bytes, at: 20, count: 4))
    }

    private static func jpeg(_ bytes: [UInt8]) -> ImageHeader? {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {  // no length
                offset += 2
                continue
            }
            if marker == 0xD9 || marker == 0xDA { return nil }  // end, or scan data before a frame
            let length = bigEndian(bytes, at: offset + 2, count: 2)
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 7 else { return nil }
                return ImageHeader(
                    format: .jpeg, width: bigEndian(bytes, at: offset + 7, count: 2), height: bigEndian(bytes, at: offset + 5, count: 2))
            }
            offset += 2 + length
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}

extension ImageHeader {
    /// The bytes of the image file at `path` — a regular file of at most `cap` bytes — or `nil`
    /// when it cannot be read or is too large (what `UIImage(contentsOfFile:)` needs: iOS answers
    /// `nil` there too). Whether the bytes are an image is ``read(_:)``'s to say.
    public static func fileBytes(_ path: String, cap: Int) -> [UInt8]? {
        try? FileBytes.contents(of: path, cap: cap, what: "an image")
    }
}
