internal import CDBus
internal import Glibc  // strlen: a string's length is checked before it is copied

/// The D-Bus type codes, as libdbus's iterators return them (`DBUS_TYPE_*`).
enum TypeCode {
    static let invalid: Int32 = 0
    static let byte = code("y")
    static let bool = code("b")
    static let int16 = code("n")
    static let uint16 = code("q")
    static let int32 = code("i")
    static let uint32 = code("u")
    static let int64 = code("x")
    static let uint64 = code("t")
    static let double = code("d")
    static let string = code("s")
    static let objectPath = code("o")
    static let array = code("a")
    static let variant = code("v")
    static let dictEntry = code("e")

    private static func code(_ letter: Unicode.Scalar) -> Int32 { Int32(letter.value) }
}

/// Reads a message's arguments as ``DBusValue``s through libdbus's iterators, within
/// ``DBusLimits``: an array over them throws `InvalidArgs` as soon as it is seen; a string over them
/// is cut (only its first bytes are copied), and the cut recorded.
///
/// libdbus validates every message it receives (types, nesting, UTF-8) before handing it over; the
/// reader asks each iterator for its type before reading it, as libdbus requires.
enum MessageReader {
    /// All arguments of `message`.
    static func arguments(of message: OpaquePointer) throws(DBusFailure) -> [DBusValue] {
        var cuts: [DBusStringCut] = []
        return try arguments(of: message, cuts: &cuts)
    }

    /// All arguments of `message`; the strings cut to ``DBusLimits/maximumStringBytes`` are added to
    /// `cuts`.
    static func arguments(of message: OpaquePointer, cuts: inout [DBusStringCut]) throws(DBusFailure) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            guard values.count < DBusLimits.maximumArrayElements else {
                throw .invalidArgs("more than \(DBusLimits.maximumArrayElements) arguments")
            }
            var reader = Cuts(argument: values.count)
            values.append(try value(&iterator, &reader))
            cuts += reader.found
        } while dbus_message_iter_next(&iterator) != 0
        return values
    }

    /// Where in an argument the reader is, and the strings it cut there.
    private struct Cuts {
        let argument: Int
        var found: [DBusStringCut] = []

        mutating func note(_ byteCount: Int?, _ place: DBusStringCut.Place) {
            if let byteCount { found.append(DBusStringCut(argument: argument, place: place, byteCount: byteCount)) }
        }
    }

    /// The value the iterator is at.
    private static func value(_ iterator: inout DBusMessageIter, _ cuts: inout Cuts) throws(DBusFailure) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iterator)
        if type == TypeCode.string {
            let (text, cut) = string(&iterator)
            cuts.note(cut, .whole)
            return .string(text)
        }
        if let basic = try basicValue(&iterator, type: type) { return basic }
        if type == TypeCode.array {
            let element = dbus_message_iter_get_element_type(&iterator)
            if element == TypeCode.string { return .strings(try strings(&iterator, &cuts)) }
            if element == TypeCode.dictEntry, signature(&iterator) == "a{sv}" {
                return .variants(try variants(&iterator, &cuts))
            }
        }
        return .unsupported(signature: signature(&iterator))
    }

    /// The value the iterator is at when it has a basic type this layer reads, else `nil`.
    private static func basicValue(_ iterator: inout DBusMessageIter, type: Int32) throws(DBusFailure) -> DBusValue? {
        switch type {
        case TypeCode.string: return .string(string(&iterator).text)
        case TypeCode.objectPath: return .objectPath(try objectPath(&iterator))
        case TypeCode.byte: return .byte(fixed(&iterator, UInt8(0)))
        case TypeCode.bool: return .bool(fixed(&iterator, dbus_bool_t(0)) != 0)
        case TypeCode.int16: return .int16(fixed(&iterator, Int16(0)))
        case TypeCode.uint16: return .uint16(fixed(&iterator, UInt16(0)))
        case TypeCode.int32: return .int32(fixed(&iterator, Int32(0)))
        case TypeCode.uint32: return .uint32(fixed(&iterator, UInt32(0)))
        case TypeCode.int64: return .int64(fixed(&iterator, Int64(0)))
        case TypeCode.uint64: return .uint64(fixed(&iterator, UInt64(0)))
        case TypeCode.double: return .double(fixed(&iterator, Double(0)))
        default: return nil
        }
    }

    /// A fixed-size value, read into a variable of its C type.
    private static func fixed<Number>(_ iterator: inout DBusMessageIter, _ initial: Number) -> Number {
        var number = initial
        withUnsafeMutablePointer(to: &number) { dbus_message_iter_get_basic(&iterator, $0) }
        return number
    }

    /// A string: whole, or over ``DBusLimits/maximumStringBytes`` its longest prefix within them
    /// that ends on a character (libdbus checked it is UTF-8), with the length it had.
    private static func string(_ iterator: inout DBusMessageIter) -> (text: String, cutFrom: Int?) {
        var characters: UnsafePointer<CChar>?
        withUnsafeMutablePointer(to: &characters) { dbus_message_iter_get_basic(&iterator, $0) }
        guard let characters else { return ("", nil) }
        let length = strlen(characters)
        return characters.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            guard length > DBusLimits.maximumStringBytes else {
                return (String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self), nil)
            }
            var end = DBusLimits.maximumStringBytes
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            return (String(decoding: UnsafeBufferPointer(start: bytes, count: end), as: UTF8.self), length)
        }
    }

    /// An object path, refused over ``DBusLimits/maximumStringBytes`` (a cut path names nothing).
    private static func objectPath(_ iterator: inout DBusMessageIter) throws(DBusFailure) -> String {
        let (path, cut) = string(&iterator)
        if let cut { throw .invalidArgs("an object path of \(cut) bytes, over the \(DBusLimits.maximumStringBytes) this server reads") }
        return path
    }

    /// An `as`, refused past ``DBusLimits/maximumArrayElements`` elements.
    private static func strings(_ iterator: inout DBusMessageIter, _ cuts: inout Cuts) throws(DBusFailure) -> [String] {
        var elements = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &elements)
        var result: [String] = []
        while dbus_message_iter_get_arg_type(&elements) == TypeCode.string {
            try checkCount(result.count)
            let (text, cut) = string(&elements)
            cuts.note(cut, .element(result.count))
            result.append(text)
            dbus_message_iter_next(&elements)
        }
        return result
    }

    /// An `a{sv}`, refused past ``DBusLimits/maximumArrayElements`` entries; a variant whose content
    /// is not a basic type is kept as `.unsupported` with the content's signature.
    private static func variants(_ iterator: inout DBusMessageIter, _ cuts: inout Cuts) throws(DBusFailure) -> [String: DBusValue] {
        var entries = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &entries)
        var result: [String: DBusValue] = [:]
        var count = 0
        while dbus_message_iter_get_arg_type(&entries) == TypeCode.dictEntry {
            try checkCount(count)
            count += 1
            var entry = DBusMessageIter()
            dbus_message_iter_recurse(&entries, &entry)
            let (key, keyCut) = string(&entry)
            dbus_message_iter_next(&entry)
            guard keyCut == nil else {
                // A cut name names nothing: the entry is left out.
                cuts.note(keyCut, .entryKey)
                dbus_message_iter_next(&entries)
                continue
            }
            var content = DBusMessageIter()
            dbus_message_iter_recurse(&entry, &content)
            let type = dbus_message_iter_get_arg_type(&content)
            if type == TypeCode.string {
                let (text, cut) = string(&content)
                cuts.note(cut, .entryValue(key: key))
                result[key] = .string(text)
            } else {
                result[key] = try basicValue(&content, type: type) ?? .unsupported(signature: signature(&content))
            }
            dbus_message_iter_next(&entries)
        }
        return result
    }

    private static func checkCount(_ count: Int) throws(DBusFailure) {
        guard count < DBusLimits.maximumArrayElements else {
            throw .invalidArgs("an array of more than \(DBusLimits.maximumArrayElements) elements")
        }
    }

    /// The signature of the value the iterator is at.
    private static func signature(_ iterator: inout DBusMessageIter) -> String {
        guard let text = dbus_message_iter_get_signature(&iterator) else { return "?" }
        defer { dbus_free(text) }
        return String(cString: text)
    }
}
