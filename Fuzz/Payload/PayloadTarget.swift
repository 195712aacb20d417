import FuzzSupport
import NotiplayCore

/// A payload's bytes, decoded as `validate` decodes a payload (JSON, then the APNs keys, with
/// the 4096-byte limit).
///
/// Oracles: every error and warning prints safely on a terminal; a decoded payload's size is the
/// compact size; JSON that parses reads back the same from its own `jsonText`; and a decoded
/// payload's content, written back with `payloadJSON` (as the center stores a notification a
/// service extension changed), decodes again without error into the same content.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = LibFuzzer.bytes(data, size)
    if let value = try? JSONParser.parse(bytes) {
        checkRoundTrip(value)
    }
    let payload: APNsPayload
    do {
        payload = try PayloadDecoder().decode(bytes)
    } catch {
        if error.errors.isEmpty { oracleFailure("a payload refused without an error") }
        MessageOracle.check(error.errors.map(\.description) + error.warnings.map(\.description), "a payload diagnostic")
        let invalid = InvalidFileError(file: "/fuzz/case.apns", errors: error.errors, warnings: error.warnings)
        MessageOracle.check([invalid.description], "the invalid-file message")
        return 0
    }
    MessageOracle.check(payload.warnings.map(\.description), "a payload warning")
    if payload.byteCount != PayloadDecoder.compactSize(bytes) { oracleFailure("byteCount is not the compact size") }
    checkRewrite(payload)
    return 0
}

/// `value` written as JSON text and read back is the same value.
func checkRoundTrip(_ value: JSONValue) {
    let text = value.jsonText
    guard let again = try? JSONParser.parse(text) else {
        oracleFailure("jsonText of a parsed value does not parse: \(text.prefix(200).debugDescription)")
    }
    if !JSONEquivalence.same(value, again) {
        oracleFailure("jsonText of a parsed value reads back different: \(text.prefix(200).debugDescription)")
    }
}

/// The payload's content written back as a payload decodes into the same content.
func checkRewrite(_ payload: APNsPayload) {
    let json = payload.content.payloadJSON
    let again: APNsPayload
    do {
        again = try PayloadDecoder(sizeLimit: nil).decode(Array(json.utf8))
    } catch {
        oracleFailure("payloadJSON does not decode: \(error.errors.map(\.description)) in \(json.prefix(300).debugDescription)")
    }
    let expected = UNMutableNotificationContent(payload.content)
    expected.jsonUserInfo = again.content.jsonUserInfo
    if again.content != expected.content {
        oracleFailure("payloadJSON decodes into other content: \(json.prefix(300).debugDescription)")
    }
}

/// JSON values compared as JSON means them: an integer and a number with the same value are equal.
enum JSONEquivalence {
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.integer(let x), .number(let y)), (.number(let y), .integer(let x)): return Double(x) == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            return zip(x, y).allSatisfy { $0.0 == $1.0 && same($0.1, $1.1) }
        default: return a == b
        }
    }
}

/// Hands the process to libFuzzer with this target (called from `main.swift`; the C function
/// is taken here, in its own file, so that the compiler emits it once).
func runFuzzTarget() -> Never {
    LibFuzzer.run(LLVMFuzzerTestOneInput)
}
