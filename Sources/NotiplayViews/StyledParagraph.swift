import NotiplayCore

/// Styled text wrapped to the width: a ``Paragraph`` whose spans keep their own styles (bold,
/// italic, underlined, coloured words in the middle of a sentence).
///
/// ```swift
/// StyledParagraph(spans: [
///     TextSpan("Build "), TextSpan("failed", style: .bold), TextSpan(": see the log"),
/// ], maxLines: 4)
/// ```
///
/// It wraps as ``TextLayout/wrap(_:width:maxLines:)`` does: at spaces where it can (a run of
/// spaces becomes one, drawn in the style of its first), inside a word when a word is longer than
/// a line; `\n` starts a new line. At most `maxLines` lines; the last ends in `…` when text was
/// left out. Each span's text is cleaned of control characters and escape sequences (line
/// breaks kept) before layout.
public struct StyledParagraph: ViewElement, Hashable {
    /// Where it sits in its container, in points; `nil`: in the flow.
    public var placement: PointFrame?
    /// The spans, in order.
    public var spans: [TextSpan]
    /// The most lines shown.
    public var maxLines: Int

    /// A paragraph of `spans`.
    public init(spans: [TextSpan], maxLines: Int = 6) {
        self.spans = spans
        self.maxLines = maxLines
    }

    public func render(width: Int) -> Grid {
        let lines = StyledWrap(width: width, maxLines: maxLines).lines(of: glyphs(budget: max(64, width * maxLines * 4)))
        var grid = Grid(width: width, height: lines.count)
        for (y, line) in lines.enumerated() {
            var x = 0
            for glyph in line { x = grid.put(String(glyph.character), row: y, column: x, style: glyph.style) }
        }
        return grid
    }

    /// The cleaned text as styled characters, at most `budget` of them (so that a huge text costs
    /// no more than what fills the lines), then ` …` when more was left out.
    private func glyphs(budget: Int) -> [StyledWrap.Glyph] {
        var glyphs: [StyledWrap.Glyph] = []
        for span in spans {
            for character in TerminalText.clean(span.text, keepNewlines: true) {
                guard glyphs.count < budget else {
                    glyphs.append(contentsOf: " …".map { StyledWrap.Glyph(character: $0, style: span.style) })
                    return glyphs
                }
                glyphs.append(StyledWrap.Glyph(character: character, style: span.style))
            }
        }
        return glyphs
    }
}

/// Greedy line breaking of styled characters (the styled twin of ``TextLayout/wrap(_:width:maxLines:)``).
private struct StyledWrap {
    struct Glyph {
        var character: Character
        var style: CellStyle
        var width: Int { CellWidth.of(character) }
    }

    let width: Int
    let maxLines: Int
    private(set) var lines: [[Glyph]] = []
    private var line: [Glyph] = []
    private var lineWidth = 0

    init(width: Int, maxLines: Int) {
        self.width = width
        self.maxLines = maxLines
    }

    /// The lines of `glyphs`.
    func lines(of glyphs: [Glyph]) -> [[Glyph]] {
        guard width > 0, maxLines > 0 else { return [] }
        var wrap = self
        let paragraphs = glyphs.split(omittingEmptySubsequences: false) { $0.character == "\n" }
        for (p, paragraph) in paragraphs.enumerated() {
            guard wrap.add(paragraph), wrap.emit(moreFollows: p + 1 < paragraphs.count), wrap.lines.count < maxLines
            else { break }
        }
        return wrap.lines
    }

    /// Adds one paragraph's words; false when the lines ran out with text left over.
    private mutating func add(_ paragraph: ArraySlice<Glyph>) -> Bool {
        var separator: Glyph?
        var word: [Glyph] = []
        for glyph in paragraph {
            if glyph.character == " " {
                if !word.isEmpty {
                    guard place(word, after: separator) else { return false }
                    word = []
                    separator = nil
                }
                if separator == nil { separator = glyph }
            } else {
                word.append(glyph)
            }
        }
        return word.isEmpty || place(word, after: separator)
    }

    /// Puts `word` on the line after a space like `separator`, or on new lines when it does not
    /// fit; false when the lines ran out.
    private mutating func place(_ word: [Glyph], after separator: Glyph?) -> Bool {
        var word = word[...]
        var wordWidth = word.reduce(0) { $0 + $1.width }
        if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
            line.append(Glyph(character: " ", style: separator?.style ?? .plain))
            line.append(contentsOf: word)
            lineWidth += 1 + wordWidth
            return true
        }
        if lineWidth > 0 && !emit(moreFollows: true) { return false }
        // A word longer than the line: break it.
        while wordWidth > width {
            var taken = word.startIndex
            while taken < word.endIndex, lineWidth + word[taken].width <= width {
                line.append(word[taken])
                lineWidth += word[taken].width
                taken += 1
            }
            if taken == word.startIndex { taken += 1 }  // a wide character on a 1-column line
            guard emit(moreFollows: true) else { return false }
            word = word[taken...]
            wordWidth = word.reduce(0) { $0 + $1.width }
        }
        line = Array(word)
        lineWidth = wordWidth
        return true
    }

    /// Closes the current line; false when the limit is reached with more to come (the line then
    /// ends in `…`).
    private mutating func emit(moreFollows: Bool) -> Bool {
        lines.append(line)
        line = []
        lineWidth = 0
        guard lines.count == maxLines && moreFollows else { return true }
        var last = lines[lines.count - 1]
        var used = last.reduce(0) { $0 + $1.width }
        while !last.isEmpty && used + 1 > width { used -= last.removeLast().width }
        if width >= 1 { last.append(Glyph(character: "…", style: last.last?.style ?? .plain)) }
        lines[lines.count - 1] = last
        return false
    }
}
