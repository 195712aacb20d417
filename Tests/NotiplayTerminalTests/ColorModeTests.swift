import NotiplayTerminal
import NotiplayViews
import Testing

@Suite("Colour modes: detection and downsampling")
struct ColorModeTests {
    @Test("detection from the environment", arguments: [
        (["TERM": "xterm-256color", "COLORTERM": "truecolor"], true, ColorMode.trueColor),
        (["TERM": "xterm-256color", "COLORTERM": "24bit"], true, .trueColor),
        (["TERM": "xterm", "COLORTERM": "TrueColor"], true, .trueColor),
        (["TERM": "xterm-256color"], true, .palette256),
        (["TERM": "tmux-256color", "COLORTERM": "yes"], true, .palette256),
        (["TERM": "xterm"], true, .ansi16),
        (["TERM": "linux"], true, .ansi16),
        (["TERM": "vt100"], true, .ansi16),
        (["TERM": "dumb"], true, .none),
        (["TERM": "dumb", "COLORTERM": "truecolor"], true, .none),  // Emacs' shell inside a true-colour terminal
        (["TERM": ""], true, .none),
        ([:], true, .none),
        (["COLORTERM": "truecolor"], true, .trueColor),
        (["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"], true, .none),
        (["TERM": "xterm", "NO_COLOR": "0"], true, .none),  // any non-empty value
        (["TERM": "xterm-256color", "NO_COLOR": ""], true, .palette256),  // empty: as if unset
        (["TERM": "xterm-256color", "COLORTERM": "truecolor"], false, .none),  // not a terminal
    ])
    func detect(_ environment: [String: String], _ isTerminal: Bool, _ expected: ColorMode) {
        #expect(ColorMode.detect(environment: environment, isTerminal: isTerminal) == expected)
    }

    @Test("the palette's colours: 16 ANSI, the 6×6×6 cube, the grey ramp")
    func paletteColors() {
        #expect(ColorMode.paletteRGB(16) == (0, 0, 0))
        #expect(ColorMode.paletteRGB(196) == (255, 0, 0))
        #expect(ColorMode.paletteRGB(67) == (95, 135, 175))
        #expect(ColorMode.paletteRGB(231) == (255, 255, 255))
        #expect(ColorMode.paletteRGB(232) == (8, 8, 8))
        #expect(ColorMode.paletteRGB(255) == (238, 238, 238))
        #expect(ColorMode.paletteRGB(9) == (255, 0, 0))
    }

    @Test("every cube and grey entry is its own nearest entry")
    func paletteRoundTrip() {
        for index in 16...255 {
            let (r, g, b) = ColorMode.paletteRGB(UInt8(index))
            #expect(ColorMode.nearestPaletteEntry(red: r, green: g, blue: b) == UInt8(index), "entry \(index)")
        }
    }

    @Test("24-bit colours to the palette", arguments: [
        ((255, 0, 0), 196), ((0, 0, 0), 16), ((255, 255, 255), 231), ((128, 128, 128), 244),
        ((250, 128, 114), 209), ((10, 10, 12), 232), ((0, 95, 135), 24), ((100, 149, 237), 69),
    ] as [((UInt8, UInt8, UInt8), UInt8)])
    func toPalette(_ rgb: (UInt8, UInt8, UInt8), _ entry: UInt8) {
        #expect(ColorMode.nearestPaletteEntry(red: rgb.0, green: rgb.1, blue: rgb.2) == entry)
        #expect(ColorMode.palette256.map(.rgb(rgb.0, rgb.1, rgb.2)) == .palette(entry))
    }

    @Test("palette entries to the 16 ANSI colours", arguments: [
        (196, 9), (16, 0), (231, 15), (21, 4), (46, 10), (244, 8), (250, 7), (3, 3), (12, 12), (201, 13), (51, 14),
    ] as [(UInt8, UInt8)])
    func toANSI(_ entry: UInt8, _ ansi: UInt8) {
        #expect(ColorMode.nearestANSIColor(toPaletteEntry: entry) == ansi)
        #expect(ColorMode.ansi16.map(.palette(entry)) == .ansi(ansi))
    }

    @Test("each mode keeps what it can show and brings down the rest")
    func modes() {
        let red = TerminalColor.rgb(255, 0, 0)
        #expect(ColorMode.trueColor.map(red) == red)
        #expect(ColorMode.palette256.map(red) == .palette(196))
        #expect(ColorMode.ansi16.map(red) == .ansi(9))  // through palette entry 196
        #expect(ColorMode.none.map(red) == .standard)
        for mode in [ColorMode.trueColor, .palette256, .ansi16] {
            #expect(mode.map(.ansi(3)) == .ansi(3))
            #expect(mode.map(.standard) == .standard)
            #expect(mode.map(.systemTint) == .systemTint)
        }
        #expect(ColorMode.trueColor.map(.palette(67)) == .palette(67))
        #expect(ColorMode.palette256.map(.palette(67)) == .palette(67))
        #expect(ColorMode.ansi16.map(.ansi(200)) == .ansi(ColorMode.nearestANSIColor(toPaletteEntry: 200)))
        #expect(ColorMode.none.map(.ansi(3)) == .standard)
        #expect(ColorMode.none.map(.palette(67)) == .standard)
    }

    @Test("NO_COLOR drops colours and keeps bold, dim, italic, underline and reverse")
    func noColorKeepsAttributes() {
        let style = CellStyle(
            foreground: .rgb(1, 2, 3), background: .ansi(4), bold: true, dim: true, italic: true, underline: true,
            reverse: true)
        let mapped = ColorMode.none.map(style)
        #expect(mapped == CellStyle(bold: true, dim: true, italic: true, underline: true, reverse: true))
    }
}
