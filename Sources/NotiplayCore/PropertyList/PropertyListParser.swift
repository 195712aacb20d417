/// Reads property lists in the XML and binary (`bplist00`) forms.
///
/// The reader is strict and says where a file goes wrong: an unknown element, a mismatched
/// close tag, a `<key>` without a value, a duplicate key, a number that is not one, bad base64,
/// an impossible date, invalid UTF-8, a binary object that refers to itself, an offset outside
/// the file… Every such error is a thrown ``PropertyListError``; no input traps, and no length
/// read from a file is trusted before it has been checked against the file's size.
///
/// Nesting deeper than ``maximumDepth`` arrays and dictionaries is refused. Neither reader
/// recurses: both keep their open arrays and dictionaries on a heap-allocated stack, so even a
/// file opening 100,000 `<array>` elements is refused quickly, without exhausting a thread's stack.
///
/// Choices worth knowing:
/// - XML: `<plist>` must be the root element and hold exactly one value. Text inside
///   `<string>` and `<key>` is kept exactly, whitespace included (no line-ending
///   normalisation); text in `<integer>`, `<real>`, `<date>` and `<data>` may be surrounded by
///   whitespace. Only UTF-8 is read (an `encoding` other than UTF-8 or US-ASCII is refused).
/// - `<integer>` accepts decimal or `0x` hexadecimal with an optional sign, within `Int64`.
/// - `<real>` accepts decimal numbers with an optional exponent and, in any case, `nan`,
///   `inf`, `infinity`, with an optional sign (Apple writes `+infinity` and `-infinity`).
/// - `<date>` accepts `YYYY-MM-DDTHH:MM:SSZ` (years 0000–9999 of the proleptic Gregorian
///   calendar), optionally with a fractional second before the `Z`.
/// - Binary: `null`, UIDs (from `NSKeyedArchiver`) and ordered sets are refused; a set (`0xCn`)
///   is read as an array of its members in stored order. Objects shared by several
///   references are read once; a file whose shared objects would expand to more than ten
///   million values is refused, so a small file cannot become a tree too big to walk.
public enum PropertyListParser {
    /// The deepest nesting of arrays and dictionaries accepted.
    public static let maximumDepth = 512

    /// The most values (arrays, dictionaries, keys and scalars) a binary property list may
    /// expand to, counting a shared object once per reference to it.
    static let maximumValueCount = 10_000_000

    /// Detects the form from the bytes — the `bplist00` magic means binary; otherwise XML,
    /// after an optional UTF-8 byte-order mark and whitespace — and reads the one value.
    public static func parse(_ bytes: [UInt8]) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
        try bytes.withUnsafeBufferPointer { buffer throws(PropertyListError) in
            let magic: [UInt8] = Array("bplist".utf8)
            if buffer.count >= 6, buffer.prefix(6).elementsEqual(magic) {
                guard buffer.count >= 8, buffer[6] == UInt8(ascii: "0"), buffer[7] == UInt8(ascii: "0") else {
                    let version = String(decoding: buffer.prefix(8).map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
                    throw PropertyListError(
                        message: "unsupported binary property list version \"\(version)\"; only bplist00 is supported",
                        offset: 0)
                }
                var reader = BinaryPropertyListReader(bytes: buffer)
                return (try reader.read(), .binary)
            }
            var reader = XMLPropertyListReader(bytes: buffer)
            return (try reader.read(), .xml)
        }
    }
}
