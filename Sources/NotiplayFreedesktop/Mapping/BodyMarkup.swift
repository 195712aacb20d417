internal import NotiplayCore

/// Reads a `Notify` body in the Desktop Notifications Specification's markup into styled text.
///
/// - `<b>`, `<i>`, `<u>` and `<a href="…">` become styles of the text between their opening and
///   closing tags (nested in any order); `<br>` is a line break.
/// - `<img …>` and every other tag (`<span>`, `<script>`, `<p>`…), comments (`<!-- … -->`),
///   `<!DOCTYPE …>` and `<?…?>` are removed; the text between an unknown tag's opening and closing
///   tags stays, without the tags.
/// - The entities `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and numeric ones (`&#233;`,
///   `&#xE9;`) are decoded; a numeric entity naming no character (`&#0;`, a surrogate, past
///   U+10FFFF) becomes U+FFFD. Any other `&` is shown as it is.
/// - Broken markup degrades to its visible text and never fails: a closing tag with no opening
///   tag is dropped; a tag left open styles the text to the end; a `<` that begins no tag — not
///   followed by a letter, `/`, `!` or `?`, or with no `>` before the next `<` — is text
///   (`a < b`, `<3`, `x <y`). An attribute value may hold `>` when quoted; with a quote left
///   open, the tag ends at its first `>`. No tag is ever shown: a `<` of the text that, once
///   the tags after it are removed, would begin something reading as a tag (`<b <i>x</i> y>`
///   would show `<b x y>`) is dropped instead.
/// - Control characters and escape sequences never reach the result: the body is cleaned with
///   `TerminalText.clean` before parsing (line breaks kept), and so is each character an entity
///   decodes to (`&#27;` and `&#x9B;` are removed, leaving any `[31m` after them as harmless
///   text). `\r\n` is one line break.
/// - Leading and trailing white space of the whole body is dropped.
///
/// The work is linear in the body's length: a 64 KiB body parses in milliseconds.
public enum BodyMarkup {
    /// The styled text of `body`.
    public static func parse(_ body: String) -> StyledText {
        let cleaned = TerminalText.clean(body.replacing("\r\n", with: "\n"), keepNewlines: true)
        var parser = MarkupParser(Array(cleaned.unicodeScalars))
        return parser.run().trimmingWhitespace()
    }

    /// The body as plain text, its tags removed and entities decoded: what ``parse(_:)`` shows,
    /// without the styles.
    public static func plainText(_ body: String) -> String {
        parse(body).plainText
    }
}

/// One pass over the cleaned body's scalars, keeping the styles open at each point.
private struct MarkupParser {
    let s: [Unicode.Scalar]
    var i = 0
    /// Text read since the style last changed.
    var pending = String.UnicodeScalarView()
    var bold = 0
    var italic = 0
    var underline = 0
    /// The link in force at each open `<a>`: its own `href`, or the enclosing link's.
    var links: [String?] = []
    var result = StyledText([])
    /// A search for `-->` from before this index found none: later ones would not either.
    var noCommentEndFrom: Int?

    init(_ scalars: [Unicode.Scalar]) {
        s = scalars
    }

    mutating func run() -> StyledText {
        while i < s.count {
            let c = s[i]
            if c == "<" {
                if let end = commentEnd(from: i) ?? tagEnd(from: i) {
                    tag(i + 1, end)
                    i = end + 1
                } else {
                    pending.append(Self.literalBracket)
                    i += 1
                }
            } else if c == "&", let (decoded, next) = entity(at: i) {
                pending.append(contentsOf: TerminalText.clean(String(decoded), keepNewlines: true).unicodeScalars)
                i = next
            } else {
                pending.append(c)
                i += 1
            }
        }
        flush()
        return Self.resolvingLiteralBrackets(result)
    }

    /// Ends the current run: its text in the style in force.
    mutating func flush() {
        guard !pending.isEmpty else { return }
        let text = String(pending)
        pending = String.UnicodeScalarView()
        let link = links.last ?? nil
        result.append(StyledRun(text, bold: bold > 0, italic: italic > 0, underline: underline > 0, link: link))
    }

    /// Stands in the text for a `<` that began no tag until the whole body is read (the cleaned
    /// body holds no control characters, so it cannot be mistaken for one of the body's).
    static let literalBracket: Unicode.Scalar = "\u{1}"

    /// `text` with each ``literalBracket`` made a `<` again — unless, with the tags around it
    /// gone, it would begin something that reads as a tag (a letter, `/`, `!` or `?` after it
    /// and a `>` before the next `<`): then it is dropped, so that no tag is ever shown. A `<`
    /// from `&lt;` is the client's text and is kept as it is.
    static func resolvingLiteralBrackets(_ text: StyledText) -> StyledText {
        guard text.runs.contains(where: { $0.text.unicodeScalars.contains(literalBracket) }) else { return text }
        var runs = text.runs
        var closeAhead = false
        var next: Unicode.Scalar?
        for r in runs.indices.reversed() {
            var out: [Unicode.Scalar] = []
            for c in runs[r].text.unicodeScalars.reversed() {
                if c == literalBracket {
                    if closeAhead, let next, beginsTag(next) { continue }
                    out.append("<")
                    next = "<"
                    closeAhead = false
                    continue
                }
                if c == ">" { closeAhead = true } else if c == "<" { closeAhead = false }
                out.append(c)
                next = c
            }
            runs[r].text = String(String.UnicodeScalarView(out.reversed()))
        }
        return StyledText(runs)
    }

    // MARK: Finding tags

    /// For `<!--` at `start`, the index of the `>` of its `-->`; `nil` when there is none (or no
    /// comment starts here).
    mutating func commentEnd(from start: Int) -> Int? {
        guard start + 3 < s.count, s[start + 1] == "!", s[start + 2] == "-", s[start + 3] == "-" else { return nil }
        if let failed = noCommentEndFrom, failed <= start { return nil }
        var j = start + 4
        while j + 2 < s.count {
            if s[j] == "-", s[j + 1] == "-", s[j + 2] == ">" { return j + 2 }
            j += 1
        }
        noCommentEndFrom = start
        return nil
    }

    /// For a `<` at `start`, the index of the `>` that ends its tag, or `nil` when it begins no
    /// tag (then it is text). The search stops at the next `<`, so the whole parse stays linear.
    func tagEnd(from start: Int) -> Int? {
        guard start + 1 < s.count, Self.beginsTag(s[start + 1]) else { return nil }
        var quote: Unicode.Scalar?
        var firstClose: Int?
        var lastSignificant: Unicode.Scalar = "<"
        var j = start + 1
        while j < s.count {
            let c = s[j]
            if c == "<" { break }
            if let open = quote {
                if c == ">", firstClose == nil { firstClose = j }
                if c == open { quote = nil }
            } else if c == ">" {
                return j
            } else if (c == "\"" || c == "'") && lastSignificant == "=" {
                quote = c
            }
            if c != " " && c != "\n" { lastSignificant = c }
            j += 1
        }
        // A quote left open: the tag ends at its first `>`, if any.
        return firstClose
    }

    static func beginsTag(_ c: Unicode.Scalar) -> Bool {
        c.isASCIILetter || c == "/" || c == "!" || c == "?"
    }

    // MARK: Tags

    /// Acts on the tag whose inside (between `<` and `>`) is `s[from..<to]`.
    mutating func tag(_ from: Int, _ to: Int) {
        guard from < to, s[from] != "!", s[from] != "?" else { return }  // comments, doctypes, PIs
        let closing = s[from] == "/"
        var j = closing ? from + 1 : from
        var name = ""
        while j < to, s[j].isNameCharacter {
            name.unicodeScalars.append(s[j].asciiLowercased)
            j += 1
        }
        let selfClosing = !closing && s[from..<to].last { $0 != " " && $0 != "\n" } == "/"
        switch name {
        case "b", "i", "u", "a":
            if selfClosing { return }
            flush()
            if closing { close(name) } else { open(name, attributes: j, to) }
        case "br":
            pending.append("\n")
        default:
            break  // `<img>` and every other tag: removed.
        }
    }

    mutating func open(_ name: String, attributes from: Int, _ to: Int) {
        switch name {
        case "b": bold += 1
        case "i": italic += 1
        case "u": underline += 1
        default:
            let href = attribute("href", from, to).map { TerminalText.clean($0) }.flatMap { $0.isEmpty ? nil : $0 }
            links.append(href ?? links.last ?? nil)
        }
    }

    mutating func close(_ name: String) {
        switch name {
        case "b": bold = max(0, bold - 1)
        case "i": italic = max(0, italic - 1)
        case "u": underline = max(0, underline - 1)
        default: if !links.isEmpty { links.removeLast() }
        }
    }

    /// The value of the attribute `wanted` among `s[from..<to]` (`name="v"`, `name='v'` or
    /// `name=v`), entities decoded; `nil` when it is not there.
    func attribute(_ wanted: String, _ from: Int, _ to: Int) -> String? {
        var j = from
        while j < to {
            while j < to, !s[j].isNameCharacter { j += 1 }
            var name = ""
            while j < to, s[j].isNameCharacter {
                name.unicodeScalars.append(s[j].asciiLowercased)
                j += 1
            }
            while j < to, s[j] == " " || s[j] == "\n" { j += 1 }
            guard j < to, s[j] == "=" else { continue }
            j += 1
            while j < to, s[j] == " " || s[j] == "\n" { j += 1 }
            var value = String.UnicodeScalarView()
            if j < to, s[j] == "\"" || s[j] == "'" {
                let quote = s[j]
                j += 1
                while j < to, s[j] != quote {
                    value.append(s[j])
                    j += 1
                }
                j += 1
            } else {
                while j < to, s[j] != " ", s[j] != "\n", s[j] != ">" {
                    value.append(s[j])
                    j += 1
                }
            }
            if name == wanted { return Self.decodingEntities(value) }
        }
        return nil
    }

    // MARK: Entities

    /// The character of the entity at `start` (an `&`) and the index after its `;`, or `nil`
    /// when no entity this parser knows starts there.
    func entity(at start: Int) -> (Unicode.Scalar, Int)? {
        var j = start + 1
        var name = String.UnicodeScalarView()
        while j < s.count, j - start <= 10, s[j] != ";" {
            name.append(s[j])
            j += 1
        }
        guard j < s.count, s[j] == ";", let scalar = Self.character(named: String(name)) else { return nil }
        return (scalar, j + 1)
    }

    /// The character an entity name (between `&` and `;`) stands for.
    static func character(named name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value: UInt32?
        if digits.hasPrefix("x") || digits.hasPrefix("X") {
            let hex = digits.dropFirst()
            value = hex.isEmpty || hex.count > 8 ? nil : UInt32(hex, radix: 16)
        } else {
            value = digits.isEmpty || digits.count > 8 ? nil : UInt32(digits, radix: 10)
        }
        guard let value else { return nil }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    /// `text` with its entities decoded (for attribute values).
    static func decodingEntities(_ text: String.UnicodeScalarView) -> String {
        var parser = MarkupParser(Array(text))
        var out = String.UnicodeScalarView()
        while parser.i < parser.s.count {
            if parser.s[parser.i] == "&", let (decoded, next) = parser.entity(at: parser.i) {
                out.append(decoded)
                parser.i = next
            } else {
                out.append(parser.s[parser.i])
                parser.i += 1
            }
        }
        return String(out)
    }
}

extension StyledText {
    /// The text without white space at its start and end.
    func trimmingWhitespace() -> StyledText {
        var runs = self.runs
        while let first = runs.first {
            let kept = first.text.drop { $0.isWhitespace }
            if kept.isEmpty { runs.removeFirst() } else { runs[0].text = String(kept); break }
        }
        while let last = runs.last {
            let kept = String(last.text.reversed().drop { $0.isWhitespace }.reversed())
            if kept.isEmpty { runs.removeLast() } else { runs[runs.count - 1].text = kept; break }
        }
        return StyledText(runs)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }

    /// A character of a tag or attribute name: an ASCII letter or digit, `-`, `_`, `:` or `.`.
    fileprivate var isNameCharacter: Bool {
        isASCIILetter || (0x30...0x39).contains(value) || self == "-" || self == "_" || self == ":" || self == "."
    }

    fileprivate var asciiLowercased: Unicode.Scalar {
        (0x41...0x5A).contains(value) ? Unicode.Scalar(UInt8(value + 0x20)) : self
    }
}
