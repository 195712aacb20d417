extension XMLPropertyListReader {
    // MARK: Skipping

    /// Whitespace and comments between elements; any other text is an error.
    mutating func skipContentSpace() throws(PropertyListError) {
        while true {
            skipSpace()
            guard index < bytes.count else { return }
            if hasPrefix("<!--") {
                try skipComment()
            } else if hasPrefix("<?") {
                try skipProcessingInstruction()
            } else if bytes[index] != UInt8(ascii: "<") {
                let container = stack.last?.elementName ?? "plist"
                throw error("unexpected text \(quoteText(at: index)) inside <\(container)>; text belongs in <string> or <key>", at: index)
            } else {
                return
            }
        }
    }

    mutating func skipComment() throws(PropertyListError) {
        try skip(opening: 4, until: "-->", unterminated: "unterminated comment (<!-- without -->)")
    }

    mutating func skipProcessingInstruction() throws(PropertyListError) {
        try skip(opening: 2, until: "?>", unterminated: "unterminated processing instruction (<? without ?>)")
    }

    /// Steps over an opening of `opening` bytes and everything up to and including `end`.
    mutating func skip(opening: Int, until end: StaticString, unterminated: String) throws(PropertyListError) {
        let start = index
        index += opening
        while index < bytes.count, !hasPrefix(end) { index += 1 }
        guard index < bytes.count else { throw error(unterminated, at: start) }
        index += end.utf8CodeUnitCount
    }

    /// `<!DOCTYPE …>`, with quoted strings and an internal subset in brackets.
    mutating func skipDoctype() throws(PropertyListError) {
        let start = index
        index += 9
        var quoteByte: UInt8? = nil
        var brackets = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quoteByte {
                if byte == open { quoteByte = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quoteByte = byte
            } else if byte == UInt8(ascii: "[") {
                brackets += 1
            } else if byte == UInt8(ascii: "]") {
                brackets -= 1
            } else if byte == UInt8(ascii: ">") && brackets <= 0 {
                return
            }
        }
        throw error("unterminated <!DOCTYPE> (missing '>')", at: start)
    }

    @discardableResult
    mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard count <= bytes.count - index else { return false }
        let start = prefix.utf8Start
        for k in 0..<count where bytes[index + k] != start[k] { return false }
        return true
    }

    // MARK: Messages

    func quote(_ text: String) -> String {
        var shown = ""
        var count = 0
        for character in text {
            if count == 60 {
                shown += "…"
                break
            }
            switch character {
            case "\"": shown += "\\\""
            case "\n": shown += "\\n"
            case "\t": shown += "\\t"
            case "\r": shown += "\\r"
            default:
                if character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
                    shown.append(character)
                } else {
                    shown += "\\u{\(String(character.unicodeScalars.first?.value ?? 0, radix: 16))}"
                }
            }
            count += 1
        }
        return "\"\(shown)\""
    }

    /// The text from `at` up to the next `<` or line end (at most 40 characters), quoted.
    func quoteText(at: Int) -> String {
        var end = at
        while end < bytes.count, end - at < 160, bytes[end] != UInt8(ascii: "<") || end == at, bytes[end] != 0x0A, bytes[end] != 0x0D {
            end += 1
        }
        var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<end]), as: UTF8.self)
        while text.last?.isWhitespace == true { text.removeLast() }
        if text.count > 40 { text = String(text.prefix(40)) + "…" }
        return quote(text)
    }

    func describe(_ at: Int) -> String {
        guard at < bytes.count else { return "end of file" }
        let byte = bytes[at]
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte == 0x20 { return "space" }
        return "byte 0x\(hex(byte))"
    }

    func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// The line and column (from 1, in characters) of a byte offset. A CR LF pair or a lone
    /// CR or LF ends a line.
    func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let end = min(max(offset, 0), bytes.count)
        var i = 0
        while i < end {
            let byte = bytes[i]
            if byte == 0x0A || (byte == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        var column = 1
        if lineStart == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF, end >= 3 { lineStart = 3 }
        for k in lineStart..<max(lineStart, end) where bytes[k] & 0xC0 != 0x80 { column += 1 }
        return (line, column)
    }

    func error(_ message: String, at offset: Int) -> PropertyListError {
        let (line, column) = position(of: offset)
        return PropertyListError(message: message, line: line, column: column)
    }
}
