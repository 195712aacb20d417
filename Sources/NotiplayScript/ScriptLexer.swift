import NotiplayCore

/// One word or string of a script line.
struct ScriptToken: Sendable, Equatable {
    /// The text, with a string's quotes removed and its escapes decoded.
    var text: String
    /// The column of its first character (from 1; the opening quote for a string).
    var column: Int
    /// The column just past its last character.
    var end: Int
    /// Whether it was written in double quotes (then it is never a keyword).
    var quoted: Bool

    /// Whether this is the bare word `word`.
    func isWord(_ word: String) -> Bool { !quoted && text == word }
}

/// Splits script text into lines and lines into tokens.
///
/// Columns count Unicode scalars from 1, as the JSON parser's do. A line ends at `\n`; a `\r`
/// just before it (or at the end of the text) belongs to the line ending. Tokens are separated
/// by spaces and tabs; `#` outside a string starts a comment that runs to the end of the line.
/// A string is written in double quotes, with `\"` and `\\` as its only escapes.
enum ScriptLexer {
    /// The lines of `text` (without their line endings), numbered from 1. A byte-order mark at
    /// the very start is skipped.
    static func lines(of text: String) -> [(number: Int, scalars: [Unicode.Scalar])] {
        var result: [(number: Int, scalars: [Unicode.Scalar])] = []
        var current: [Unicode.Scalar] = []
        var first = true
        for scalar in text.unicodeScalars {
            defer { first = false }
            if first, scalar.value == 0xFEFF { continue }
            if scalar == "\n" {
                if current.last == "\r" { current.removeLast() }
                result.append((result.count + 1, current))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(scalar)
            }
        }
        if current.last == "\r" { current.removeLast() }
        if !current.isEmpty { result.append((result.count + 1, current)) }
        return result
    }

    /// The tokens of one line.
    /// - Throws: An unterminated string (at its opening quote), an unknown escape, a quote inside
    ///   a word, a string followed by something other than a space, or a control character.
    static func tokens(
        of line: [Unicode.Scalar], number: Int, path: String
    ) throws(ScriptError) -> [ScriptToken] {
        func fail(_ index: Int, _ message: String) -> ScriptError {
            ScriptError(path: path, line: number, column: index + 1, message: message)
        }
        var tokens: [ScriptToken] = []
        var i = 0
        while i < line.count {
            let scalar = line[i]
            if isSeparator(scalar) {
                i += 1
                continue
            }
            if scalar == "#" { break }
            let start = i
            var text = String.UnicodeScalarView()
            if scalar == "\"" {
                i += 1
                var closed = false
                while i < line.count {
                    let c = line[i]
                    if c == "\"" {
                        closed = true
                        i += 1
                        break
                    }
                    if c == "\\" {
                        guard i + 1 < line.count else { break }
                        let escaped = line[i + 1]
                        if isControl(escaped) { throw fail(i + 1, controlMessage(escaped)) }
                        guard escaped == "\"" || escaped == "\\" else {
                            throw fail(
                                i, "unknown escape \\\(ScriptText.visible(String(escaped))) in a string; only \\\" and \\\\ are allowed")
                        }
                        text.append(escaped)
                        i += 2
                        continue
                    }
                    if isControl(c) { throw fail(i, controlMessage(c)) }
                    text.append(c)
                    i += 1
                }
                guard closed else { throw fail(start, "unterminated string: no closing \" on this line") }
                // A comma may follow directly, to start the next item of a list (`expect actions "a b",c`).
                if i < line.count, !isSeparator(line[i]), line[i] != "#", line[i] != "," {
                    throw fail(i, "a string must be followed by a space or the end of the line")
                }
                tokens.append(ScriptToken(text: String(text), column: start + 1, end: i + 1, quoted: true))
            } else {
                while i < line.count, !isSeparator(line[i]), line[i] != "#" {
                    let c = line[i]
                    if c == "\"" {
                        // After a comma a string may start a list's next item (`expect actions a,"b c"`).
                        if i > start, line[i - 1] == "," { break }
                        throw fail(i, "a quote inside a word; put the whole argument in double quotes")
                    }
                    if isControl(c) { throw fail(i, controlMessage(c)) }
                    text.append(c)
                    i += 1
                }
                tokens.append(ScriptToken(text: String(text), column: start + 1, end: i + 1, quoted: false))
            }
        }
        return tokens
    }

    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

    /// C0 controls (but tab), DEL and C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v < 0x20 && v != 0x09) || (0x7F...0x9F).contains(v)
    }

    static func controlMessage(_ scalar: Unicode.Scalar) -> String {
        "control character \(ScriptText.codePoint(scalar)) is not allowed in a script"
    }
}

/// Text from a script made fit for messages.
enum ScriptText {
    /// `text` with its control characters written as visible escapes (`\u{1B}`).
    static func visible(_ text: String) -> String { TerminalText.visible(text) }

    /// `text` made visible, shortened to 40 characters and put in double quotes.
    static func quoted(_ text: String) -> String {
        var shown = visible(text)
        if shown.count > 40 { shown = String(shown.prefix(39)) + "…" }
        return "\"" + shown + "\""
    }

    /// `U+001B`.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
