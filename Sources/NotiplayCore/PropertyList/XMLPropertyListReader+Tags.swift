extension XMLPropertyListReader {
    // MARK: Tags

    struct Tag {
        var name: String
        var selfClosing: Bool
    }

    /// `<name attr="value"…>` or `<name…/>`; `index` is at `<`.
    mutating func startTag() throws(PropertyListError) -> Tag {
        let start = index
        index += 1
        let name = try tagName(start: start)
        let (_, selfClosing) = try attributes(of: name, start: start, closer: .element)
        return Tag(name: name, selfClosing: selfClosing)
    }

    /// `</name>`; `index` is at `<`. Returns the name.
    mutating func endTag() throws(PropertyListError) -> String {
        let start = index
        index += 2
        let name = try tagName(start: start)
        skipSpace()
        guard index < bytes.count else { throw error("unterminated tag </\(name)", at: start) }
        guard bytes[index] == UInt8(ascii: ">") else {
            if bytes[index] == UInt8(ascii: "<") { throw error("unterminated tag </\(name) (missing '>')", at: start) }
            throw error("malformed end tag </\(name)…>: unexpected \(describe(index))", at: start)
        }
        index += 1
        return name
    }

    mutating func tagName(start: Int) throws(PropertyListError) -> String {
        let nameStart = index
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        guard index > nameStart else {
            if index >= bytes.count { throw error("unterminated tag at the end of the file", at: start) }
            throw error("malformed tag: unexpected \(describe(index)) after '<'", at: start)
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
    }

    enum Closer { case element, questionMark }

    /// Attributes up to and including the tag's closing `>` (`/>`, or `?>` for the XML
    /// declaration), and whether the tag closes itself. Values are kept raw: no attribute of a
    /// property list needs entities.
    mutating func attributes(of name: String, start: Int, closer: Closer) throws(PropertyListError) -> (attributes: [(name: String, value: String)], selfClosing: Bool) {
        var found: [(name: String, value: String)] = []
        while true {
            let hadSpace = skipSpace()
            guard index < bytes.count else { throw error("unterminated tag <\(name)", at: start) }
            let byte = bytes[index]
            switch closer {
            case .element:
                if byte == UInt8(ascii: ">") {
                    index += 1
                    return (found, false)
                }
                if byte == UInt8(ascii: "/") {
                    guard index + 1 < bytes.count else { throw error("unterminated tag <\(name)", at: start) }
                    guard bytes[index + 1] == UInt8(ascii: ">") else {
                        throw error("malformed tag <\(name)…>: unexpected '/'", at: start)
                    }
                    index += 2
                    return (found, true)
                }
            case .questionMark:
                if byte == UInt8(ascii: "?") {
                    guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
                        throw error("malformed <?xml …?> declaration: expected '?>'", at: start)
                    }
                    index += 2
                    return (found, false)
                }
            }
            guard hadSpace, isNameByte(byte) else {
                if byte == UInt8(ascii: "<") { throw error("unterminated tag <\(name) (missing '>')", at: start) }
                throw error("malformed tag <\(name)…>: unexpected \(describe(index))", at: start)
            }
            let nameStart = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            let attribute = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
            skipSpace()
            guard index < bytes.count else { throw error("unterminated tag <\(name)", at: start) }
            guard bytes[index] == UInt8(ascii: "=") else {
                throw error("malformed tag <\(name)…>: attribute \(attribute) needs a value (\(attribute)=\"…\")", at: start)
            }
            index += 1
            skipSpace()
            guard index < bytes.count else { throw error("unterminated tag <\(name)", at: start) }
            let quoteByte = bytes[index]
            guard quoteByte == UInt8(ascii: "\"") || quoteByte == UInt8(ascii: "'") else {
                throw error("malformed tag <\(name)…>: the value of \(attribute) must be in quotes", at: start)
            }
            index += 1
            let valueStart = index
            while index < bytes.count, bytes[index] != quoteByte {
                if bytes[index] == UInt8(ascii: "<") {
                    throw error("malformed tag <\(name)…>: '<' inside the value of \(attribute)", at: start)
                }
                index += 1
            }
            guard index < bytes.count else { throw error("unterminated tag <\(name)", at: start) }
            found.append((attribute, String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<index]), as: UTF8.self)))
            index += 1
        }
    }

    func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF:
            true
        default: false
        }
    }
}
