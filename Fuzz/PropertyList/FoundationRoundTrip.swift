import Foundation
import FuzzSupport
import NotiplayCore

/// A property list the reader accepted, written again by Foundation's `PropertyListSerialization`
/// in both forms, reads back into the same value: the readers are checked on every kind of
/// well-formed file another writer makes from what the fuzzer found, not only on their own
/// notion of one.
///
/// Left out where Foundation cannot write the value as it is: the XML form of a string holding a
/// character XML 1.0 forbids, and of a date outside years 1–9999 or with a fraction of a second
/// (the XML form has whole seconds).
enum FoundationRoundTrip {
    static func check(_ value: PropertyListValue) {
        let object = foundationObject(value)
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            if format == .xml && !writableAsXML(value) { continue }
            let data: Data
            do {
                data = try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
            } catch {
                continue  // Foundation cannot write it: nothing to compare
            }
            let again: PropertyListValue
            do {
                again = try PropertyListParser.parse(Array(data)).value
            } catch {
                oracleFailure("\(format) written by Foundation is refused: \(error) in \(String(decoding: data.prefix(400), as: UTF8.self).debugDescription)")
            }
            if !same(value, again) {
                oracleFailure("\(format) written by Foundation reads back as \(again), not \(value)")
            }
        }
    }

    static func foundationObject(_ value: PropertyListValue) -> Any {
        switch value {
        case .string(let s): return s
        case .integer(let i): return NSNumber(value: i)
        case .real(let d): return NSNumber(value: d)
        case .bool(let b): return NSNumber(value: b)
        case .date(let d): return Date(timeIntervalSinceReferenceDate: d)
        case .data(let bytes): return Data(bytes)
        case .array(let items): return items.map(foundationObject)
        case .dictionary(let entries):
            var dictionary: [String: Any] = [:]
            for (key, item) in entries { dictionary[key] = foundationObject(item) }
            return dictionary
        }
    }

    static func writableAsXML(_ value: PropertyListValue) -> Bool {
        switch value {
        case .string(let s): return xmlText(s)
        // Whole seconds only: Foundation writes 59.5 s and more as second 60 ("23:59:60Z").
        case .date(let d): return d == d.rounded() && d > -63_082_281_600 && d < 252_300_000_000
        case .real(let d): return !d.isNaN
        case .array(let items): return items.allSatisfy(writableAsXML)
        case .dictionary(let entries): return entries.allSatisfy { xmlText($0.key) && writableAsXML($0.value) }
        default: return true
        }
    }

    /// Whether XML 1.0 can hold `s` as text.
    static func xmlText(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy { scalar in
            let v = scalar.value
            return v == 0x09 || v == 0x0A || v == 0x0D || (v >= 0x20 && v != 0xFFFE && v != 0xFFFF)
        }
    }

    static func same(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        switch (a, b) {
        case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.date(let x), .date(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count
                && x.allSatisfy { entry in y[entry.key].map { same(entry.value, $0) } ?? false }
        default: return a == b
        }
    }
}
