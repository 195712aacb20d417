// The XML form: a small, strict, non-recursive reader for the property-list subset of XML.

/// Reads one XML property list. Open arrays and dictionaries live on `stack`, not on the
/// call stack, so nesting depth costs heap memory only (and is capped anyway).
struct XMLPropertyListReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// An array, dictionary or the `<plist>` root being read. A dictionary keeps its keys in
    /// `keys` and its values in `items`, pairwise.
    private struct Frame {
        enum Kind { case plist, array, dictionary }
        var kind: Kind
        var start: Int
        var items: [PropertyListValue] = []
        var keys: [String] = []
        /// Dictionary keys seen so far, and where.
        var seen: [String: Int] = [:]
        /// A dictionary's key still waiting for its value, and where it is.
        var pendingKey: (key: String, at: Int)? = nil

        var elementName: String {
            switch kind {
            case .plist: "plist"
            case .array: "array"
            case .dictionary: "dict"
            }
        }
    }

    private var stack: [Frame] = []

    // MARK: Document

    mutating func read() throws(PropertyListError) -> PropertyListValue {
        try checkEncoding()
        try prolog()
        let value = try root()
        try epilog()
        return value
    }

    /// Refuses UTF-16 and UTF-32 files, skips a UTF-8 byte-order mark and validates the rest
    /// as UTF-8, so that everything after can slice strings freely.
    private mutating func checkEncoding() throws(PropertyListError) {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw PropertyListError(message: "the file is UTF-16; only UTF-8 property lists are supported (convert it with plutil -convert xml1)")
        }
        if bytes.count >= 2, (bytes[0] == 0 && (bytes[1] == UInt8(ascii: "<") || bytes[1] == 0)) || (bytes[0] == UInt8(ascii: "<") && bytes[1] == 0) {
            throw PropertyListError(message: "the file is UTF-16 or UTF-32; only UTF-8 property lists are supported (convert it with plutil -convert xml1)")
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        var i = index
        while i < bytes.count {
            let byte = bytes[i]
            if byte < 0x80 {
                i += 1
                continue
            }
            guard let length = utf8SequenceLength(at: i) else {
                throw error("invalid UTF-8: byte 0x\(hex(byte)) does not begin a valid UTF-8 character", at: i)
            }
            i += length
        }
    }

    /// The length of the valid UTF-8 sequence starting at `at` (a byte >= 0x80), or `nil`.
    private func utf8SequenceLength(at: Int) -> Int? {
        UTF8Check.sequenceLength(in: bytes, at: at)
    }

    /// The XML declaration, comments, processing instructions and the DOCTYPE before the root.
    private mutating func prolog() throws(PropertyListError) {
        skipSpace()
        guard index < bytes.count else { throw PropertyListError(message: "the file is empty") }
        guard bytes[index] == UInt8(ascii: "<") else { throw notAPropertyList() }
        if hasPrefix("<?xml"), index + 5 < bytes.count, isSpace(bytes[index + 5]) || bytes[index + 5] == UInt8(ascii: "?") {
            try xmlDeclaration()
        }
        var sawDoctype = false
        while true {
            skipSpace()
            guard index < bytes.count else { throw error("expected <plist> root element", at: index) }
            guard bytes[index] == UInt8(ascii: "<") else {
                throw index == 0 ? notAPropertyList() : error("unexpected text \(quoteText(at: index)) before the <plist> root element", at: index)
            }
            if hasPrefix("<!--") {
                try skipComment()
            } else if hasPrefix("<?") {
                try skipProcessingInstruction()
            } else if hasPrefix("<!DOCTYPE") {
                guard !sawDoctype else { throw error("a second <!DOCTYPE>", at: index) }
                sawDoctype = true
                try skipDoctype()
            } else {
                return
            }
        }
    }

    private func notAPropertyList() -> PropertyListError {
        error("not a property list: expected XML (<?xml or <plist) or binary (bplist00)", at: index)
    }

    /// `<?xml version="1.0" encoding="UTF-8"?>`: only UTF-8 (or its subset US-ASCII) is read.
    private mutating func xmlDeclaration() throws(PropertyListError) {
        let start = index
        index += 5
        let (attributes, _) = try self.attributes(of: "?xml", start: start, closer: .questionMark)
        if let encoding = attributes.first(where: { $0.name == "encoding" })?.value {
            let lowered = encoding.lowercased()
            guard lowered == "utf-8" || lowered == "utf8" || lowered == "us-ascii" || lowered == "ascii" else {
                throw error("encoding \"\(encoding)\" is not supported; save the file as UTF-8", at: start)
            }
        }
    }

    /// Reads `<plist …>` and everything to its `</plist>`.
    private mutating func root() throws(PropertyListError) -> PropertyListValue {
        let start = index
        let tag = try startTag()
        guard tag.name == "plist" else {
            throw error("expected <plist> root element, found <\(tag.name)>", at: start)
        }
        if tag.selfClosing { throw error("<plist> is empty; it must hold one value", at: start) }
        stack = [Frame(kind: .plist, start: start)]
        while true {
            try skipContentSpace()
            guard index < bytes.count, let top = stack.last else {
                let open = stack.last
                let name = open?.elementName ?? "plist"
                throw error("<\(name)> is never closed (missing </\(name)>)", at: open?.start ?? start)
            }
            let at = index
            if hasPrefix("</") {
                let name = try endTag()
                guard name == top.elementName else {
                    throw error("expected </\(top.elementName)>, found </\(name)>", at: at)
                }
                guard var closed = stack.popLast() else { continue }
                let value: PropertyListValue
                switch closed.kind {
                case .plist:
                    guard let held = closed.items.first else {
                        throw error("<plist> is empty; it must hold one value", at: closed.start)
                    }
                    return held
                case .array:
                    value = .array(closed.items)
                case .dictionary:
                    if let pending = closed.pendingKey { throw error("key \(quote(pending.key)) has no value", at: pending.at) }
                    var entries: [(key: String, value: PropertyListValue)] = []
                    entries.reserveCapacity(closed.keys.count)
                    for (key, item) in zip(closed.keys, closed.items) { entries.append((key, item)) }
                    closed.items = []
                    value = .dictionary(PropertyListDictionary(uniqueEntries: entries))
                }
                try deliver(value, isKey: false, at: closed.start)
                continue
            }
            if hasPrefix("<![CDATA[") {
                throw error("unexpected CDATA section inside <\(top.elementName)>; text belongs in <string>", at: at)
            }
            if hasPrefix("<!") {
                throw error("unexpected \(quoteText(at: at)) inside <\(top.elementName)>", at: at)
            }
            let tag = try startTag()
            try element(tag, at: at)
        }
    }

    /// One element starting inside an array, dictionary or the root.
    private mutating func element(_ tag: Tag, at start: Int) throws(PropertyListError) {
        guard let top = stack.last else { return }
        let isKey = tag.name == "key"
        switch top.kind {
        case .dictionary:
            if !isKey && top.pendingKey == nil && isValueElement(tag.name) {
                throw error("expected <key> before <\(tag.name)> in <dict>", at: start)
            }
        case .plist:
            if !top.items.isEmpty && (isValueElement(tag.name) || isKey) {
                throw error("<plist> must hold exactly one value; found a second one, <\(tag.name)>", at: start)
            }
            if isKey { throw error("<key> outside a <dict>", at: start) }
        case .array:
            if isKey { throw error("<key> outside a <dict>", at: start) }
        }
        switch tag.name {
        case "array", "dict":
            let depth = stack.count  // the root frame does not count; this element does
            guard depth <= PropertyListParser.maximumDepth else {
                throw error("nesting deeper than \(PropertyListParser.maximumDepth) levels", at: start)
            }
            if tag.selfClosing {
                try deliver(tag.name == "array" ? .array([]) : .dictionary(PropertyListDictionary()), isKey: false, at: start)
            } else {
                stack.append(Frame(kind: tag.name == "array" ? .array : .dictionary, start: start))
            }
        case "true", "false":
            if !tag.selfClosing {
                let text = try textContent(of: tag.name, start: start)
                guard text.bytes.allSatisfy(isSpace) else {
                    throw error("<\(tag.name)> must be empty; write <\(tag.name)/>", at: start)
                }
            }
            try deliver(.bool(tag.name == "true"), isKey: false, at: start)
        case "string", "key":
            let text = tag.selfClosing ? Text() : try textContent(of: tag.name, start: start)
            try deliver(.string(String(decoding: text.bytes, as: UTF8.self)), isKey: isKey, at: start)
        case "integer":
            let text = tag.selfClosing ? Text() : try textContent(of: tag.name, start: start)
            try deliver(.integer(try integer(text, element: start)), isKey: false, at: start)
        case "real":
            let text = tag.selfClosing ? Text() : try textContent(of: tag.name, start: start)
            try deliver(.real(try real(text, element: start)), isKey: false, at: start)
        case "date":
            let text = tag.selfClosing ? Text() : try textContent(of: tag.name, start: start)
            try deliver(.date(try date(text, element: start)), isKey: false, at: start)
        case "data":
            let text = tag.selfClosing ? Text() : try textContent(of: tag.name, start: start)
            try deliver(.data(try data(text, element: start)), isKey: false, at: start)
        case "plist":
            throw error("<plist> can only be the root element", at: start)
        default:
            throw error("unknown element <\(tag.name)>", at: start)
        }
    }

    private func isValueElement(_ name: String) -> Bool {
        switch name {
        case "array", "dict", "true", "false", "string", "integer", "real", "date", "data": true
        default: false
        }
    }

    /// Hands a finished value (or key) to the frame on top of the stack.
    private mutating func deliver(_ value: PropertyListValue, isKey: Bool, at start: Int) throws(PropertyListError) {
        let top = stack.count - 1
        guard top >= 0 else { return }
        guard stack[top].kind == .dictionary else {
            stack[top].items.append(value)
            return
        }
        if isKey {
            guard case .string(let key) = value else { return }
            if let pending = stack[top].pendingKey { throw error("key \(quote(pending.key)) has no value", at: pending.at) }
            if let first = stack[top].seen[key] {
                let (line, column) = position(of: first)
                throw error("duplicate key \(quote(key)) (first at line \(line), column \(column))", at: start)
            }
            stack[top].seen[key] = start
            stack[top].pendingKey = (key, start)
        } else {
            guard let pending = stack[top].pendingKey else { throw error("expected <key> before this value in <dict>", at: start) }
            stack[top].keys.append(pending.key)
            stack[top].items.append(value)
            stack[top].pendingKey = nil
        }
    }

    /// After `</plist>`: only whitespace, comments and processing instructions.
    private mutating func epilog() throws(PropertyListError) {
        while true {
            skipSpace()
            guard index < bytes.count else { return }
            if hasPrefix("<!--") {
                try skipComment()
            } else if hasPrefix("<?") {
                try skipProcessingInstruction()
            } else {
                throw error("unexpected \(quoteText(at: index)) after </plist>; the file must end with the root element", at: index)
            }
        }
    }

    // MARK: Tags

    private struct Tag {
        var name: String
        var selfClosing: Bool
    }

    /// `<name attr="value"…>` or `<name…/>`; `index` is at `<`.
    private mutating func startTag() throws(PropertyListError) -> Tag {
        let start = index
        index += 1
        let name = try tagName(start: start)
        let (_, selfClosing) = try attributes(of: name, start: start, closer: .element)
        return Tag(name: name, selfClosing: selfClosing)
    }

    /// `</name>`; `index` is at `<`. Returns the name.
    private mutating func endTag() throws(PropertyListError) -> String {
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

    private mutating func tagName(start: Int) throws(PropertyListError) -> String {
        let nameStart = index
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        guard index > nameStart else {
            if index >= bytes.count { throw error("unterminated tag at the end of the file", at: start) }
            throw error("malformed tag: unexpected \(describe(index)) after '<'", at: start)
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
    }

    private enum Closer { case element, questionMark }

    /// Attributes up to and including the tag's closing `>` (`/>`, or `?>` for the XML
    /// declaration), and whether the tag closes itself. Values are kept raw: no attribute of a
    /// property list needs entities.
    private mutating func attributes(of name: String, start: Int, closer: Closer) throws(PropertyListError) -> (attributes: [(name: String, value: String)], selfClosing: Bool) {
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

    private func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF:
            true
        default: false
        }
    }

    // MARK: Text

    /// Decoded text and, for pointing at a bad character, where each run of it came from.
    private struct Text {
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
    private mutating func textContent(of name: String, start: Int) throws(PropertyListError) -> Text {
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
    private mutating func entity() throws(PropertyListError) -> Unicode.Scalar {
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

    // MARK: Values

    /// The text of a number or date without surrounding whitespace, and where it starts.
    private func trimmed(_ text: Text, element: Int) -> (bytes: ArraySlice<UInt8>, at: Int) {
        var lower = 0
        var upper = text.bytes.count
        while lower < upper, isSpace(text.bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(text.bytes[upper - 1]) { upper -= 1 }
        return (text.bytes[lower..<upper], text.source(of: lower) ?? element)
    }

    private func integer(_ text: Text, element: Int) throws(PropertyListError) -> Int64 {
        let (digits, at) = trimmed(text, element: element)
        let spelled = String(decoding: digits, as: UTF8.self)
        guard !digits.isEmpty else { throw error("<integer> is empty", at: element) }
        var i = digits.startIndex
        var negative = false
        if digits[i] == UInt8(ascii: "-") || digits[i] == UInt8(ascii: "+") {
            negative = digits[i] == UInt8(ascii: "-")
            i += 1
        }
        var radix: Int64 = 10
        if digits.endIndex - i > 2, digits[i] == UInt8(ascii: "0"), digits[i + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            i += 2
        }
        guard i < digits.endIndex else { throw error("\(quote(spelled)) is not an integer", at: at) }
        var value: Int64 = 0
        var overflow = false
        while i < digits.endIndex {
            let byte = digits[i]
            let digit: Int64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = Int64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = Int64(byte - UInt8(ascii: "A") + 10)
            default:
                throw error("\(quote(spelled)) is not an integer", at: at)
            }
            if !overflow {
                let (times, o1) = value.multipliedReportingOverflow(by: radix)
                let (next, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
                overflow = o1 || o2
                value = next
            }
            i += 1
        }
        guard !overflow else {
            throw error("\(quote(spelled)) is out of the integer range (\(Int64.min) to \(Int64.max))", at: at)
        }
        return value
    }

    private func real(_ text: Text, element: Int) throws(PropertyListError) -> Double {
        let (digits, at) = trimmed(text, element: element)
        let spelled = String(decoding: digits, as: UTF8.self)
        guard !digits.isEmpty else { throw error("<real> is empty", at: element) }
        var i = digits.startIndex
        var negative = false
        if digits[i] == UInt8(ascii: "-") || digits[i] == UInt8(ascii: "+") {
            negative = digits[i] == UInt8(ascii: "-")
            i += 1
        }
        switch String(decoding: digits[i...], as: UTF8.self).lowercased() {
        case "nan": return .nan
        case "inf", "infinity": return negative ? -.infinity : .infinity
        default: break
        }
        func isDigit(_ k: Int) -> Bool { k < digits.endIndex && digits[k] >= UInt8(ascii: "0") && digits[k] <= UInt8(ascii: "9") }
        var mantissaDigits = 0
        while isDigit(i) { i += 1; mantissaDigits += 1 }
        if i < digits.endIndex, digits[i] == UInt8(ascii: ".") {
            i += 1
            while isDigit(i) { i += 1; mantissaDigits += 1 }
        }
        var valid = mantissaDigits > 0
        if valid, i < digits.endIndex, digits[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < digits.endIndex, digits[i] == UInt8(ascii: "-") || digits[i] == UInt8(ascii: "+") { i += 1 }
            valid = isDigit(i)
            while isDigit(i) { i += 1 }
        }
        guard valid, i == digits.endIndex, let value = Double(spelled) else {
            throw error("\(quote(spelled)) is not a real number", at: at)
        }
        return value
    }

    private func date(_ text: Text, element: Int) throws(PropertyListError) -> Double {
        let (digits, at) = trimmed(text, element: element)
        let spelled = String(decoding: digits, as: UTF8.self)
        do throws(PropertyListDate.ParseError) {
            return try PropertyListDate.parse(Array(digits))
        } catch {
            switch error {
            case .form: throw self.error("\(quote(spelled)) is not a date in the form YYYY-MM-DDTHH:MM:SSZ", at: at)
            case .range(let why): throw self.error("\(quote(spelled)) is not a valid date: \(why)", at: at)
            }
        }
    }

    private func data(_ text: Text, element: Int) throws(PropertyListError) -> [UInt8] {
        do throws(Base64.DecodeError) {
            return try Base64.decode(text.bytes)
        } catch {
            switch error {
            case .invalidCharacter(let k):
                let at = text.source(of: k) ?? element
                let byte = k < text.bytes.count ? text.bytes[k] : 0
                let shown = byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte))"
                throw self.error("bad base64 in <data>: unexpected \(shown)", at: at)
            case .truncated:
                throw self.error("bad base64 in <data>: the data ends part-way through a group of four characters", at: element)
            }
        }
    }

    // MARK: Skipping

    /// Whitespace and comments between elements; any other text is an error.
    private mutating func skipContentSpace() throws(PropertyListError) {
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

    private mutating func skipComment() throws(PropertyListError) {
        try skip(opening: 4, until: "-->", unterminated: "unterminated comment (<!-- without -->)")
    }

    private mutating func skipProcessingInstruction() throws(PropertyListError) {
        try skip(opening: 2, until: "?>", unterminated: "unterminated processing instruction (<? without ?>)")
    }

    /// Steps over an opening of `opening` bytes and everything up to and including `end`.
    private mutating func skip(opening: Int, until end: StaticString, unterminated: String) throws(PropertyListError) {
        let start = index
        index += opening
        while index < bytes.count, !hasPrefix(end) { index += 1 }
        guard index < bytes.count else { throw error(unterminated, at: start) }
        index += end.utf8CodeUnitCount
    }

    /// `<!DOCTYPE …>`, with quoted strings and an internal subset in brackets.
    private mutating func skipDoctype() throws(PropertyListError) {
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
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard count <= bytes.count - index else { return false }
        let start = prefix.utf8Start
        for k in 0..<count where bytes[index + k] != start[k] { return false }
        return true
    }

    // MARK: Messages

    private func quote(_ text: String) -> String {
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
    private func quoteText(at: Int) -> String {
        var end = at
        while end < bytes.count, end - at < 160, bytes[end] != UInt8(ascii: "<") || end == at, bytes[end] != 0x0A, bytes[end] != 0x0D {
            end += 1
        }
        var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<end]), as: UTF8.self)
        while text.last?.isWhitespace == true { text.removeLast() }
        if text.count > 40 { text = String(text.prefix(40)) + "…" }
        return quote(text)
    }

    private func describe(_ at: Int) -> String {
        guard at < bytes.count else { return "end of file" }
        let byte = bytes[at]
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte == 0x20 { return "space" }
        return "byte 0x\(hex(byte))"
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// The line and column (from 1, in characters) of a byte offset. A CR LF pair or a lone
    /// CR or LF ends a line.
    private func position(of offset: Int) -> (line: Int, column: Int) {
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

    private func error(_ message: String, at offset: Int) -> PropertyListError {
        let (line, column) = position(of: offset)
        return PropertyListError(message: message, line: line, column: column)
    }
}
