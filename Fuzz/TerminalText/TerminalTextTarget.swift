import FuzzSupport
import NotiplayCore

/// `TerminalText.clean` on any text, both ways (line breaks kept or not).
///
/// Oracle: the result holds no control character, `ESC`, C1 control or bidirectional control
/// (only `\n` when line breaks are kept); cleaning it again changes nothing; and text without
/// any of those comes out unchanged but for tabs and line breaks.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: LibFuzzer.bytes(data, size), as: UTF8.self)
    let plain = !text.unicodeScalars.contains(where: TerminalOracle.isUnsafe)
    for keepNewlines in [false, true] {
        let clean = TerminalText.clean(text, keepNewlines: keepNewlines)
        if let violation = TerminalOracle.violation(inText: clean, allowing: keepNewlines ? ["\n"] : []) {
            oracleFailure("clean(keepNewlines: \(keepNewlines)) left a \(violation)")
        }
        if TerminalText.clean(clean, keepNewlines: keepNewlines) != clean {
            oracleFailure("clean(keepNewlines: \(keepNewlines)) is not idempotent")
        }
        if plain && clean != text {
            oracleFailure("clean(keepNewlines: \(keepNewlines)) changed text that had nothing to remove")
        }
    }
    return 0
}

/// Hands the process to libFuzzer with this target (called from `main.swift`; the C function
/// is taken here, in its own file, so that the compiler emits it once).
func runFuzzTarget() -> Never {
    LibFuzzer.run(LLVMFuzzerTestOneInput)
}
