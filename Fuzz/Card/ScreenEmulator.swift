import NotiplayViews

/// A terminal screen just capable enough to replay what `FrameRenderer` writes, strict where the
/// renderer makes promises: it never prints in the pending-wrap state of the last column or after
/// a character whose width terminals disagree on without positioning the cursor first, never
/// moves outside the grid, and never lets a wide character straddle the right edge.
///
/// Characters are taken as Swift segments them, each `CellWidth.of` columns wide; writing over
/// half of a wide character blanks its other half, as terminals do.
struct ScreenEmulator {
    struct ScreenCell: Equatable {
        var text = " "
        var style = CellStyle.plain
        /// The right half of a wide character.
        var isTail = false
    }

    let width: Int
    let height: Int
    private(set) var cells: [ScreenCell]
    private var row = 0
    private var column = 0
    /// After a character in the last column: the next character would wrap.
    private var pendingWrap = false
    /// After a character whose width terminals disagree on: the column is not known.
    private var uncertain = false
    private var pen = CellStyle.plain

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: ScreenCell(), count: width * height)
    }

    /// Applies `bytes` (already checked by `TerminalOracle`); returns what went wrong, if anything.
    mutating func apply(_ bytes: [UInt8]) -> String? {
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var i = 0
        var text = String.UnicodeScalarView()
        while i <= scalars.count {
            if i == scalars.count || scalars[i].value == 0x1B {
                if let problem = print(String(text)) { return problem }
                text.removeAll()
                if i == scalars.count { break }
                // ESC [ params final, as the oracle allowed.
                var j = i + 2
                var parameters = ""
                while !(scalars[j].properties.isAlphabetic) {
                    parameters.unicodeScalars.append(scalars[j])
                    j += 1
                }
                if let problem = control(parameters, final: scalars[j]) { return problem }
                i = j + 1
            } else {
                text.append(scalars[i])
                i += 1
            }
        }
        return nil
    }

    /// The screen's rows as text: each character once, trailing spaces removed.
    var lines: [String] {
        (0..<height).map { r in
            var line = ""
            for c in 0..<width where !cells[r * width + c].isTail { line += cells[r * width + c].text }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    subscript(row: Int, column: Int) -> ScreenCell { cells[row * width + column] }

    private mutating func control(_ parameters: String, final: Unicode.Scalar) -> String? {
        if parameters.hasPrefix("?") { return nil }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first.flatMap { $0 } ?? 1
        switch final {
        case "H", "f":
            let r = first - 1
            let c = (numbers.count > 1 ? numbers[1] ?? 1 : 1) - 1
            guard r >= 0, r < height, c >= 0, c < width else { return "moved to row \(r), column \(c), outside \(width)x\(height)" }
            (row, column, pendingWrap, uncertain) = (r, c, false, false)
        case "C":
            if pendingWrap || uncertain { return "moved forward from a column the terminal may not agree on" }
            let n = max(1, first)
            guard column + n < width else { return "moved forward past the right edge" }
            column += n
        case "J":
            guard parameters == "2" else { return "erase other than the whole screen" }
            cells = Array(repeating: ScreenCell(), count: width * height)
        case "m":
            return sgr(numbers.map { $0 ?? 0 })
        default:
            return "a sequence the renderer has no reason to write: \(parameters)\(final)"
        }
        return nil
    }

    private mutating func sgr(_ parameters: [Int]) -> String? {
        var i = 0
        while i < parameters.count {
            let p = parameters[i]
            switch p {
            case 0: pen = .plain
            case 1: pen.bold = true
            case 2: pen.dim = true
            case 3: pen.italic = true
            case 4: pen.underline = true
            case 7: pen.reverse = true
            case 22: (pen.bold, pen.dim) = (false, false)
            case 23: pen.italic = false
            case 24: pen.underline = false
            case 27: pen.reverse = false
            case 30...37: pen.foreground = .ansi(UInt8(p - 30))
            case 40...47: pen.background = .ansi(UInt8(p - 40))
            case 90...97: pen.foreground = .ansi(UInt8(p - 90 + 8))
            case 100...107: pen.background = .ansi(UInt8(p - 100 + 8))
            case 39: pen.foreground = .standard
            case 49: pen.background = .standard
            case 38, 48:
                let color: TerminalColor
                if i + 2 < parameters.count, parameters[i + 1] == 5, (0...255).contains(parameters[i + 2]) {
                    color = .palette(UInt8(parameters[i + 2]))
                    i += 2
                } else if i + 4 < parameters.count, parameters[i + 1] == 2,
                    parameters[(i + 2)...(i + 4)].allSatisfy({ (0...255).contains($0) })
                {
                    color = .rgb(UInt8(parameters[i + 2]), UInt8(parameters[i + 3]), UInt8(parameters[i + 4]))
                    i += 4
                } else {
                    return "a malformed extended colour in SGR \(parameters)"
                }
                if p == 38 { pen.foreground = color } else { pen.background = color }
            default: return "SGR \(p), which the renderer has no reason to write"
            }
            i += 1
        }
        return nil
    }

    private mutating func print(_ text: String) -> String? {
        for character in text {
            if pendingWrap { return "printed \(character.debugDescription) in the last column's pending wrap" }
            if uncertain { return "printed \(character.debugDescription) after a character of uncertain width" }
            let w = CellWidth.of(character)
            guard w > 0 else { return "printed a zero-width character \(character.unicodeScalars.map { $0.value })" }
            guard column + w <= width else { return "a wide character straddles the right edge at row \(row)" }
            blankOtherHalf(at: column)
            if w == 2 { blankOtherHalf(at: column + 1) }
            cells[row * width + column] = ScreenCell(text: String(character), style: pen)
            if w == 2 { cells[row * width + column + 1] = ScreenCell(text: "", style: pen, isTail: true) }
            column += w
            if column >= width {
                column = width - 1
                pendingWrap = true
            }
            if w == 2 && character.unicodeScalars.count > 1 { uncertain = true }
        }
        return nil
    }

    /// Writing at `c` breaks a wide character that covers it: its other half becomes a space.
    private mutating func blankOtherHalf(at c: Int) {
        let base = row * width
        if cells[base + c].isTail, c > 0 {
            cells[base + c - 1] = ScreenCell(text: " ", style: cells[base + c - 1].style)
        } else if c + 1 < width, cells[base + c + 1].isTail {
            cells[base + c + 1] = ScreenCell(text: " ", style: cells[base + c + 1].style)
        }
    }
}
