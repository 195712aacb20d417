import FuzzSupport
import NotiplayCore

/// Property-list bytes (XML or binary), read as `validate` reads an `Info.plist`: the property
/// list, then the notification extension manifest in it.
///
/// Oracles: no trap; every error and warning prints safely on a terminal; a manifest's rows at
/// any width are between 0 and 1,000; what was read, written again by Foundation in the binary
/// and XML forms, reads back the same (`FoundationRoundTrip`).
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = LibFuzzer.bytes(data, size)
    let plist: PropertyListValue
    do {
        plist = try PropertyListParser.parse(bytes).value
    } catch {
        let diagnostic = Diagnostic(line: error.line, column: error.column, error.message)
        MessageOracle.check([diagnostic.description], "a property-list error")
        return 0
    }
    FoundationRoundTrip.check(plist)
    do {
        let manifest = try ExtensionManifest.decode(plist, bundleName: nil, path: "/fuzz/Fuzz.appex/Info.plist")
        for width in [0, 1, 30, 80, 1_000_000] {
            let rows = manifest.initialRows(forWidth: width)
            if rows < 0 || rows > 1_000 { oracleFailure("initialRows(forWidth: \(width)) is \(rows)") }
        }
    } catch {
        if error.errors.isEmpty { oracleFailure("a manifest refused without an error") }
        MessageOracle.check(error.errors.map(\.description) + error.warnings.map(\.description), "a manifest diagnostic")
    }
    return 0
}

/// Hands the process to libFuzzer with this target (called from `main.swift`; the C function
/// is taken here, in its own file, so that the compiler emits it once).
func runFuzzTarget() -> Never {
    LibFuzzer.run(LLVMFuzzerTestOneInput)
}
