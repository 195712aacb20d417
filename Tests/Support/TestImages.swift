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

    private static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
}
