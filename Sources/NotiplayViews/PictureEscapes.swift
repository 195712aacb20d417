public import NotiplayCore

/// The ways a terminal draws pictures, as found by asking it (never guessed from its name).
public enum GraphicsProtocol: String, Sendable, Hashable, Codable, CaseIterable {
    /// kitty's graphics protocol (kitty, Ghostty, WezTerm, Konsole…): PNG sent as it is.
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm…): the file's bytes, any format it decodes.
    case iTerm2 = "iterm2"
    /// DEC sixel graphics: pixels, from a decoder (``SixelSupport``; `NotiplayTerminal` decodes
    /// PNG), scaled to the cells by the terminal's cell size in pixels.
    case sixel
}

/// The escape sequences that draw a ``Picture`` at its cells, and take it away, for each
/// ``GraphicsProtocol``. Pure: bytes for a terminal driver to write, the cursor put at the
/// picture's top-left cell first.
///
/// - kitty: `ESC _G a=T,f=100,t=d,q=2,C=1,i=ID,c=COLUMNS,r=ROWS[,x,y,w,h of the crop];BASE64 ESC \`,
///   the PNG sent in chunks of 4,096 base64 bytes (`m=1` on every chunk but the last), the
///   cursor left where it was (`C=1`) and no reply asked (`q=2`); taken away with
///   `ESC _G a=d,d=I,i=ID,q=2 ESC \`, which frees its data too.
/// - iTerm2: `ESC ]1337;File=inline=1;size=BYTES;width=COLUMNS;height=ROWS;preserveAspectRatio=0;doNotMoveCursor=1:BASE64 BEL`;
///   a crop cannot be asked for, so a cropped picture is fitted whole instead
///   (`preserveAspectRatio=1`). Text written over the cells takes it away.
public enum PictureEscapes {
    /// Base64 bytes in one kitty chunk.
    static let kittyChunk = 4_096

    /// Whether `image` can be drawn with `graphics` from its file's bytes: kitty takes PNG, iTerm2
    /// PNG and JPEG; sixel nothing (it needs pixels: ``sixel(_:pixels:cell:)``).
    public static func canDraw(_ image: PictureImage, with graphics: GraphicsProtocol) -> Bool {
        switch graphics {
        case .kitty: image.format == .png
        case .iTerm2: image.format == .png || image.format == .jpeg
        case .sixel: false
        }
    }

    /// The bytes that draw `picture` with `graphics`, the cursor moved to its top-left cell first
    /// (`CUP`); `id` names it for ``remove(id:with:)``. Empty when it cannot be drawn.
    public static func draw(_ picture: Picture, id: Int, with graphics: GraphicsProtocol) -> [UInt8] {
        guard canDraw(picture.image, with: graphics), !picture.frame.isEmpty else { return [] }
        var bytes = Array("\u{1B}[\(picture.frame.y + 1);\(picture.frame.x + 1)H".utf8)
        let data = base64(picture.image.bytes)
        switch graphics {
        case .kitty:
            var keys = "a=T,f=100,t=d,q=2,C=1,i=\(id),c=\(picture.frame.width),r=\(picture.frame.height)"
            if let crop = picture.crop { keys += ",x=\(crop.x),y=\(crop.y),w=\(crop.width),h=\(crop.height)" }
            var start = 0
            repeat {
                let end = min(data.count, start + kittyChunk)
                let more = end < data.count ? 1 : 0
                let control = start == 0 ? keys + ",m=\(more)" : "m=\(more)"
                bytes += Array("\u{1B}_G\(control);".utf8) + data[start..<end] + [0x1B, 0x5C]
                start = end
            } while start < data.count
        case .iTerm2:
            let aspect = picture.crop == nil ? 0 : 1
            bytes += Array(
                "\u{1B}]1337;File=inline=1;size=\(picture.image.bytes.count);width=\(picture.frame.width);height=\(picture.frame.height);preserveAspectRatio=\(aspect);doNotMoveCursor=1:"
                    .utf8)
            bytes += data + [0x07]
        case .sixel:
            return []
        }
        return bytes
    }

    /// The bytes that draw `picture` from its `pixels` in sixel, the cursor moved to its top-left
    /// cell first: `cell` pixels a cell, the height brought down to whole bands of six pixels so
    /// that nothing is drawn below its cells. Empty when it cannot be drawn.
    public static func sixel(_ picture: Picture, pixels: RGBPixels, cell: Size) -> [UInt8] {
        let width = picture.frame.width * cell.width
        let height = picture.frame.height * cell.height / 6 * 6
        let data = Sixel.encode(pixels, crop: picture.crop, width: width, height: height)
        guard !data.isEmpty else { return [] }
        return Array("\u{1B}[\(picture.frame.y + 1);\(picture.frame.x + 1)H".utf8) + data
    }

    /// The bytes that take the picture `id` away: kitty deletes it; the others need nothing (text
    /// drawn over the cells replaces it).
    public static func remove(id: Int, with graphics: GraphicsProtocol) -> [UInt8] {
        graphics == .kitty ? Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8) : []
    }

    /// `bytes` in base64 (RFC 4648, with padding).
    package static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = 0
            for k in 0..<3 { group = group << 8 | (k < count ? Int(bytes[index + k]) : 0) }
            for k in 0..<4 {
                out.append(k <= count ? alphabet[(group >> (18 - 6 * k)) & 0x3F] : UInt8(ascii: "="))
            }
            index += 3
        }
        return out
    }
}

/// What drawing in sixel takes: the size of a cell in pixels, and a decoder of the image files
/// (kept outside this module, which decodes nothing).
public struct SixelSupport: Sendable {
    /// A cell's width and height in pixels.
    public var cell: Size
    /// Whether an image is one the decoder takes (a cheap check, made every frame).
    public var canDecode: @Sendable (PictureImage) -> Bool
    /// The image's pixels, or `nil`.
    public var decode: @Sendable (PictureImage) -> RGBPixels?

    /// Sixel with cells of `cell` pixels and this decoder.
    public init(
        cell: Size, canDecode: @escaping @Sendable (PictureImage) -> Bool, decode: @escaping @Sendable (PictureImage) -> RGBPixels?
    ) {
        self.cell = cell
        self.canDecode = canDecode
        self.decode = decode
    }
}

/// The pictures a terminal screen shows, and the bytes that bring it from what it drew last to
/// what a new frame holds: every picture of the last frame taken away and every one of the new
/// frame drawn, whenever the two differ or the text under them was drawn whole again (the
/// terminal clears pictures with the screen, or text over them). A frame's cells under a drawn
/// picture are blanked first, so no stand-in text shows through a transparent image.
public struct PictureLayer: Sendable {
    /// How the terminal draws pictures; `nil`: it does not (every frame shows the stand-ins).
    public let graphics: GraphicsProtocol?
    /// For sixel: the cell size and the decoder; without it a sixel terminal shows stand-ins.
    public let sixel: SixelSupport?
    /// What was drawn last, each with its id.
    public private(set) var drawn: [Picture] = []
    /// The first id used; ids count up from it, one per picture of a frame.
    static let firstID = 7_310

    /// A layer for a terminal that draws with `graphics` (`nil`: text only); `sixel` for a sixel
    /// terminal.
    public init(graphics: GraphicsProtocol?, sixel: SixelSupport? = nil) {
        self.graphics = graphics
        self.sixel = sixel
    }

    /// Whether this terminal draws `image`.
    private func draws(_ image: PictureImage, with graphics: GraphicsProtocol) -> Bool {
        graphics == .sixel ? sixel?.canDecode(image) ?? false : PictureEscapes.canDraw(image, with: graphics)
    }

    /// The pictures of `grid` this terminal draws (all of them whole inside the grid).
    public func drawable(_ grid: Grid) -> [Picture] {
        guard let graphics else { return [] }
        return grid.pictures.filter {
            draws($0.image, with: graphics) && $0.frame.clipped(width: grid.width, height: grid.height) == $0.frame
        }
    }

    /// Whether `grid` asks for other pictures than those drawn: the text must then be drawn whole
    /// (``FrameRenderer/invalidate()``) and the pictures again.
    public func changes(_ grid: Grid) -> Bool {
        drawable(grid) != drawn
    }

    /// `grid` with the cells under its drawable pictures blanked.
    public func blanking(_ grid: Grid) -> Grid {
        var grid = grid
        let pictures = grid.pictures
        for picture in drawable(grid) {
            grid.fill(row: picture.frame.y, column: picture.frame.x, width: picture.frame.width, height: picture.frame.height)
        }
        grid.pictures = pictures
        return grid
    }

    /// The bytes that take away what was drawn (before the text is drawn whole).
    public mutating func clear() -> [UInt8] {
        guard let graphics else { return [] }
        defer { drawn = [] }
        return drawn.indices.flatMap { PictureEscapes.remove(id: Self.firstID + $0, with: graphics) }
    }

    /// The bytes that draw `grid`'s pictures (after its text), leaving the cursor at the start of
    /// `parkRow`, where the frame renderer leaves it.
    public mutating func draw(_ grid: Grid, parkRow: Int) -> [UInt8] {
        guard let graphics else { return [] }
        drawn = drawable(grid)
        guard !drawn.isEmpty else { return [] }
        var bytes: [UInt8] = []
        for (index, picture) in drawn.enumerated() {
            if graphics == .sixel, let sixel {
                // A file the decoder refuses after all leaves its cells blank.
                if let pixels = sixel.decode(picture.image) { bytes += PictureEscapes.sixel(picture, pixels: pixels, cell: sixel.cell) }
            } else {
                bytes += PictureEscapes.draw(picture, id: Self.firstID + index, with: graphics)
            }
        }
        return bytes + Array("\u{1B}[\(parkRow + 1);1H".utf8)
    }
}
