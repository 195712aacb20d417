extension XMLPropertyListReader {
    // MARK: Text

    /// Decoded text and, for pointing at a bad character, where each run of it came from.
    struct Text {
        var bytes: [UInt8] = []
        /// `(output index, source index, literal)`: output from `output index` on came from the
        /// source at `source index` (byte for byte when `literal`; from one reference otherwise).
        var origins: [(output: Int, source: Int, literal: Bool)] = []

        /// Appends the source bytes in `range`, literally.
        mutating func append(_ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            guard !range.isEmpty else { return }
            origins.append((bytes.count, range.lowerBound, true))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[range]))
        }

        func source(of outputIndex: Int) -> Int? {
            guard let origin = origins.last(where: { $0.output <= outputIndex }) else { return nil }
            return origin.literal ? origin.source + (outputIndex - origin.output) : origin.source
        }
    }

    /// The text of a simple element up to its end tag: entities and CDATA decoded, comments
    /// and processing instructions skipped. Another element inside is an error.
    mutating func textContent(of name: String, start: Int) throws(PropertyListError) -> Text {
        var text = Text()
        var runStart = index
        while true {
            guard index < bytes.count else {
                throw error("<\(name)> is never closed (missing </\(name)>)", at: start)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") {
                text.append(bytes, runStart..<index)
                let at = index
                let scalar = try entity()
                text.origins.append((text.bytes.count, at, false))
                text.bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
                runStart = index
                continue
            }
            guard byte == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            text.append(bytes, runStart..<index)
            let at = index
            if hasPrefix("</") {
                let closing = try endTag()
                guard closing == name else { throw error("expected </\(name)>, found </\(closing)>", at: at) }
                return text
            } else if hasPrefix("<!--") {
                try skipComment()
            } else if hasPrefix("<![CDATA[") {
                index += 9
                let contentStart = index
                while index < bytes.count, !hasPrefix("]]>") { index += 1 }
                guard index < bytes.count else { throw error("unterminated CDATA section (missing ]]>)", at: at) }
                text.append(bytes, contentStart..<index)
                index += 3
            } else if hasPrefix("<?") {
                try skipProcessingInstruction()
            } else {
                var probe = self
                let inner = (try? probe.startTag())?.name
                throw error("unexpected \(inner.map { "<\($0)>" } ?? quoteText(at: at)) inside <\(name)>", at: at)
            }
            runStart = index
        }
    }

    /// `&name;` or a character reference; `index` is at `&`.
    mutating func entity() throws(PropertyListError) -> Unicode.Scalar {
        let start = index
        var end = index + 1
        while end < bytes.count, end - start <= 12, bytes[end] != UInt8(ascii: ";"), !isSpace(bytes[end]), bytes[end] != UInt8(ascii: "<") {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw error("'&' must be written &amp; (or begin an entity such as &lt; that ends with ';')", at: start)
        }
        let name = Array(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]))
        let spelled = String(decoding: name, as: UTF8.self)
        index = end + 1
        switch spelled {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard name.first == UInt8(ascii: "#"), name.count >= 2 else {
            throw error("unknown entity &\(spelled);", at: start)
        }
        let hexadecimal = name[1] == UInt8(ascii: "x")
        let digits = name[(hexadecimal ? 2 : 1)...]
        var value: UInt32 = 0
        for digit in digits {
            let d: UInt32?
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hexadecimal: d = UInt32(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hexadecimal: d = UInt32(digit - UInt8(ascii: "A") + 10)
            default: d = nil
            }
            guard let d, value <= 0x10FFFF else { throw error("malformed character reference &\(spelled);", at: start) }
            value = value * (hexadecimal ? 16 : 10) + d
        }
        guard !digits.isEmpty else { throw error("malformed character reference &\(spelled);", at: start) }
        guard value != 0, let scalar = Unicode.Scalar(value) else {
            throw error("character reference &\(spelled); is not a valid character", at: start)
        }
        return scalar
    }
}
