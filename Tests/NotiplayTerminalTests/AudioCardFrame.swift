import NotiplayTerminal
import NotiplayViews

/// A 60×10 frame shaped like the default card of a notification with an audio attachment:
/// header, title, body, the media row (button, progress bar, `0:01 / 0:03`), the actions.
/// Built here with the grid alone, so the renderer's tests do not depend on the card's layout.
/// `filled` overrides the bar's filled cells, which otherwise follow the position.
func audioCardFrame(position: Double, duration: Double, filled: Int? = nil, playing: Bool = true, width: Int = 60) -> Grid {
    var grid = Grid(width: width, height: 10)
    let tint = CellStyle(foreground: .systemTint)
    grid.put("Voice Memos", row: 0, column: 1, style: .bold)
    grid.put("now", row: 0, column: width - 7, style: .dim)
    grid.put("✕", row: 0, column: width - 2)
    grid.put(String(repeating: "─", count: width), row: 1, column: 0, style: .dim)
    grid.put("Sam left you a message", row: 2, column: 1, style: .bold)
    grid.put("Listen before the meeting 🔇 日本語 at 10:30", row: 3, column: 1)
    grid.put(playing ? "⏸" : "▶", row: 5, column: 1, style: tint)
    let label = clock(position) + " / " + clock(duration)
    let barWidth = width - 6 - label.count
    let filled = filled ?? (duration > 0 ? Int((Double(barWidth) * min(1, position / duration)).rounded(.down)) : 0)
    for x in 0..<barWidth {
        grid[5, 3 + x] = x < filled ? Cell("█", style: tint) : Cell("░", style: .dim)
    }
    grid.put(label, row: 5, column: 4 + barWidth)
    grid.put("[1] Reply   [2] Call back   [Enter] Open", row: 8, column: 1)
    return grid
}

/// `m:ss`.
func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded(.down))
    let rest = s % 60
    return "\(s / 60):" + (rest < 10 ? "0" : "") + "\(rest)"
}
