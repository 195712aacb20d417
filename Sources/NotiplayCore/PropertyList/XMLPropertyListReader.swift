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
    struct Frame {
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

    var stack: [Frame] = []

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
    mutating func checkEncoding() throws(PropertyListError) {
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
    func utf8SequenceLength(at: Int) -> Int? {
        UTF8Check.sequenceLength(in: bytes, at: at)
    }

    /// The XML declaration, comments, processing instructions and the DOCTYPE before the root.
    mutating func prolog() throws(PropertyListError) {
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

    func notAPropertyList() -> PropertyListError {
        error("not a property list: expected XML (<?xml or <plist) or binary (bplist00)", at: index)
    }

    /// `<?xml version="1.0" encoding="UTF-8"?>`: only UTF-8 (or its subset US-ASCII) is read.
    mutating func xmlDeclaration() throws(PropertyListError) {
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
    mutating func root() throws(PropertyListError) -> PropertyListValue {
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
    mutating func element(_ tag: Tag, at start: Int) throws(PropertyListError) {
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

    func isValueElement(_ name: String) -> Bool {
        switch name {
        case "array", "dict", "true", "false", "string", "integer", "real", "date", "data": true
        default: false
        }
    }

    /// Hands a finished value (or key) to the frame on top of the stack.
    mutating func deliver(_ value: PropertyListValue, isKey: Bool, at start: Int) throws(PropertyListError) {
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
    mutating func epilog() throws(PropertyListError) {
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

}
