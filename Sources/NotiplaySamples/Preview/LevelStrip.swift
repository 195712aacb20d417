import Notiplay

/// The whole clip's loudness on one row, one column per slice of time (`▁▂▃▄▅▆▇█`, the loudest
/// window of each slice on the meter's decibel scale); the part already played is drawn in
/// `style`, the rest dim.
struct LevelStrip: ViewElement, Equatable {
    /// The clip's envelope.
    let envelope: LevelEnvelope
    /// How far playback is, from 0 to 1.
    let played: Double
    /// The played part's style.
    let style: CellStyle

    static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The bar for each of `width` slices of `envelope`.
    static func bars(_ envelope: LevelEnvelope, width: Int) -> [Character] {
        let levels = envelope.levels
        guard width > 0, !levels.isEmpty else { return [] }
        return (0..<width).map { column in
            let start = column * levels.count / width
            let end = max(start + 1, (column + 1) * levels.count / width)
            let loudest = levels[start..<min(end, levels.count)].max() ?? 0
            let step = Int((LevelEnvelope.meter(loudest) * Double(bars.count - 1)).rounded())
            return bars[min(bars.count - 1, max(0, step))]
        }
    }

    func render(width: Int) -> Grid {
        var grid = Grid(width: width, height: 1)
        let split = Int((min(1, max(0, played.isFinite ? played : 0)) * Double(width)).rounded(.down))
        for (x, bar) in Self.bars(envelope, width: width).enumerated() {
            grid[0, x] = Cell(bar, style: x < split ? style : .dim)
        }
        return grid
    }
}
