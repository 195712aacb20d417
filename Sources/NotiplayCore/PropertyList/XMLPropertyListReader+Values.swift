extension XMLPropertyListReader {
    // MARK: Values

    /// The text of a number or date without surrounding whitespace, and where it starts.
    func trimmed(_ text: Text, element: Int) -> (bytes: ArraySlice<UInt8>, at: Int) {
        var lower = 0
        var upper = text.bytes.count
        while lower < upper, isSpace(text.bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(text.bytes[upper - 1]) { upper -= 1 }
        return (text.bytes[lower..<upper], text.source(of: lower) ?? element)
    }

    func integer(_ text: Text, element: Int) throws(PropertyListError) -> Int64 {
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

    func real(_ text: Text, element: Int) throws(PropertyListError) -> Double {
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

    func date(_ text: Text, element: Int) throws(PropertyListError) -> Double {
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

    func data(_ text: Text, element: Int) throws(PropertyListError) -> [UInt8] {
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
}
