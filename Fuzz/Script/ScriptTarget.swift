import FuzzSupport
import NotiplayScript

/// A `.playback` script's bytes, parsed as `notiplay test` parses one (text that is not UTF-8
/// is read with U+FFFD in place of the bad bytes; the file reader refuses it before the parser
/// sees it, which the script tests cover).
///
/// Oracles (those of `NotiplayScriptTests`' robustness tests): an error names a line of the
/// text and a column on it, or line 0 column 0, and its message prints safely on a terminal; a
/// script that parses delivers or serves, and every step holds only values the language allows
/// (absolute paths, durations in range, known event names, real dates…).
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: LibFuzzer.bytes(data, size), as: UTF8.self)
    let lines = ScriptLines(text)
    do {
        let script = try ScriptParser.parse(text, path: "/fuzz/case.playback")
        for step in script.steps {
            guard let length = lines.length(of: step.line), step.column >= 1, step.column <= length else {
                oracleFailure("step \(step.kind) at line \(step.line), column \(step.column) is not on a line of the text")
            }
            StepOracle.check(step.kind)
        }
        let deliversOrServes = script.steps.contains {
            switch $0.kind {
            case .deliver, .serve: true
            default: false
            }
        }
        if !deliversOrServes { oracleFailure("a script that neither delivers nor serves was accepted") }
    } catch {
        if error.line == 0 {
            if error.column != 0 { oracleFailure("an error at line 0, column \(error.column)") }
        } else {
            guard let length = lines.length(of: error.line), error.column >= 1, error.column <= length + 1 else {
                oracleFailure("an error at line \(error.line), column \(error.column) is not on a line of the text: \(error)")
            }
        }
        if error.message.isEmpty { oracleFailure("an error without a message") }
        MessageOracle.check([error.message, error.description], "a script error")
    }
    return 0
}

/// The lines of a script as the language counts them: a byte-order mark at the start skipped,
/// lines ended by `\n`, a `\r` before it part of the line ending, columns in Unicode scalars.
struct ScriptLines {
    private var lengths: [Int] = []

    init(_ text: String) {
        var current: [Unicode.Scalar] = []
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 0, scalar.value == 0xFEFF { continue }
            if scalar == "\n" {
                if current.last == "\r" { current.removeLast() }
                lengths.append(current.count)
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(scalar)
            }
        }
        if current.last == "\r" { current.removeLast() }
        lengths.append(current.count)
    }

    /// The scalars on line `number` (from 1), or `nil` when there is no such line.
    func length(of number: Int) -> Int? {
        number >= 1 && number <= lengths.count ? lengths[number - 1] : nil
    }
}

/// Hands the process to libFuzzer with this target (called from `main.swift`; the C function
/// is taken here, in its own file, so that the compiler emits it once).
func runFuzzTarget() -> Never {
    LibFuzzer.run(LLVMFuzzerTestOneInput)
}
