import FuzzSupport
import NotiplayCore
import NotiplayViews

/// Image bytes, untrusted: the first byte picks a content mode and a width, the rest is the file
/// (a PNG or JPEG seed, cut and changed). The header is read (``ImageHeader/read(_:)``), the image
/// made (``PictureImage/init(bytes:name:)``), laid out in an ``ImageView`` in the flow and placed,
/// and drawn with every ``GraphicsProtocol``.
///
/// A PNG is also decoded (``PNGPixels``) and its pixels written as sixel.
///
/// Oracles: a header's size is 1 to 16,384 pixels a side; the image's is the header's; every
/// picture lies whole inside its grid, with a crop inside the image; the stand-in shows the
/// size in the flow; decoded pixels are the header's size, and their sixel sequence is DCS …
/// ST with printable ASCII between; base64 of the file is 4 bytes for every 3, rounded up.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(LibFuzzer.bytes(data, size))
    let settings = input.byte()
    let bytes = Array(LibFuzzer.bytes(data, size).dropFirst())
    let header = ImageHeader.read(bytes)
    if let header, !(1...ImageHeader.maximumSide).contains(header.width) || !(1...ImageHeader.maximumSide).contains(header.height) {
        oracleFailure("a header of \(header.width)×\(header.height)")
    }
    if let pixels = PNGPixels.decode(bytes) {
        if pixels.width != header?.width || pixels.height != header?.height { oracleFailure("pixels of another size than the header's") }
        let sixel = Sixel.encode(pixels, crop: nil, width: 1 + Int(settings) % 64, height: 1 + Int(settings / 4) % 64)
        if sixel.isEmpty || sixel.prefix(2) != [0x1B, 0x50] || sixel.suffix(2) != [0x1B, 0x5C] { oracleFailure("a sixel sequence not framed by DCS … ST") }
        if sixel.dropFirst(2).dropLast(2).contains(where: { $0 < 0x20 || $0 > 0x7E }) { oracleFailure("a control or non-ASCII byte inside the sixel data") }
    }
    guard let image = PictureImage(bytes: bytes, name: "fuzz.png") else { return 0 }
    if image.pixelWidth != header?.width || image.pixelHeight != header?.height { oracleFailure("the image's size is not its header's") }
    let modes: [ImageContentMode] = [.scaleToFill, .scaleAspectFit, .scaleAspectFill, .center]
    var view = ImageView(image: image, contentMode: modes[Int(settings) % 4])
    let width = 1 + Int(settings / 4) % 80
    var grids = [view.render(width: width)]
    view.placement = PointFrame(x: Double(settings % 7) * 5, y: 3, width: Double(settings) * 3, height: Double(settings % 13) * 9)
    grids.append(VerticalStack([view]).render(width: width))
    for (index, grid) in grids.enumerated() {
        for picture in grid.pictures {
            if picture.frame.isEmpty || picture.frame.clipped(width: grid.width, height: grid.height) != picture.frame {
                oracleFailure("a picture at \(picture.frame) in a \(grid.width)×\(grid.height) grid")
            }
            if let crop = picture.crop,
                crop.x < 0 || crop.y < 0 || crop.width < 1 || crop.height < 1 || crop.x + crop.width > image.pixelWidth
                    || crop.y + crop.height > image.pixelHeight
            {
                oracleFailure("a crop \(crop) of a \(image.pixelWidth)×\(image.pixelHeight) image")
            }
            for graphics in GraphicsProtocol.allCases { _ = PictureEscapes.draw(picture, id: 1, with: graphics) }
        }
        if index == 0, grid.height > 0, !grid.lines.contains(where: { $0.contains("\(image.pixelWidth)") || $0.contains("…") }) {
            oracleFailure("no stand-in in \(grid.lines)")
        }
    }
    let encoded = PictureEscapes.base64(bytes)
    if encoded.count != (bytes.count + 2) / 3 * 4 { oracleFailure("base64 of \(bytes.count) bytes is \(encoded.count) long") }
    return 0
}

/// Hands the process to libFuzzer with this target (called from `main.swift`; the C function
/// is taken here, in its own file, so that the compiler emits it once).
func runFuzzTarget() -> Never {
    LibFuzzer.run(LLVMFuzzerTestOneInput)
}
