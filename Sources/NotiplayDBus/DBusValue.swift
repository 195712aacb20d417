// The values NotiplayDBus reads and writes: D-Bus's basic types, `as` and `a{sv}`, the types of the
// Desktop Notifications spec. Anything else read from a message is kept as `.unsupported`, never a
// crash: a hostile or simply newer client decides what arrives.

/// One argument of a D-Bus message.
///
/// A variant (`v`) inside an `a{sv}` dictionary is its content: `["urgency": .byte(2)]` is the
/// hint `{"urgency": <byte 2>}`. Reading keeps a variant whose content is not a basic type, an
/// `ay` (image data), or any type not listed here as ``unsupported(signature:)``.
package enum DBusValue: Sendable, Hashable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case bool(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`
    case string(String)
    /// `o`: a path such as `/org/freedesktop/Notifications`.
    case objectPath(String)
    /// `as`
    case strings([String])
    /// `a{sv}`: each value is the content of its variant. Of a key given twice, the last is kept.
    case variants([String: DBusValue])
    /// A value read from a message of a type this layer does not read (`ay`, a struct, a nested
    /// variant…), with its D-Bus signature. It cannot be written.
    case unsupported(signature: String)

    /// The D-Bus signature of the value (`"s"`, `"as"`, `"a{sv}"`), `nil` for ``unsupported(signature:)``.
    package var signature: String? {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .strings: "as"
        case .variants: "a{sv}"
        case .unsupported: nil
        }
    }

    /// The string of a `.string`, else `nil`.
    package var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number of a `.uint32`, else `nil`.
    package var uint32: UInt32? {
        if case .uint32(let value) = self { value } else { nil }
    }

    /// The number of a `.int32`, else `nil`.
    package var int32: Int32? {
        if case .int32(let value) = self { value } else { nil }
    }

    /// Why the value cannot be written to a message, or `nil` when it can: an unsupported value, a
    /// string holding a NUL (D-Bus strings cannot), an object path that is not one.
    package var encodingProblem: String? {
        switch self {
        case .unsupported(let signature):
            return "a value of type \(signature) cannot be written"
        case .string(let text):
            return text.utf8.contains(0) ? "a string holds a NUL character" : nil
        case .objectPath(let path):
            return DBusNames.isObjectPath(path) ? nil : "“\(path)” is not an object path"
        case .strings(let texts):
            return texts.contains { $0.utf8.contains(0) } ? "a string holds a NUL character" : nil
        case .variants(let entries):
            for (key, value) in entries {
                if key.utf8.contains(0) { return "a dictionary key holds a NUL character" }
                if let problem = value.encodingProblem { return problem }
            }
            return nil
        case .byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return nil
        }
    }
}

extension [DBusValue] {
    /// The signature of the values one after the other (`"susssasa{sv}i"`); values that cannot be
    /// written add nothing.
    package var signature: String { map { $0.signature ?? "" }.joined() }
}

/// How much of an untrusted message is read, so a hostile client cannot make the server hold much
/// more than the message itself (libdbus bounds a message at 128 MiB): a longer string is cut, a
/// longer array refused with `org.freedesktop.DBus.Error.InvalidArgs` before its handler sees it.
package enum DBusLimits {
    /// The longest string kept, in UTF-8 bytes (64 KiB): a longer one is cut to its longest prefix
    /// within them that ends on a character, and the cut is recorded
    /// (``DBusMethodCall/cutStrings``); an object path that long is refused.
    package static let maximumStringBytes = 65_536
    /// The most elements of an array (or entries of a dictionary) read.
    package static let maximumArrayElements = 10_000
}

/// A string of a method call's arguments that was longer than ``DBusLimits/maximumStringBytes``,
/// and was cut to them.
package struct DBusStringCut: Sendable, Hashable {
    /// Where the string is in its argument.
    package enum Place: Sendable, Hashable {
        /// The argument is the string.
        case whole
        /// The element at this index of an array of strings.
        case element(Int)
        /// The name of an entry of a dictionary (the entry was left out: a cut name names nothing).
        case entryKey
        /// The string value of the entry named `key` of a dictionary.
        case entryValue(key: String)
    }

    /// The argument's index.
    package var argument: Int
    /// Where in the argument.
    package var place: Place
    /// How long the string was, in UTF-8 bytes.
    package var byteCount: Int

    /// A record of a cut string.
    package init(argument: Int, place: Place, byteCount: Int) {
        self.argument = argument
        self.place = place
        self.byteCount = byteCount
    }
}
