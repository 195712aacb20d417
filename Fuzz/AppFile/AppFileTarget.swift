import FuzzSupport
import NotiplayCore

/// An app file's bytes (`*.app.json`), read as `AppDefinition.decodeFile` reads one: JSON, then
/// the app's name, categories, extensions folder and forwarded actions.
///
/// Oracles: no trap; every error and warning prints safely on a terminal; an app's name is not
/// blank and its categories' identifiers are unique.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = LibFuzzer.bytes(data, size)
    let value: JSONValue
    do {
        value = try JSONParser.parse(bytes)
    } catch {
        MessageOracle.check([Diagnostic(line: error.line, column: error.column, error.message).description], "a JSON error")
        return 0
    }
    do {
        let app = try AppDefinition.decode(value, path: "/fuzz/Fuzz.app.json")
        MessageOracle.check(app.warnings.map(\.description), "an app warning")
        if app.name.unicodeScalars.allSatisfy(\.properties.isWhitespace) { oracleFailure("an app with a blank name") }
        let identifiers = app.categories.map(\.identifier)
        if Set(identifiers).count != identifiers.count { oracleFailure("an app with a category twice: \(identifiers)") }
    } catch {
        if error.errors.isEmpty { oracleFailure("an app refused without an error") }
        MessageOracle.check(error.errors.map(\.description) + error.warnings.map(\.description), "an app diagnostic")
        MessageOracle.check([error.description], "the invalid-file message")
    }
    return 0
}

/// Hands the process to libFuzzer with this target (called from `main.swift`; the C function
/// is taken here, in its own file, so that the compiler emits it once).
func runFuzzTarget() -> Never {
    LibFuzzer.run(LLVMFuzzerTestOneInput)
}
