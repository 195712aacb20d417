import Foundation
import NotiplayTestSupport
import NotiplayViews
import Testing

@Suite("Pictures on the terminal: each protocol's exact bytes, and what a frame takes away and draws")
struct PictureEscapesTests {
    static let png = PictureImage(bytes: TestImages.png(width: 64, height: 32), name: "p.png")!
    static let jpeg = PictureImage(bytes: TestImages.jpeg(width: 64, height: 32), name: "j.jpg")!

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("kitty: the cursor to the picture's cell, then the PNG in one chunk, scaled to its cells")
    func kitty() {
        let picture = Picture(frame: Rect(x: 2, y: 1, width: 10, height: 3), image: Self.png)
        let bytes = PictureEscapes.draw(picture, id: 7, with: .kitty)
        #expect(Self.text(bytes) == "\u{1B}[2;3H\u{1B}_Ga=T,f=100,t=d,q=2,C=1,i=7,c=10,r=3,m=0;\(Self.base64(Self.png.bytes))\u{1B}\\")
        let cropped = Picture(frame: picture.frame, image: Self.png, crop: PixelRect(x: 1, y: 2, width: 3, height: 4))
        #expect(Self.text(PictureEscapes.draw(cropped, id: 7, with: .kitty)).contains("c=10,r=3,x=1,y=2,w=3,h=4,m=0;"))
        #expect(Self.text(PictureEscapes.remove(id: 7, with: .kitty)) == "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
        #expect(PictureEscapes.draw(Picture(frame: picture.frame, image: Self.jpeg), id: 7, with: .kitty).isEmpty)
    }

    @Test("kitty: a large PNG goes in chunks of 4,096 base64 bytes, m=1 on all but the last")
    func kittyChunks() throws {
        let big = try #require(PictureImage(bytes: TestImages.png(width: 8, height: 8) + [UInt8](repeating: 7, count: 7_000), name: "b.png"))
        let text = Self.text(PictureEscapes.draw(Picture(frame: Rect(x: 0, y: 0, width: 1, height: 1), image: big), id: 1, with: .kitty))
        let encoded = Self.base64(big.bytes)
        let first = encoded.prefix(4_096), second = encoded.dropFirst(4_096).prefix(4_096), third = encoded.dropFirst(8_192)
        #expect(text == "\u{1B}[1;1H\u{1B}_Ga=T,f=100,t=d,q=2,C=1,i=1,c=1,r=1,m=1;\(first)\u{1B}\\"
            + "\u{1B}_Gm=1;\(second)\u{1B}\\\u{1B}_Gm=0;\(third)\u{1B}\\")
    }

    @Test("iTerm2: the file's bytes inline, stretched to the cells; a crop is fitted whole; nothing to remove")
    func iTerm2() {
        let picture = Picture(frame: Rect(x: 0, y: 4, width: 6, height: 2), image: Self.jpeg)
        #expect(Self.text(PictureEscapes.draw(picture, id: 3, with: .iTerm2)) ==
            "\u{1B}[5;1H\u{1B}]1337;File=inline=1;size=\(Self.jpeg.bytes.count);width=6;height=2;preserveAspectRatio=0;doNotMoveCursor=1:\(Self.base64(Self.jpeg.bytes))\u{7}")
        let cropped = Picture(frame: picture.frame, image: Self.png, crop: PixelRect(x: 0, y: 0, width: 1, height: 1))
        #expect(Self.text(PictureEscapes.draw(cropped, id: 3, with: .iTerm2)).contains("preserveAspectRatio=1;"))
        #expect(PictureEscapes.remove(id: 3, with: .iTerm2).isEmpty)
    }

    @Test("sixel and text draw nothing: the stand-in stays")
    func none() {
        let picture = Picture(frame: Rect(x: 0, y: 0, width: 6, height: 2), image: Self.png)
        #expect(PictureEscapes.draw(picture, id: 1, with: .sixel).isEmpty)
        var layer = PictureLayer(graphics: nil)
        var grid = Grid(width: 6, height: 2)
        grid.put("[img]", row: 0, column: 0)
        grid.pictures = [picture]
        #expect(!layer.changes(grid))
        #expect(layer.blanking(grid) == grid)
        #expect(layer.draw(grid, parkRow: 1).isEmpty)
    }

    @Test("base64 as RFC 4648 says, padding included", arguments: ["", "f", "fo", "foo", "foob", "fooba", "foobar"])
    func base64(_ text: String) {
        #expect(Self.text(PictureEscapes.base64(Array(text.utf8))) == Data(text.utf8).base64EncodedString())
    }

    @Test("A layer blanks the cells under what it draws, draws once, and takes away what a new frame lacks")
    func layer() {
        var layer = PictureLayer(graphics: .kitty)
        var grid = Grid(width: 8, height: 3)
        grid.put("[image]", row: 1, column: 0)
        grid.pictures = [Picture(frame: Rect(x: 0, y: 1, width: 7, height: 1), image: Self.png)]
        #expect(layer.changes(grid))
        #expect(layer.blanking(grid).lines == ["        ", "        ", "        "])
        #expect(layer.blanking(grid).pictures == grid.pictures)
        let drawn = Self.text(layer.draw(grid, parkRow: 2))
        #expect(drawn.hasPrefix("\u{1B}[2;1H\u{1B}_Ga=T,f=100,t=d,q=2,C=1,i=7310,c=7,r=1,m=0;"))
        #expect(drawn.hasSuffix("\u{1B}\\\u{1B}[3;1H"))
        #expect(!layer.changes(grid))
        var next = grid
        next.pictures = []
        #expect(layer.changes(next))
        #expect(Self.text(layer.clear()) == "\u{1B}_Ga=d,d=I,i=7310,q=2\u{1B}\\")
        #expect(layer.clear().isEmpty)
    }
}
