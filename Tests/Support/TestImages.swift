/// Small images built byte by byte: what a header reader needs, and nothing more.
public enum TestImages {
    /// A PNG's signature, an `IHDR` of `width` × `height` (8-bit RGB) and `IEND`; no pixel data
    /// (checksums zero), which the card never decodes.
    public static func png(width: Int, height: Int) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = bigEndian(13, 4) + Array("IHDR".utf8) + bigEndian(width, 4) + bigEndian(height, 4) + [8, 2, 0, 0, 0]
            + [0, 0, 0, 0]
        let iend = bigEndian(0, 4) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        return signature + ihdr + iend
    }

    /// A JPEG's `SOI`, an `APP0` (JFIF), a `DQT` of its length, then `SOF0` of `width` ×
    /// `height`, then `EOI`.
    public static func jpeg(width: Int, height: Int) -> [UInt8] {
        let app0: [UInt8] = [0xFF, 0xE0] + bigEndian(16, 2) + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let dqt: [UInt8] = [0xFF, 0xDB] + bigEndian(67, 2) + [UInt8](repeating: 1, count: 65)
        let sof: [UInt8] = [0xFF, 0xC0] + bigEndian(11, 2) + [8] + bigEndian(height, 2) + bigEndian(width, 2) + [1, 1, 0x11, 0]
        return [0xFF, 0xD8] + app0 + dqt + sof + [0xFF, 0xD9]
    }

    static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
}

extension TestImages {
    /// A whole PNG of `width` × `height` 8-bit pixels of `colourType` (0 grey, 2 RGB, 3 palette,
    /// 4 grey and alpha, 6 RGBA), from `samples` (the rows' samples, without filter bytes), each
    /// row written with `filter` (0–4) and deflated in stored blocks (no compression): real
    /// bytes for a decoder. `palette` is the `PLTE` chunk's RGB triples.
    public static func png(
        width: Int, height: Int, colourType: UInt8, samples: [UInt8], filter: UInt8 = 0, palette: [UInt8] = []
    ) -> [UInt8] {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colourType)] ?? 1
        let stride = width * channels
        var raw: [UInt8] = []
        for row in 0..<height {
            raw.append(filter)
            for x in 0..<stride {
                let value = Int(samples[row * stride + x])
                let left = x >= channels ? Int(samples[row * stride + x - channels]) : 0
                let up = row > 0 ? Int(samples[(row - 1) * stride + x]) : 0
                let upLeft = row > 0 && x >= channels ? Int(samples[(row - 1) * stride + x - channels]) : 0
                let predicted: Int
                switch filter {
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let p = left + up - upLeft
                    let (pa, pb, pc) = (abs(p - left), abs(p - up), abs(p - upLeft))
                    predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                default: predicted = 0
                }
                raw.append(UInt8(truncatingIfNeeded: value - predicted))
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var (a, b) = (1, 0)
        for byte in raw {
            a = (a + Int(byte)) % 65_521
            b = (b + a) % 65_521
        }
        zlib += bigEndian(b << 16 | a, 4)
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] { bigEndian(data.count, 4) + Array(type.utf8) + data + [0, 0, 0, 0] }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", bigEndian(width, 4) + bigEndian(height, 4) + [8, colourType, 0, 0, 0])
        if !palette.isEmpty { file += chunk("PLTE", palette) }
        return file + chunk("IDAT", zlib) + chunk("IEND", [])
    }
}
