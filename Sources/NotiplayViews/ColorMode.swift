/// How many colours the terminal can show, and how a ``TerminalColor`` is brought down to them.
///
/// Colours are downsampled in steps: a 24-bit colour becomes the nearest entry of the 256-colour
/// palette's 6×6×6 cube or grey ramp, and a palette entry becomes the nearest of the 16 ANSI
/// colours. With ``none`` every colour becomes the terminal's own, while bold, dim, italic,
/// underline and reverse stay: `NO_COLOR` asks for no colour, not for no emphasis.
public enum ColorMode: Sendable, Hashable, CaseIterable {
    /// No colour at all (`NO_COLOR`, `TERM=dumb`, not a terminal).
    case none
    /// The 16 ANSI colours (SGR 30–37, 90–97 and their backgrounds).
    case ansi16
    /// The 256-colour palette (SGR 38;5;N).
    case palette256
    /// 24-bit colour (SGR 38;2;R;G;B).
    case trueColor

    /// The colour mode a terminal with this environment supports.
    ///
    /// In order: not a terminal → ``none``; `NO_COLOR` set to any non-empty value → ``none``
    /// (<https://no-color.org>); `TERM=dumb` → ``none`` (a dumb terminal, Emacs' shell, even
    /// when a `COLORTERM` was inherited from the terminal around it); `COLORTERM` `truecolor` or
    /// `24bit` → ``trueColor``; `TERM` containing `256color` → ``palette256``; `TERM` empty or
    /// unset → ``none``; any other `TERM` → ``ansi16``.
    /// - Parameters:
    ///   - environment: The process's environment variables, as the command line passes them.
    ///   - isTerminal: Whether the output is a terminal (`isatty(1)`).
    public static func detect(environment: [String: String], isTerminal: Bool) -> ColorMode {
        guard isTerminal else { return .none }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let term = environment["TERM"] ?? ""
        if term == "dumb" { return .none }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        if term.contains("256color") { return .palette256 }
        if term.isEmpty { return .none }
        return .ansi16
    }

    /// `color` as this mode can show it.
    ///
    /// An `.ansi` value above 15 is taken as the palette entry of that number.
    public func map(_ color: TerminalColor) -> TerminalColor {
        switch (self, color) {
        case (_, .standard): return .standard
        case (.none, _): return .standard
        case (_, .ansi(let n)) where n > 15: return map(.palette(n))
        case (_, .ansi): return color
        case (.trueColor, _): return color
        case (.palette256, .palette): return color
        case (.palette256, .rgb(let r, let g, let b)):
            return .palette(Self.nearestPaletteEntry(red: r, green: g, blue: b))
        case (.ansi16, .palette(let n)):
            return .ansi(Self.nearestANSIColor(toPaletteEntry: n))
        case (.ansi16, .rgb(let r, let g, let b)):
            return .ansi(Self.nearestANSIColor(toPaletteEntry: Self.nearestPaletteEntry(red: r, green: g, blue: b)))
        }
    }

    /// `style` with its colours as this mode can show them; its attributes are kept.
    public func map(_ style: CellStyle) -> CellStyle {
        var mapped = style
        mapped.foreground = map(style.foreground)
        mapped.background = map(style.background)
        return mapped
    }
}

// MARK: - The palette

extension ColorMode {
    /// The six levels of each channel in the palette's colour cube (entries 16–231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The 16 ANSI colours as xterm shows them by default.
    static let ansiRGB: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]

    /// The nearest ANSI colour of each palette entry, worked out once.
    static let ansiOfPalette: [UInt8] = (0...255).map { index in
        if index < 16 { return UInt8(index) }
        let (r, g, b) = paletteRGB(UInt8(index))
        return nearestANSIColor(red: Int(r), green: Int(g), blue: Int(b))
    }

    /// The colour of palette entry `index` as xterm shows it by default (the 16 ANSI colours,
    /// then the 6×6×6 cube, then the 24 greys from 8 to 238).
    public static func paletteRGB(_ index: UInt8) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let i = Int(index)
        switch i {
        case 0..<16:
            let (r, g, b) = ansiRGB[i]
            return (UInt8(r), UInt8(g), UInt8(b))
        case 16..<232:
            let n = i - 16
            return (UInt8(cubeLevels[n / 36]), UInt8(cubeLevels[n / 6 % 6]), UInt8(cubeLevels[n % 6]))
        default:
            let grey = UInt8(8 + 10 * (i - 232))
            return (grey, grey, grey)
        }
    }

    /// The palette entry nearest to a 24-bit colour, among the colour cube and the grey ramp
    /// (entries 16–255; the first 16 vary with the terminal's theme and are never chosen).
    public static func nearestPaletteEntry(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let (r, g, b) = (Int(red), Int(green), Int(blue))
        // The nearest cube level of each channel on its own gives the nearest cube colour.
        let (ri, gi, bi) = (nearestCubeLevel(r), nearestCubeLevel(g), nearestCubeLevel(b))
        let cube = 16 + 36 * ri + 6 * gi + bi
        let cubeDistance = distance(r, g, b, cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
        // The nearest grey: the one nearest to the channels' mean, weighted as `distance` weighs them.
        let mean = (2 * r + 4 * g + 3 * b) / 9
        let greyIndex = mean < 8 ? 0 : min(23, (mean - 8 + 5) / 10)
        let grey = 8 + 10 * greyIndex
        let greyDistance = distance(r, g, b, grey, grey, grey)
        return UInt8(greyDistance < cubeDistance ? 232 + greyIndex : cube)
    }

    /// The ANSI colour (0–15) nearest to palette entry `index`; entries 0–15 are themselves.
    public static func nearestANSIColor(toPaletteEntry index: UInt8) -> UInt8 {
        ansiOfPalette[Int(index)]
    }

    static func nearestANSIColor(red: Int, green: Int, blue: Int) -> UInt8 {
        var best = 0
        var bestDistance = Int.max
        for (i, (r, g, b)) in ansiRGB.enumerated() {
            let d = distance(red, green, blue, r, g, b)
            if d < bestDistance {
                best = i
                bestDistance = d
            }
        }
        return UInt8(best)
    }

    static func nearestCubeLevel(_ value: Int) -> Int {
        if value < 48 { return 0 }
        if value < 115 { return 1 }
        return min(5, (value - 35) / 40)
    }

    /// Squared distance, the channels weighted roughly as the eye weighs them (2, 4, 3).
    static func distance(_ r1: Int, _ g1: Int, _ b1: Int, _ r2: Int, _ g2: Int, _ b2: Int) -> Int {
        let (dr, dg, db) = (r1 - r2, g1 - g2, b1 - b2)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }
}
