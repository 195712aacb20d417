// The tests write property lists to read them back; the product only reads them. The writer uses
// NotiplayCore's own base64 and date formatting, which sit beside their decoders there.
@testable public import NotiplayCore

/// Writes property lists in the XML form, as Xcode and `plutil` do, or the binary form.
///
/// What `PropertyListParser` reads back from either form equals what was written, with two
/// exceptions in the XML form: dates are written in whole seconds (a fraction is rounded to
/// the nearest second, halves away from zero; dates before year 0000 or after 9999 are clamped to those years, and a
/// NaN date is written as the reference date), and XML 1.0 has no way to write most control
/// characters (U+0001–U+001F other than tab, line feed and carriage return), which are
/// written as they are and refused by other XML readers. The binary form keeps every value
/// exactly.
public enum PropertyListWriter {
    /// The XML form: the `<?xml …?>` declaration, Apple's DOCTYPE, `<plist version="1.0">`,
    /// one element per line indented with tabs, and a final newline.
    ///
    /// Strings and keys escape `<`, `>` and `&` (and a carriage return as `&#13;`, so that XML
    /// readers keep it). Reals are written in the shortest form that reads back to the same
    /// `Double` (`1`, `0.1`, `-0`, `1e-05`), with `nan`, `+infinity` and `-infinity` as Apple
    /// spells them. Integers are decimal, dates `YYYY-MM-DDTHH:MM:SSZ` (whole seconds), data
    /// base64 in lines of at most 68 characters. Empty arrays and dictionaries are written
    /// `<array/>` and `<dict/>`.
    public static func xml(_ value: PropertyListValue) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        writeXML(value, indent: 0, to: &out)
        out += "</plist>\n"
        return out
    }

    private static func writeXML(_ value: PropertyListValue, indent: Int, to out: inout String) {
        let tabs = String(repeating: "\t", count: indent)
        switch value {
        case .string(let string):
            out += "\(tabs)<string>\(escaped(string))</string>\n"
        case .integer(let integer):
            out += "\(tabs)<integer>\(integer)</integer>\n"
        case .real(let real):
            out += "\(tabs)<real>\(realText(real))</real>\n"
        case .bool(let bool):
            out += bool ? "\(tabs)<true/>\n" : "\(tabs)<false/>\n"
        case .date(let date):
            out += "\(tabs)<date>\(PropertyListDate.format(date))</date>\n"
        case .data(let data):
            out += "\(tabs)<data>\n"
            let encoded = Base64.encode(data)
            var start = 0
            while start < encoded.count {
                let end = min(start + 68, encoded.count)
                out += tabs
                out += String(decoding: encoded[start..<end], as: UTF8.self)
                out += "\n"
                start = end
            }
            out += "\(tabs)</data>\n"
        case .array(let items):
            guard !items.isEmpty else {
                out += "\(tabs)<array/>\n"
                return
            }
            out += "\(tabs)<array>\n"
            for item in items { writeXML(item, indent: indent + 1, to: &out) }
            out += "\(tabs)</array>\n"
        case .dictionary(let dictionary):
            guard dictionary.count > 0 else {
                out += "\(tabs)<dict/>\n"
                return
            }
            out += "\(tabs)<dict>\n"
            for (key, item) in dictionary {
                out += "\(tabs)\t<key>\(escaped(key))</key>\n"
                writeXML(item, indent: indent + 1, to: &out)
            }
            out += "\(tabs)</dict>\n"
        }
    }

    private static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") || $0 == 0x0D }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The shortest decimal that reads back as `real`; whole numbers without `.0`, as Apple
    /// writes them.
    static func realText(_ real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
        let text = real.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    // MARK: Binary

    /// The binary form, `bplist00`: every value is its own object (nothing is shared), the
    /// top value first, each container's children numbered together; object references and offsets use the
    /// fewest bytes (1, 2, 4 or 8) that hold them. Strings are ASCII (`0x5`) when every byte is
    /// below 0x80 and UTF-16BE (`0x6`) otherwise; integers 0…2³²−1 use 1, 2 or 4 bytes, others
    /// (negative ones included) 8; reals are 8-byte doubles.
    public static func binary(_ value: PropertyListValue) -> [UInt8] {
        let count = objectCount(value)
        let referenceSize = byteCount(for: UInt64(max(count - 1, 0)))
        var writer = BinaryWriter(referenceSize: referenceSize)
        writer.objects.reserveCapacity(count)
        writer.encode(value, as: writer.reserve())

        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(writer.objects.count)
        for object in writer.objects {
            offsets.append(out.count)
            out += object
        }
        let tableStart = out.count
        let offsetSize = byteCount(for: UInt64(offsets.last ?? 0))
        for offset in offsets { appendBigEndian(UInt64(offset), size: offsetSize, to: &out) }
        out += [0, 0, 0, 0, 0, 0]
        out.append(UInt8(offsetSize))
        out.append(UInt8(referenceSize))
        appendBigEndian(UInt64(writer.objects.count), size: 8, to: &out)
        appendBigEndian(0, size: 8, to: &out)
        appendBigEndian(UInt64(tableStart), size: 8, to: &out)
        return out
    }

    /// The number of objects `value` becomes: one per value and one per dictionary key.
    private static func objectCount(_ value: PropertyListValue) -> Int {
        switch value {
        case .array(let items): return items.reduce(1) { $0 + objectCount($1) }
        case .dictionary(let dictionary): return dictionary.reduce(1) { $0 + 1 + objectCount($1.value) }
        default: return 1
        }
    }

    private static func byteCount(for value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    fileprivate static func appendBigEndian(_ value: UInt64, size: Int, to out: inout [UInt8]) {
        for k in stride(from: size - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))))
        }
    }
}

/// Encodes the objects of a binary property list, the top value as object 0.
private struct BinaryWriter {
    let referenceSize: Int
    var objects: [[UInt8]] = []

    init(referenceSize: Int) {
        self.referenceSize = referenceSize
    }

    /// A new object number, its bytes to come.
    mutating func reserve() -> Int {
        objects.append([])
        return objects.count - 1
    }

    /// Encodes `value` as object `number`. A container numbers all its children before
    /// encoding any of them, as Core Foundation and plistlib do: a dictionary's keys, then its
    /// values, then their contents.
    mutating func encode(_ value: PropertyListValue, as number: Int) {
        var object: [UInt8] = []
        switch value {
        case .bool(let bool):
            object = [bool ? 0x09 : 0x08]
        case .integer(let integer):
            object = Self.integer(integer)
        case .real(let real):
            object = [0x23]
            PropertyListWriter.appendBigEndian(real.bitPattern, size: 8, to: &object)
        case .date(let date):
            object = [0x33]
            PropertyListWriter.appendBigEndian(date.bitPattern, size: 8, to: &object)
        case .data(let data):
            object = Self.marker(0x40, count: data.count) + data
        case .string(let string):
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                object = Self.marker(0x50, count: string.utf8.count) + Array(string.utf8)
            } else {
                let units = Array(string.utf16)
                object = Self.marker(0x60, count: units.count)
                object.reserveCapacity(object.count + 2 * units.count)
                for unit in units {
                    object.append(UInt8(truncatingIfNeeded: unit >> 8))
                    object.append(UInt8(truncatingIfNeeded: unit))
                }
            }
        case .array(let items):
            let references = items.map { _ in reserve() }
            object = Self.marker(0xA0, count: items.count)
            appendReferences(references, to: &object)
            for (item, reference) in zip(items, references) { encode(item, as: reference) }
        case .dictionary(let dictionary):
            let keys = dictionary.map { _ in reserve() }
            let values = dictionary.map { _ in reserve() }
            object = Self.marker(0xD0, count: dictionary.count)
            appendReferences(keys + values, to: &object)
            for ((key, item), (keyReference, valueReference)) in zip(dictionary, zip(keys, values)) {
                encode(.string(key), as: keyReference)
                encode(item, as: valueReference)
            }
        }
        objects[number] = object
    }

    private func appendReferences(_ references: [Int], to object: inout [UInt8]) {
        object.reserveCapacity(object.count + references.count * referenceSize)
        for reference in references {
            PropertyListWriter.appendBigEndian(UInt64(reference), size: referenceSize, to: &object)
        }
    }

    /// A marker byte with the count in its low nibble, or 0xF and an integer object.
    static func marker(_ type: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [type | UInt8(count)] : [type | 0x0F] + integer(Int64(count))
    }

    /// An integer object: 1, 2 or 4 unsigned bytes when it fits, else 8 signed.
    static func integer(_ value: Int64) -> [UInt8] {
        var object: [UInt8]
        let size: Int
        switch value {
        case 0...0xFF: (object, size) = ([0x10], 1)
        case 0...0xFFFF: (object, size) = ([0x11], 2)
        case 0...0xFFFF_FFFF: (object, size) = ([0x12], 4)
        default: (object, size) = ([0x13], 8)
        }
        PropertyListWriter.appendBigEndian(UInt64(bitPattern: value), size: size, to: &object)
        return object
    }
}
