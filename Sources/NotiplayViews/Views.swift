import NotiplayCore

/// Something an extension puts in its view: it draws itself at a given width.
///
/// The toolkit is small on purpose — enough to port the seed articles' extensions, not a UI
/// framework: ``Label`` (styled spans on one line), ``Paragraph`` (wrapped text),
/// ``ProgressBar``, ``Box`` (a frame around other elements), ``Spacer``, ``VerticalStack`` and
/// ``Button`` (a title and an action, for extensions that take input). Text is cleaned of control
/// characters and escape sequences before layout, so payload text can go in as it is.
public protocol ViewElement: Sendable {
    /// The element drawn `width` columns wide; as many rows as it needs.
    func render(width: Int) -> Grid

    /// Where the element sits in the element that holds it, in points (iOS's `frame`); `nil`, the
    /// default, lays it out in its container's flow, top to bottom. A placed element is drawn
    /// into the cells its frame covers (``PointFrame/cells``), over the flow, and takes no room
    /// in it.
    var placement: PointFrame? { get set }
}

/// A run of text in one style.
public struct TextSpan: Sendable, Hashable {
    /// The text (cleaned before it is drawn).
    public var text: String
    /// Its style.
    public var style: CellStyle

    /// A span of `text` in `style`.
    public init(_ text: String, style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }
}

/// Where a line of text sits.
public enum TextAlignment: Sendable, Hashable {
    case leading, center, trailing
}

/// One line of styled text, cut with an ellipsis when it does not fit.
///
/// ```swift
/// Label("Reminder: ", style: .bold) + Label("Water the plants")   // + comes with Notiplay
/// Label("🔊", style: CellStyle(foreground: .yellow))
/// ```
public struct Label: ViewElement, Hashable {
    /// Where it sits in its container, in points; `nil`: in the flow.
    public var placement: PointFrame?
    /// The spans, left to right.
    public var spans: [TextSpan]
    /// Where the text sits in the width.
    public var alignment: TextAlignment

    /// A label of `text` in `style`.
    public init(_ text: String, style: CellStyle = .plain, alignment: TextAlignment = .leading) {
        self.spans = [TextSpan(text, style: style)]
        self.alignment = alignment
    }

    /// A label of several styled spans.
    public init(spans: [TextSpan], alignment: TextAlignment = .leading) {
        self.spans = spans
        self.alignment = alignment
    }


    public func render(width: Int) -> Grid {
        var grid = Grid(width: width, height: 1)
        let cleaned = spans.map { TextSpan(TerminalText.clean($0.text), style: $0.style) }
        let total = cleaned.reduce(0) { $0 + CellWidth.of($1.text) }
        var x =
            switch alignment {
            case .leading: 0
            case .center: max(0, (width - total) / 2)
            case .trailing: max(0, width - total)
            }
        if total > width {
            // Cut once, at the end of the line, keeping each span's style.
            for span in cleaned where x < width - 1 {
                x = grid.put(span.text, row: 0, column: x, style: span.style, limit: width - 1)
            }
            grid.put("…", row: 0, column: min(x, width - 1), style: cleaned.last?.style ?? .plain)
            return grid
        }
        for span in cleaned { x = grid.put(span.text, row: 0, column: x, style: span.style) }
        return grid
    }
}

/// Text wrapped to the width, at most `maxLines` lines (the last ends in `…` when cut).
public struct Paragraph: ViewElement, Hashable {
    /// Where it sits in its container, in points; `nil`: in the flow.
    public var placement: PointFrame?
    /// The text; `\n` starts a new line.
    public var text: String
    /// Its style.
    public var style: CellStyle
    /// The most lines shown.
    public var maxLines: Int

    /// A paragraph of `text` in `style`.
    public init(_ text: String, style: CellStyle = .plain, maxLines: Int = 6) {
        self.text = text
        self.style = style
        self.maxLines = maxLines
    }

    public func render(width: Int) -> Grid {
        // Enough of a huge text to fill the lines, so a 10,000-character body costs nothing.
        let budget = max(64, width * maxLines * 4)
        let source = text.count > budget ? String(text.prefix(budget)) + " …" : text
        let lines = TextLayout.wrap(TerminalText.clean(source, keepNewlines: true), width: width, maxLines: maxLines)
        var grid = Grid(width: width, height: lines.count)
        for (y, line) in lines.enumerated() { grid.put(line, row: y, column: 0, style: style) }
        return grid
    }
}

/// A bar showing `value` from 0 to 1, with an optional label after it (`0:01 / 0:03`).
public struct ProgressBar: ViewElement, Hashable {
    /// Where it sits in its container, in points; `nil`: in the flow.
    public var placement: PointFrame?
    /// How far, from 0 to 1.
    public var value: Double
    /// The filled part's style.
    public var style: CellStyle
    /// Text after the bar.
    public var label: String

    /// A bar at `value` (clamped to 0…1).
    public init(value: Double, style: CellStyle = .plain, label: String = "") {
        self.value = value.isFinite ? min(1, max(0, value)) : 0
        self.style = style
        self.label = label
    }

    public func render(width: Int) -> Grid {
        var grid = Grid(width: width, height: 1)
        let text = TerminalText.clean(label)
        let labelWidth = text.isEmpty ? 0 : CellWidth.of(text) + 1
        let barWidth = max(0, width - labelWidth)
        let filled = Int((value * Double(barWidth)).rounded(.down))
        for x in 0..<barWidth {
            grid[0, x] = x < filled ? Cell("█", style: style) : Cell("░", style: CellStyle(dim: true))
        }
        if !text.isEmpty { grid.put(text, row: 0, column: barWidth + 1, limit: width) }
        return grid
    }
}

/// A frame around other elements, with an optional title in its top edge.
public struct Box: ViewElement {
    /// Where it sits in its container, in points; `nil`: in the flow.
    public var placement: PointFrame?
    /// The title in the top edge.
    public var title: String
    /// The frame's style.
    public var style: CellStyle
    /// What is inside, top to bottom.
    public var content: [any ViewElement]

    /// A box titled `title` around `content`.
    public init(title: String = "", style: CellStyle = .dim, _ content: [any ViewElement]) {
        self.title = title
        self.style = style
        self.content = content
    }

    public func render(width: Int) -> Grid {
        guard width >= 2 else { return Grid(width: width, height: 0) }
        let inner = VerticalStack(content).render(width: max(0, width - 2))
        var grid = Grid(width: width, height: inner.height + 2)
        let horizontal = String(repeating: "─", count: width - 2)
        grid.put("┌" + horizontal + "┐", row: 0, column: 0, style: style)
        grid.put("└" + horizontal + "┘", row: inner.height + 1, column: 0, style: style)
        for y in 0..<inner.height {
            grid[y + 1, 0] = Cell("│", style: style)
            grid[y + 1, width - 1] = Cell("│", style: style)
        }
        let name = TerminalText.clean(title)
        if !name.isEmpty, width > 4 {
            grid.put(" " + TextLayout.truncate(name, width: width - 4) + " ", row: 0, column: 1, style: style, limit: width - 1)
        }
        grid.draw(inner, row: 1, column: 1)
        return grid
    }
}

/// Empty rows.
public struct Spacer: ViewElement, Hashable {
    /// Where it sits in its container, in points; `nil`: in the flow.
    public var placement: PointFrame?
    /// How many rows.
    public var height: Int

    /// `height` empty rows.
    public init(height: Int = 1) {
        self.height = max(0, height)
    }

    public func render(width: Int) -> Grid { Grid(width: width, height: height) }
}

/// Elements one under the other.
public struct VerticalStack: ViewElement {
    /// Where it sits in its container, in points; `nil`: in the flow.
    public var placement: PointFrame?
    /// The elements, top to bottom.
    public var content: [any ViewElement]

    /// A stack of `content`.
    public init(_ content: [any ViewElement]) {
        self.content = content
    }

    /// The elements without a ``ViewElement/placement`` one under the other, then each placed
    /// one into its cells (clipped to the width): the stack is as high as the lower of the two.
    public func render(width: Int) -> Grid {
        let parts = content.filter { $0.placement == nil }.map { $0.render(width: width) }
        let placed = content.compactMap { element in element.placement.map { (element, $0) } }
        let flowHeight = parts.reduce(0) { $0 + $1.height }
        let placedHeight = placed.compactMap { PlacedLayout.cells($0.1, width: width) }.map { $0.y + $0.height }.max() ?? 0
        var grid = Grid(width: width, height: max(flowHeight, placedHeight))
        var y = 0
        for part in parts {
            grid.draw(part, row: y, column: 0)
            y += part.height
        }
        for (element, placement) in placed { PlacedLayout.draw(element, placement: placement, into: &grid) }
        return grid
    }
}
