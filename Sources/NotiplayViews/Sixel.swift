public import NotiplayCore


/// DEC sixel graphics: pixels scaled (nearest neighbour) to a size in pixels and brought down to
/// 216 colours (6 levels of red, green and blue), as `ESC P 0;1;0 q "1;1;W;H`, the palette
/// entries used (`#n;2;r;g;b`, in percent), then bands of six rows — each colour's run of sixel
/// characters (`!count` for runs of four or more), `$` between colours, `-` between bands — and
/// `ESC \`. Pixels never set keep the background (P2 = 1).
public enum Sixel {
    /// The largest picture sent, in pixels a side.
    public static let maximumSide = 4_096

    /// The sixel sequence for `crop` of `pixels` (all of them when `nil`) scaled to `width` ×
    /// `height` pixels; empty when the size is 0 or over ``maximumSide``, or the crop is not
    /// inside the pixels.
    public static func encode(_ pixels: RGBPixels, crop: PixelRect?, width: Int, height: Int) -> [UInt8] {
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else { return [] }
        let source = crop ?? PixelRect(x: 0, y: 0, width: pixels.width, height: pixels.height)
        guard source.x >= 0, source.y >= 0, source.width > 0, source.height > 0,
            source.x + source.width <= pixels.width, source.y + source.height <= pixels.height
        else { return [] }
        // The colour of every target pixel, 0…215.
        var colours = [UInt8](repeating: 0, count: width * height)
        var used = [Bool](repeating: false, count: 216)
        for y in 0..<height {
            let sy = source.y + y * source.height / height
            for x in 0..<width {
                let sx = source.x + x * source.width / width
                let at = (sy * pixels.width + sx) * 3
                let colour = level(pixels.bytes[at]) * 36 + level(pixels.bytes[at + 1]) * 6 + level(pixels.bytes[at + 2])
                colours[y * width + x] = UInt8(colour)
                used[colour] = true
            }
        }
        var out = Array("\u{1B}P0;1;0q\"1;1;\(width);\(height)".utf8)
        for colour in 0..<216 where used[colour] {
            out += Array("#\(colour);2;\(colour / 36 * 20);\(colour / 6 % 6 * 20);\(colour % 6 * 20)".utf8)
        }
        var top = 0
        while top < height {
            band(colours, width: width, top: top, rows: min(6, height - top), into: &out)
            top += 6
            if top < height { out.append(UInt8(ascii: "-")) }
        }
        return out + [0x1B, 0x5C]
    }

    /// 0…5 for a sample 0…255.
    private static func level(_ value: UInt8) -> Int { (Int(value) * 5 + 127) / 255 }

    /// One band of six rows (fewer at the bottom) from `top`: each colour in it, `$` between.
    private static func band(_ colours: [UInt8], width: Int, top: Int, rows: Int, into out: inout [UInt8]) {
        var present = [Bool](repeating: false, count: 216)
        for y in top..<(top + rows) {
            for x in 0..<width { present[Int(colours[y * width + x])] = true }
        }
        var first = true
        for colour in 0..<216 where present[colour] {
            if !first { out.append(UInt8(ascii: "$")) }
            first = false
            out += Array("#\(colour)".utf8)
            var run: UInt8 = 0
            var count = 0
            for x in 0...width {
                var character: UInt8 = 0
                if x < width {
                    var bits: UInt8 = 0
                    for k in 0..<rows where Int(colours[(top + k) * width + x]) == colour { bits |= 1 << k }
                    character = 63 + bits
                }
                if x < width, character == run {
                    count += 1
                    continue
                }
                if count >= 4 {
                    out += Array("!\(count)".utf8) + [run]
                } else if count > 0 {
                    out += [UInt8](repeating: run, count: count)
                }
                (run, count) = (character, 1)
            }
        }
    }
}
