import NotiplayCore
import NotiplayTestSupport
import Testing

@Suite("Image headers: a PNG's or a JPEG's size from its bytes, bounded")
struct ImageHeaderTests {
    @Test("A PNG's IHDR and a JPEG's start of frame give format and size")
    func sizes() {
        #expect(ImageHeader.read(TestImages.png(width: 640, height: 480)) == ImageHeader(format: .png, width: 640, height: 480))
        #expect(ImageHeader.read(TestImages.jpeg(width: 300, height: 200)) == ImageHeader(format: .jpeg, width: 300, height: 200))
    }

    @Test("Not an image, a GIF, a zero or over-large size: no header")
    func refused() {
        #expect(ImageHeader.read(Array("hello, world, not an image".utf8)) == nil)
        #expect(ImageHeader.read(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20)) == nil)
        #expect(ImageHeader.read(TestImages.png(width: 0, height: 10)) == nil)
        #expect(ImageHeader.read(TestImages.png(width: 16_385, height: 10)) == nil)
        #expect(ImageHeader.read(TestImages.jpeg(width: 10, height: 0)) == nil)
        #expect(ImageHeader.read([]) == nil)
    }

    @Test("Every cut of a valid file, and a segment running past the end, is refused without trapping")
    func truncated() {
        for image in [TestImages.png(width: 64, height: 32), TestImages.jpeg(width: 64, height: 32)] {
            let full = ImageHeader.read(image)
            #expect(full != nil)
            for length in 0..<image.count {
                let header = ImageHeader.read(Array(image.prefix(length)))
                #expect(header == nil || header == full, "cut at \(length)")
            }
        }
        var long = TestImages.jpeg(width: 8, height: 8)
        long[4] = 0xFF  // APP0's length: past the end
        #expect(ImageHeader.read(long) == nil)
    }

    @Test("Random bytes after a JPEG's SOI never trap", arguments: 0..<64)
    func noise(_ seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes: [UInt8] = [0xFF, 0xD8]
        for _ in 0..<256 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes.append(UInt8(truncatingIfNeeded: state))
        }
        _ = ImageHeader.read(bytes)
        _ = ImageHeader.read([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bytes)
    }
}
