// The frame renderer: time to render and diff a 60×10 card frame after a one-cell change and
// after a position update, a full redraw for comparison, and the bytes a position update writes.
import NotiplayViews

/// Runs the renderer benchmark and returns its report lines.
func renderBenchmark() -> [String] {
    let clock = ContinuousClock()
    var report: [String] = []

    // 1. One cell changes between frames (a digit of the time), nothing else.
    var renderer = FrameRenderer()
    var grid = benchCard(position: 1, duration: 3)
    _ = renderer.render(grid, mode: .trueColor, glyphs: .unicode)
    var oneCell: [Double] = []
    var oneCellBytes = 0
    for round in 0..<21_000 {
        grid.put(round % 2 == 0 ? "2" : "1", row: 5, column: 50)
        let start = clock.now
        let bytes = renderer.render(grid, mode: .trueColor, glyphs: .unicode)
        let elapsed = clock.now - start
        precondition(!bytes.isEmpty)
        oneCellBytes = bytes.count
        if round >= 1_000 { oneCell.append(microseconds(elapsed)) }
    }
    report.append(
        "render: 60×10 card, one cell changed: render+diff median \(benchFormat(benchMedian(oneCell))) µs "
            + "(p99 \(benchFormat(benchP99(oneCell))) µs), \(oneCellBytes) bytes")

    // 2. Position updates: a 3 s clip and a 3 min clip at mpv's pace (time-pos every 100 ms),
    //    frames built beforehand; the example of the budget (0:01 → 0:02, one bar cell) on its own.
    var update: [Double] = []
    var updateBytes: [Int] = []
    for duration in [3.0, 180.0] {
        let frames = stride(from: 0.0, through: duration, by: 0.1).map { benchCard(position: $0, duration: duration) }
        for round in 0..<(duration < 10 ? 300 : 5) {
            var renderer = FrameRenderer()
            _ = renderer.render(frames[0], mode: .trueColor, glyphs: .unicode)
            for frame in frames.dropFirst() {
                let start = clock.now
                let bytes = renderer.render(frame, mode: .trueColor, glyphs: .unicode)
                let elapsed = clock.now - start
                if round > 0 && !bytes.isEmpty {
                    update.append(microseconds(elapsed))
                    updateBytes.append(bytes.count)
                }
            }
        }
    }
    var example = FrameRenderer()
    _ = example.render(benchCard(position: 1, duration: 3, filled: 14), mode: .trueColor, glyphs: .unicode)
    let exampleBytes = example.render(benchCard(position: 2, duration: 3, filled: 15), mode: .trueColor, glyphs: .unicode)
    report.append(
        "render: position update (0:01 → 0:02, one bar cell) \(exampleBytes.count) bytes; over 3 s and 3 min clips "
            + "at 100 ms: median \(updateBytes.sorted()[updateBytes.count / 2]) bytes, max \(updateBytes.max() ?? 0) bytes "
            + "[budget 64]; render+diff median \(benchFormat(benchMedian(update))) µs (p99 \(benchFormat(benchP99(update))) µs)")

    // 3. A full redraw of the same frame, for comparison.
    var full: [Double] = []
    var fullBytes = 0
    let frame = benchCard(position: 1, duration: 3)
    for round in 0..<5_500 {
        renderer.invalidate()
        let start = clock.now
        let bytes = renderer.render(frame, mode: .trueColor, glyphs: .unicode)
        let elapsed = clock.now - start
        fullBytes = bytes.count
        if round >= 500 { full.append(microseconds(elapsed)) }
    }
    report.append(
        "render: full redraw of the card median \(benchFormat(benchMedian(full))) µs "
            + "(p99 \(benchFormat(benchP99(full))) µs), \(fullBytes) bytes")
    return report
}

/// A 60×10 frame shaped like the default card of a notification with an audio attachment.
private func benchCard(position: Double, duration: Double, filled: Int? = nil) -> Grid {
    var grid = Grid(width: 60, height: 10)
    let tint = CellStyle(foreground: .systemTint)
    grid.put("Voice Memos", row: 0, column: 1, style: .bold)
    grid.put("now", row: 0, column: 53, style: .dim)
    grid.put("✕", row: 0, column: 58)
    grid.put(String(repeating: "─", count: 60), row: 1, column: 0, style: .dim)
    grid.put("Sam left you a message", row: 2, column: 1, style: .bold)
    grid.put("Listen before the meeting 🔇 日本語 at 10:30", row: 3, column: 1)
    grid.put("⏸", row: 5, column: 1, style: tint)
    let label = benchClock(position) + " / " + benchClock(duration)
    let barWidth = 54 - label.count
    let cells = filled ?? Int((Double(barWidth) * min(1, position / duration)).rounded(.down))
    for x in 0..<barWidth {
        grid[5, 3 + x] = x < cells ? Cell("█", style: tint) : Cell("░", style: .dim)
    }
    grid.put(label, row: 5, column: 4 + barWidth)
    grid.put("[1] Reply   [2] Call back   [Enter] Open", row: 8, column: 1)
    return grid
}

private func benchClock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded(.down))
    return "\(s / 60):" + (s % 60 < 10 ? "0" : "") + "\(s % 60)"
}

private func microseconds(_ d: Duration) -> Double {
    let (s, atto) = d.components
    return Double(s) * 1e6 + Double(atto) / 1e12
}

private func benchMedian(_ values: [Double]) -> Double {
    values.isEmpty ? .nan : values.sorted()[values.count / 2]
}

private func benchP99(_ values: [Double]) -> Double {
    values.isEmpty ? .nan : values.sorted()[values.count * 99 / 100]
}

private func benchFormat(_ v: Double) -> String {
    String((v * 100).rounded() / 100)
}
