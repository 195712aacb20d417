import CZlib  // the only importer: a PNG's pixels are deflated, and a sixel terminal needs pixels

/// A PNG's pixels, for a sixel terminal: 8 bits a sample, not interlaced, greyscale, RGB,
/// palette, greyscale with alpha or RGBA (alpha laid over black). Anything else, or bytes that
/// are not such a PNG whole, is `nil`: the picture's stand-in shows.
///
/// Bounded: at most ``maximumPixels`` pixels, the inflated data exactly the size the header
/// says (zlib's `uncompress` into a buffer of that size), every chunk inside the file.
public enum PNGPixels {
    /// The most pixels decoded (2,048 × 2,048).
    public static let maximumPixels = 2_048 * 2_048

    /// Whether `bytes` start as a PNG this decoder takes (a cheap check, from `IHDR` alone).
    public static func canDecode(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 29, let header = ImageHeader.read(bytes), header.format == .png,
            header.width * header.height <= maximumPixels
        else { return false }
        return bytes[24] == 8 && [0, 2, 3, 4, 6].contains(bytes[25]) && bytes[28] == 0
    }

    /// The pixels of the PNG in `bytes`, or `nil`.
    public static func decode(_ bytes: [UInt8]) -> RGBPixels? {
        guard canDecode(bytes), let header = ImageHeader.read(bytes) else { return nil }
        let (width, height, colourType) = (header.width, header.height, Int(bytes[25]))
        var palette: [UInt8] = []
        var data: [UInt8] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard length >= 0, offset + 12 + length <= bytes.count else { return nil }
            let body = bytes[(offset + 8)..<(offset + 8 + length)]
            if type == "PLTE" { palette = Array(body) }
            if type == "IDAT" { data += body }
            if type == "IEND" { break }
            offset += 12 + length
        }
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colourType]!
        let stride = width * channels
        let expected = height * (stride + 1)
        guard !data.isEmpty, colourType != 3 || (palette.count >= 3 && palette.count % 3 == 0) else { return nil }
        var raw = [UInt8](repeating: 0, count: expected)
        var size = uLongf(expected)
        let status = raw.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer { input in uncompress(out.baseAddress, &size, input.baseAddress, uLong(input.count)) }
        }
        guard status == Z_OK, Int(size) == expected else { return nil }
        guard let samples = unfilter(raw, rows: height, stride: stride, bytesPerPixel: channels) else { return nil }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for pixel in 0..<(width * height) {
            let at = pixel * channels
            let (r, g, b): (UInt8, UInt8, UInt8)
            switch colourType {
            case 0: (r, g, b) = (samples[at], samples[at], samples[at])
            case 2: (r, g, b) = (samples[at], samples[at + 1], samples[at + 2])
            case 3:
                let entry = Int(samples[at]) * 3
                (r, g, b) = entry + 2 < palette.count ? (palette[entry], palette[entry + 1], palette[entry + 2]) : (0, 0, 0)
            case 4:
                let grey = over(samples[at], samples[at + 1])
                (r, g, b) = (grey, grey, grey)
            default:
                let alpha = samples[at + 3]
                (r, g, b) = (over(samples[at], alpha), over(samples[at + 1], alpha), over(samples[at + 2], alpha))
            }
            rgb[pixel * 3] = r
            rgb[pixel * 3 + 1] = g
            rgb[pixel * 3 + 2] = b
        }
        return RGBPixels(width: width, height: height, bytes: rgb)
    }

    /// `value` laid over black with `alpha`.
    private static func over(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
        UInt8((Int(value) * Int(alpha) + 127) / 255)
    }

    /// The samples of `raw` (each row a filter byte, then `stride` bytes) with PNG's five filters
    /// undone; `nil` for an unknown filter.
    static func unfilter(_ raw: [UInt8], rows: Int, stride: Int, bytesPerPixel: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: rows * stride)
        for row in 0..<rows {
            let filter = raw[row * (stride + 1)]
            let source = row * (stride + 1) + 1
            let target = row * stride
            for x in 0..<stride {
                let value = raw[source + x]
                let left = x >= bytesPerPixel ? Int(out[target + x - bytesPerPixel]) : 0
                let up = row > 0 ? Int(out[target - stride + x]) : 0
                let upLeft = row > 0 && x >= bytesPerPixel ? Int(out[target - stride + x - bytesPerPixel]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let p = left + up - upLeft
                    let (pa, pb, pc) = (abs(p - left), abs(p - up), abs(p - upLeft))
                    predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                default: return nil
                }
                out[target + x] = value &+ UInt8(truncatingIfNeeded: predicted)
            }
        }
        return out
    }
}
