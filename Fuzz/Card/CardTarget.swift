import FuzzSupport
import NotiplayViews

/// A card laid out from raw strings (`CardLayout`) and drawn (`FrameRenderer`): a first frame,
/// then the next one as a difference, as the terminal driver draws them.
///
/// Oracles:
/// - every frame's bytes pass `TerminalOracle`: printable text, and no escape sequence but
///   cursor moves, erases and SGR — nothing of the input's controls or escapes;
/// - the frame written as a plain text (`FrameRenderer.plainText`) holds no control but `\n`;
/// - replayed on a screen (`ScreenEmulator`), a frame drawn whole shows the grid's text and
///   styles, and the second frame drawn as a difference over the first shows the same screen as
///   the second drawn whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = CardInput(LibFuzzer.bytes(data, size))
    let first = CardLayout.render(input.first, width: input.width)
    let second = CardLayout.render(input.second, width: input.width)

    var renderer = FrameRenderer()
    let firstBytes = renderer.render(first, mode: input.mode, glyphs: input.glyphs)
    let changeBytes = renderer.render(second, mode: input.mode, glyphs: input.glyphs)
    var fresh = FrameRenderer()
    let wholeBytes = fresh.render(second, mode: input.mode, glyphs: input.glyphs)
    for (name, bytes) in [("first frame", firstBytes), ("second frame", changeBytes), ("whole second frame", wholeBytes)] {
        if let violation = TerminalOracle.violation(inTerminalOutput: bytes) {
            oracleFailure("the \(name) holds \(violation)")
        }
    }
    let plain = FrameRenderer.plainText(second, glyphs: input.glyphs)
    if let violation = TerminalOracle.violation(inText: plain, allowing: ["\n"]) {
        oracleFailure("the plain text of the frame holds a \(violation)")
    }

    guard second.height > 0, second.width > 0 else { return 0 }
    var whole = ScreenEmulator(width: second.width, height: second.height)
    if let problem = whole.apply(wholeBytes) { oracleFailure("drawing the second frame whole: \(problem)") }
    let expected = plain.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if whole.lines != expected {
        oracleFailure("the second frame drawn whole shows\n\(whole.lines.joined(separator: "\n"))\ninstead of\n\(plain)")
    }
    for row in 0..<second.height {
        // A wide character is drawn in its left cell's style (its right half's is not used).
        for column in 0..<second.width where !whole[row, column].isTail && !second[row, column].isContinuation {
            let style = input.mode.map(second[row, column].style)
            if whole[row, column].style != style {
                oracleFailure(
                    "row \(row), column \(column) drawn in \(whole[row, column].style) instead of \(style) by "
                        + TerminalOracle.visible(wholeBytes))
            }
        }
    }
    guard first.width == second.width, first.height == second.height else { return 0 }
    var changed = ScreenEmulator(width: first.width, height: first.height)
    if let problem = changed.apply(firstBytes) { oracleFailure("drawing the first frame: \(problem)") }
    if let problem = changed.apply(changeBytes) { oracleFailure("drawing the second frame as a difference: \(problem)") }
    if changed.cells != whole.cells {
        oracleFailure(
            "the second frame drawn as a difference shows\n\(changed.lines.joined(separator: "\n"))\n"
                + "where drawn whole it shows\n\(whole.lines.joined(separator: "\n"))")
    }
    return 0
}

/// Hands the process to libFuzzer with this target (called from `main.swift`; the C function
/// is taken here, in its own file, so that the compiler emits it once).
func runFuzzTarget() -> Never {
    LibFuzzer.run(LLVMFuzzerTestOneInput)
}
