/// Strict UTF-8 checking shared by the JSON and property-list parsers.
enum UTF8Check {
    /// The length of the valid UTF-8 sequence starting at `at` (a byte of 0x80 or more), or `nil`
    /// for an overlong form, a surrogate, a value past U+10FFFF, a stray or missing continuation
    /// byte, or a sequence cut off by the end of `bytes`.
    static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at: Int) -> Int? {
        let lead = bytes[at]
        let (length, minimum, initial): (Int, UInt32, UInt32) =
            switch lead {
            case 0xC2...0xDF: (2, 0x80, UInt32(lead & 0x1F))
            case 0xE0...0xEF: (3, 0x800, UInt32(lead & 0x0F))
            case 0xF0...0xF4: (4, 0x10000, UInt32(lead & 0x07))
            default: (0, 0, 0)
            }
        guard length > 0, length <= bytes.count - at else { return nil }
        var value = initial
        for k in 1..<length {
            let byte = bytes[at + k]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
        return length
    }
}
