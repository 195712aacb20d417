internal import NotiplaySystem

/// A JSON syntax error, with the line and column (both from 1; the column counts characters).
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser that says exactly where and what is wrong.
///
/// It refuses what APNs refuses — comments, trailing commas, single quotes, bare words,
/// unescaped control characters, invalid UTF-8, lone surrogates, numbers out of range — and
/// nesting deeper than ``maximumDepth``, which it refuses long before its recursion could
/// exhaust a thread's stack.
public enum JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 512

    /// Parses one JSON text (a UTF-8 byte-order mark is skipped).
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var parser = Parser(bytes: buffer)
            return try parser.document()
        }
    }

    /// Parses one JSON text from a string.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses one JSON text, as ``parse(_:)-([UInt8])`` does, and adds each member name written
    /// twice in one object to `duplicateKeys`, in the order of the text (the last value is kept).
    /// When the text does not parse, nothing is added.
    public static func parse(_ bytes: [UInt8], duplicateKeys: inout [JSONDuplicateKey]) throws(JSONSyntaxError) -> JSONValue {
        let (value, found) = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var parser = Parser(bytes: buffer)
            parser.duplicates = []
            return (try parser.document(), parser.duplicates ?? [])
        }
        duplicateKeys += found
        return value
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The current line and where it starts, counted as whitespace is skipped (a line break
    /// anywhere else is a syntax error).
    var line = 1
    var lineStart = 0

    /// The member names written twice, when looked for (`nil`: not looked for, nothing below
    /// is kept).
    var duplicates: [JSONDuplicateKey]?
    /// The line of each member of the objects being read, innermost object last.
    var memberLines: [Int] = []
    /// The path to the value being read.
    var path: [JSONPathStep] = []
    /// A known column on the current line, for counting the next one from.
    var columnMark = (offset: 0, column: 1)

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw error("the file is empty; expected a JSON value") }
        let value = try self.value(depth: 0)
        skipSpace()
        if index < bytes.count { throw error("unexpected \(describe(index)) after the end of the JSON value") }
        return value
    }

    // MARK: Values

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "'"): throw error("strings must use double quotes, not single quotes")
        case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
        default: throw error("unexpected \(describe(index)); expected a value")
        }
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
        index += 1  // {
        var object = JSONObject()
        skipSpace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            return .object(object)
        }
        let firstMember = memberLines.count
        defer { if duplicates != nil { memberLines.removeSubrange(firstMember...) } }
        while true {
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object") }
            if bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "/") { throw error("comments are not allowed in JSON") }
                throw error("unexpected \(describe(index)); expected a member name in double quotes")
            }
            let keyStart = index
            let key = try string()
            let existing = object.position(of: key)
            if duplicates != nil {
                if let existing {
                    noteDuplicate(key, at: keyStart, firstLine: memberLines[firstMember + existing])
                } else {
                    memberLines.append(line)
                }
                path.append(.key(key))
            }
            skipSpace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the member name \"\(key)\"") }
            index += 1
            skipSpace()
            let value = try value(depth: depth)
            if duplicates != nil { path.removeLast() }
            if let existing { object.replaceValue(at: existing, with: value) } else { object.appendNew(key, value) }
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object; expected ',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(object)
            case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
            default: throw error("unexpected \(describe(index)); expected ',' or '}'")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
        index += 1  // [
        var items: [JSONValue] = []
        skipSpace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            return .array(items)
        }
        if duplicates != nil { path.append(.index(0)) }
        defer { if duplicates != nil { path.removeLast() } }
        while true {
            skipSpace()
            if peek(UInt8(ascii: "]")) { throw error("trailing comma before ']'") }
            if duplicates != nil { path[path.count - 1] = .index(items.count) }
            items.append(try value(depth: depth))
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end of file inside an array; expected ',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
            default: throw error("unexpected \(describe(index)); expected ',' or ']'")
            }
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        guard index + count <= bytes.count, (0..<count).allSatisfy({ bytes[index + $0] == start[$0] }) else {
            throw error("unexpected \(describe(index)); expected a value (true, false, null, a number, a string, an array or an object)")
        }
        index += count
    }

    // MARK: Numbers

    mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var integral = true
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits after '-'") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("numbers must not have leading zeros") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits in its exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if integral, let value = integer(start..<index) { return .integer(value) }
        guard let value = double(start..<index), value.isFinite else {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index = start
            throw error("the number \(text.prefix(40)) is out of range")
        }
        return .number(value)
    }

    /// The integer written in `range` (digits with an optional minus), or `nil` past 64 bits.
    func integer(_ range: Range<Int>) -> Int64? {
        var i = range.lowerBound
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var value: Int64 = 0
        while i < range.upperBound {
            let digit = Int64(bytes[i] - UInt8(ascii: "0"))
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
            i += 1
        }
        return value
    }

    /// The number written in `range`, already checked against JSON's grammar, correctly rounded.
    /// Short numbers are copied to the stack for `strtod` while the locale's decimal point is '.';
    /// a heap `String` per number cost more than the rest of the parse.
    func double(_ range: Range<Int>) -> Double? {
        let count = range.count
        if count < 64, Posix.decimalPointIsDot {
            return Posix.decimalDouble(UnsafeBufferPointer(rebasing: bytes[range]))
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: Strings

    /// A string: runs of plain bytes are validated in place and copied at once; only escapes
    /// go through a scratch buffer.
    mutating func string() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var runStart = index
        var scratch: [UInt8]? = nil
        while true {
            guard index < bytes.count else { throw error("unexpected end of file inside a string") }
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if byte >= 0x80 {
                try skipUTF8Sequence()
                continue
            }
            if byte < 0x20 { throw error("control character \(describe(index)) inside a string must be escaped") }
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
            if byte == UInt8(ascii: "\"") {
                index += 1
                guard var buffer = scratch else { return String(decoding: run, as: UTF8.self) }
                buffer.append(contentsOf: run)
                return String(decoding: buffer, as: UTF8.self)
            }
            // A backslash.
            if scratch == nil { scratch = [] }
            scratch!.append(contentsOf: run)
            let scalar = try escape()
            scratch!.append(contentsOf: UTF8.encode(scalar)!)
            runStart = index
        }
    }

    mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        index += 1  // backslash
        guard index < bytes.count else { throw error("unexpected end of file in an escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800...0xDBFF).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate \\u\(String(high, radix: 16, uppercase: true))")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("unpaired surrogate \\u\(String(high, radix: 16, uppercase: true))")
                }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw error("unpaired surrogate \\u\(String(high, radix: 16, uppercase: true))")
            }
            return scalar
        default:
            index -= 1
            throw error("invalid escape \\\(describe(index))")
        }
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexDigit(bytes[index]) else {
                throw error("\\u must be followed by four hexadecimal digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Steps over one multi-byte UTF-8 sequence, refusing overlong forms, surrogates and
    /// values past U+10FFFF.
    mutating func skipUTF8Sequence() throws(JSONSyntaxError) {
        guard let length = UTF8Check.sequenceLength(in: bytes, at: index) else { throw error("bytes that are not UTF-8") }
        index += length
    }

    // MARK: Helpers

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            case 0x20, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Records `key`, starting at `offset` on the current line, as a repeat in the object being
    /// read. Columns are counted on from the last one found, so that many repeats on one long
    /// line cost one pass over it.
    mutating func noteDuplicate(_ key: String, at offset: Int, firstLine: Int) {
        if columnMark.offset < lineStart { columnMark = (lineStart, 1) }
        var column = columnMark.column
        for i in columnMark.offset..<offset where bytes[i] & 0xC0 != 0x80 { column += 1 }
        columnMark = (offset, column)
        duplicates?.append(
            JSONDuplicateKey(key: key, objectPath: JSONPathStep.text(path), line: line, column: column, firstLine: firstLine))
    }

    func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    func describe(_ at: Int) -> String {
        guard at < bytes.count else { return "end of file" }
        let byte = bytes[at]
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" : "")\(hex)"
    }

    /// An error at the current position.
    func error(_ message: String) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        let end = min(index, bytes.count)
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        for i in lineStart..<end where bytes[i] & 0xC0 != 0x80 { column += 1 }
        return JSONSyntaxError(line: line, column: column, message: message)
    }
}
