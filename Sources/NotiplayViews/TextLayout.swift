/// Wrapping and cutting text by the columns it takes on a terminal.
public enum TextLayout {
    /// `text` cut to at most `width` columns, ending in `ellipsis` when something was cut.
    public static func truncate(_ text: some StringProtocol, width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        var used = 0
        var out = ""
        let ellipsisWidth = CellWidth.of(ellipsis)
        var index = text.startIndex
        while index < text.endIndex {
            let w = CellWidth.of(text[index])
            if used + w > width {
                // Make room for the ellipsis.
                while !out.isEmpty && used + ellipsisWidth > width {
                    used -= CellWidth.of(out.removeLast())
                }
                return ellipsisWidth <= width ? out + ellipsis : out
            }
            out.append(text[index])
            used += w
            index = text.index(after: index)
        }
        return out
    }

    /// `text` broken into lines of at most `width` columns: at spaces where it can, inside a word
    /// when a word is longer than a line; `\n` starts a new paragraph. At most `maxLines` lines;
    /// the last ends in `…` when text was left out.
    public static func wrap(_ text: some StringProtocol, width: Int, maxLines: Int = .max) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        var lines: [String] = []
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (p, paragraph) in paragraphs.enumerated() {
            var line = ""
            var lineWidth = 0
            // Closes the current line; false when the limit is reached with text left over.
            func emit(_ moreFollows: Bool) -> Bool {
                lines.append(line)
                line = ""
                lineWidth = 0
                if lines.count == maxLines && moreFollows {
                    lines[lines.count - 1] = truncate(lines[lines.count - 1] + "…", width: width)
                    return false
                }
                return true
            }
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var word = Substring(word)
                var wordWidth = CellWidth.of(word)
                if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                    continue
                }
                if lineWidth > 0 && !emit(true) { return lines }
                // A word longer than the line: break it.
                while wordWidth > width {
                    var index = word.startIndex
                    while index < word.endIndex, lineWidth + CellWidth.of(word[index]) <= width {
                        line.append(word[index])
                        lineWidth += CellWidth.of(word[index])
                        index = word.index(after: index)
                    }
                    if index == word.startIndex { index = word.index(after: index) }  // a wide character on a 1-column line
                    if !emit(true) { return lines }
                    word = word[index...]
                    wordWidth = CellWidth.of(word)
                }
                line = String(word)
                lineWidth = wordWidth
            }
            if !emit(p + 1 < paragraphs.count) { return lines }
            if lines.count == maxLines { return lines }
        }
        return lines
    }
}
