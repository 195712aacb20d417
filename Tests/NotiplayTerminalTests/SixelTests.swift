import NotiplayCore
import NotiplayTerminal
import NotiplayTestSupport
import NotiplayViews
import Testing

@Suite("Sixel: PNG pixels decoded, scaled to the cells, written as sixel")
struct SixelTests {
    static let quad: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]  // red, green / blue, white

    @Test("Every colour type and every filter decodes to the same RGB", arguments: [0, 1, 2, 3, 4] as [UInt8])
    func decode(_ filter: UInt8) throws {
        let rgb = try #require(PictureImage(bytes: TestImages.png(width: 2, height: 2, colourType: 2, samples: Self.quad, filter: filter), name: "q.png"))
        #expect(PNGPixels.decode(rgb.bytes)?.bytes == Self.quad)
        var rgba: [UInt8] = []
        for (index, sample) in Self.quad.enumerated() { rgba += index % 3 == 2 ? [sample, 255] : [sample] }
        let withAlpha = try #require(PictureImage(bytes: TestImages.png(width: 2, height: 2, colourType: 6, samples: rgba, filter: filter), name: "a.png"))
        #expect(PNGPixels.decode(withAlpha.bytes)?.bytes == Self.quad)
        let grey = try #require(PictureImage(bytes: TestImages.png(width: 3, height: 2, colourType: 0, samples: [0, 128, 255, 255, 128, 0], filter: filter), name: "g.png"))
        #expect(PNGPixels.decode(grey.bytes)?.bytes == [0, 0, 0, 128, 128, 128, 255, 255, 255, 255, 255, 255, 128, 128, 128, 0, 0, 0])
        let halfAlpha = try #require(PictureImage(bytes: TestImages.png(width: 1, height: 1, colourType: 4, samples: [200, 128], filter: filter), name: "h.png"))
        #expect(PNGPixels.decode(halfAlpha.bytes)?.bytes == [100, 100, 100])
        let indexed = try #require(PictureImage(
            bytes: TestImages.png(width: 2, height: 1, colourType: 3, samples: [1, 0], filter: filter, palette: [9, 8, 7, 1, 2, 3]), name: "p.png"))
        #expect(PNGPixels.decode(indexed.bytes)?.bytes == [1, 2, 3, 9, 8, 7])
    }

    @Test("Bytes that are not such a PNG whole are no pixels, and never trap")
    func refused() throws {
        let good = TestImages.png(width: 2, height: 2, colourType: 2, samples: Self.quad)
        #expect(PNGPixels.decode(good) != nil)
        #expect(PNGPixels.decode(TestImages.png(width: 4, height: 4)) == nil, "no IDAT")
        #expect(PNGPixels.decode(TestImages.jpeg(width: 4, height: 4)) == nil)
        for cut in stride(from: 24, to: good.count, by: 3) {
            _ = PNGPixels.decode(Array(good.prefix(cut)))
        }
        var badFilter = good
        badFilter[good.count - 12 - 4 - 4 - 15] = 9  // inside the stored block: a row's filter byte or a sample
        _ = PNGPixels.decode(badFilter)
        let palette = TestImages.png(width: 1, height: 1, colourType: 3, samples: [0])  // no PLTE
        #expect(PNGPixels.decode(palette) == nil)
        // A header saying 4,096 × 4,096: over the decoder's bound, refused before inflating.
        #expect(!PNGPixels.canDecode(TestImages.png(width: 4_096, height: 4_096)))
    }

    @Test("Two by two pixels: the palette used, then one band, a colour at a time")
    func encode() throws {
        let pixels = try #require(RGBPixels(width: 2, height: 2, bytes: Self.quad))
        let text = String(decoding: Sixel.encode(pixels, crop: nil, width: 2, height: 2), as: UTF8.self)
        #expect(text == "\u{1B}P0;1;0q\"1;1;2;2#5;2;0;0;100#30;2;0;100;0#180;2;100;0;0#215;2;100;100;100"
            + "#5A?$#30?@$#180@?$#215?A\u{1B}\\")
    }

    @Test("Runs of four or more are counted; a second band follows a -; scaling picks the nearest pixel")
    func runsAndBands() throws {
        let red = try #require(RGBPixels(width: 1, height: 1, bytes: [255, 0, 0]))
        #expect(String(decoding: Sixel.encode(red, crop: nil, width: 5, height: 7), as: UTF8.self)
            == "\u{1B}P0;1;0q\"1;1;5;7#180;2;100;0;0#180!5~-#180!5@\u{1B}\\")
        #expect(Sixel.encode(red, crop: nil, width: 0, height: 7).isEmpty)
        #expect(Sixel.encode(red, crop: PixelRect(x: 1, y: 0, width: 1, height: 1), width: 1, height: 1).isEmpty)
    }

    @Test("A sixel terminal with a cell size draws a PNG at its cells, in whole bands; none without a cell size")
    func layer() throws {
        let image = try #require(PictureImage(bytes: TestImages.png(width: 2, height: 2, colourType: 2, samples: Self.quad), name: "q.png"))
        var grid = Grid(width: 10, height: 4)
        grid.pictures = [Picture(frame: Rect(x: 1, y: 1, width: 2, height: 1), image: image)]
        let support = SixelSupport(
            cell: Size(width: 10, height: 20), canDecode: { PNGPixels.canDecode($0.bytes) }, decode: { PNGPixels.decode($0.bytes) })
        var layer = PictureLayer(graphics: .sixel, sixel: support)
        let text = String(decoding: layer.draw(grid, parkRow: 3), as: UTF8.self)
        // 2 cells × 10 pixels wide; 20 pixels high, brought down to 18 (three bands).
        #expect(text.hasPrefix("\u{1B}[2;2H\u{1B}P0;1;0q\"1;1;20;18#"))
        #expect(text.hasSuffix("\u{1B}\\\u{1B}[4;1H"))
        #expect(layer.clear().isEmpty, "text drawn over a sixel picture takes it away")
        #expect(PictureLayer(graphics: .sixel).drawable(grid).isEmpty)
    }
}
