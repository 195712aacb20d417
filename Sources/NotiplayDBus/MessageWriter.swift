internal import CDBus

/// Appends ``DBusValue``s to a message through libdbus's iterators (`dbus_message_iter_append_basic`,
/// `open_container`/`close_container`), never its variadic `dbus_message_append_args`.
///
/// libdbus aborts on a malformed object path or a string that is not UTF-8, so the writer checks
/// what libdbus would (a Swift string is always UTF-8; one holding a NUL would be cut short, so it
/// is refused).
enum MessageWriter {
    /// Appends `values` to `message` in order; `false` when one cannot be written (see
    /// ``DBusValue/encodingProblem``) or libdbus ran out of memory: the message must then be dropped.
    static func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for value in values {
            guard append(value, to: &iterator) else { return false }
        }
        return true
    }

    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(let number): return fixed(number, TypeCode.byte, &iterator)
        case .bool(let flag): return fixed(dbus_bool_t(flag ? 1 : 0), TypeCode.bool, &iterator)
        case .int16(let number): return fixed(number, TypeCode.int16, &iterator)
        case .uint16(let number): return fixed(number, TypeCode.uint16, &iterator)
        case .int32(let number): return fixed(number, TypeCode.int32, &iterator)
        case .uint32(let number): return fixed(number, TypeCode.uint32, &iterator)
        case .int64(let number): return fixed(number, TypeCode.int64, &iterator)
        case .uint64(let number): return fixed(number, TypeCode.uint64, &iterator)
        case .double(let number): return fixed(number, TypeCode.double, &iterator)
        case .string(let text): return string(text, TypeCode.string, &iterator)
        case .objectPath(let path):
            return DBusNames.isObjectPath(path) && string(path, TypeCode.objectPath, &iterator)
        case .strings(let texts):
            return container(TypeCode.array, "s", &iterator) { elements in
                texts.allSatisfy { string($0, TypeCode.string, &elements) }
            }
        case .variants(let entries):
            return container(TypeCode.array, "{sv}", &iterator) { dictionary in
                entries.keys.sorted().allSatisfy { key in
                    guard let content = entries[key], let signature = content.signature else { return false }
                    return container(TypeCode.dictEntry, nil, &dictionary) { entry in
                        string(key, TypeCode.string, &entry)
                            && container(TypeCode.variant, signature, &entry) { append(content, to: &$0) }
                    }
                }
            }
        case .unsupported:
            return false
        }
    }

    private static func fixed<Number>(_ number: Number, _ type: Int32, _ iterator: inout DBusMessageIter) -> Bool {
        var copy = number
        return withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(&iterator, type, $0) } != 0
    }

    private static func string(_ text: String, _ type: Int32, _ iterator: inout DBusMessageIter) -> Bool {
        guard !text.utf8.contains(0) else { return false }
        return text.withCString { characters in
            var pointer: UnsafePointer<CChar>? = characters
            return withUnsafePointer(to: &pointer) { dbus_message_iter_append_basic(&iterator, type, $0) } != 0
        }
    }

    /// Opens a container of `type` (with the signature of its content, `nil` for a dictionary
    /// entry), fills it with `body`, and closes it, or abandons it when `body` fails.
    private static func container(
        _ type: Int32, _ signature: String?, _ iterator: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        let opened: dbus_bool_t
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iterator, type, $0, &inner) }
        } else {
            opened = dbus_message_iter_open_container(&iterator, type, nil, &inner)
        }
        guard opened != 0 else { return false }
        guard body(&inner) else {
            dbus_message_iter_abandon_container(&iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }
}
