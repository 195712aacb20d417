internal import NotiplaySystem

// The parser's numbers and strings.
extension JSONTextParser {
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
}
