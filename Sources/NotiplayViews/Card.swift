import NotiplayCore

/// Everything a card shows, as plain values: what ``CardLayout`` draws. The runtime builds one
/// from its presentation session; tests build them by hand.
public struct CardModel: Sendable {
    /// The media button as the card draws it.
    public enum Button: Sendable, Hashable {
        /// `.default` while paused: ▶ in the tint colour.
        case play
        /// `.default` while playing: ⏸ in the tint colour.
        case pause
        /// `.overlay` while paused: a dim ▶ over the content.
        case overlayPlay
        /// `.overlay` while playing: nothing drawn.
        case overlayHidden
    }

    /// One action button.
    public struct Action: Sendable, Hashable {
        /// Its title.
        public var title: String
        /// Drawn in red.
        public var destructive: Bool
        /// Opens a text prompt.
        public var textInput: Bool

        /// An action button.
        public init(title: String, destructive: Bool = false, textInput: Bool = false) {
            self.title = title
            self.destructive = destructive
            self.textInput = textInput
        }
    }

    /// The header: the app's name, or the extension's title when it overrides the default title.
    public var header: String
    /// How old the notification is ("now", "2m", "1h").
    public var age: String
    /// The extension's view.
    public var view: [any ViewElement]
    /// The view's height in rows from `preferredContentSize` (0: not set).
    public var preferredRows: Int
    /// The manifest's `UNNotificationExtensionInitialContentSizeRatio` (`nil`: the default card,
    /// whose view is as tall as its content).
    public var contentSizeRatio: Double?
    /// Title, subtitle and body; `nil` when the extension hides the default content.
    public var defaultContent: (title: String, subtitle: String, body: String)?
    /// The action buttons, numbered from 1.
    public var actions: [Action]
    /// The media button, if drawn.
    public var button: Button?
    /// Where the button goes, in the view's cells.
    public var buttonFrame: Rect
    /// The button's colour.
    public var buttonTint: TerminalColor
    /// A text-input prompt being typed (`Reply: on my way`), shown under the actions.
    public var prompt: String?
    /// A dim line at the bottom (a notice: "no sound device: playing silently").
    public var status: String?

    /// A card with a header and nothing else.
    public init(header: String, age: String = "now") {
        self.header = header
        self.age = age
        view = []
        preferredRows = 0
        contentSizeRatio = nil
        defaultContent = nil
        actions = []
        button = nil
        buttonFrame = .zero
        buttonTint = .systemTint
        prompt = nil
        status = nil
    }
}

/// Lays a card out at a width: a pure function from ``CardModel`` to ``Grid``. <doc:TheCard> says
/// what each part of the card shows.
///
/// ```
/// ┌ NagMe ──────────────────── now ✕ ┐
/// │ Reminder: Water the plants  🔊   │   the extension's view
/// │ NagMe                            │   default content (unless hidden):
/// │ Water the plants                 │   title (bold), subtitle, body
/// ├──────────────────────────────────┤
/// │ 1 Cancel reminder  2 Snooze      │   numbered actions
/// └──────────────────────────────────┘
/// ```
///
/// Narrower than ``minimumWidth``: one compact line. The view area is
/// `ratio × width / 2` rows (cells are about twice as tall as wide), or `preferredRows` when the
/// extension sets it, at most ``maximumViewRows``.
public enum CardLayout {
    /// The narrowest full card.
    public static let minimumWidth = 30
    /// The tallest view area.
    public static let maximumViewRows = 20
    /// The most body lines in the default content.
    public static let maximumBodyLines = 4

    /// The card drawn `width` columns wide.
    public static func render(_ card: CardModel, width: Int) -> Grid {
        guard width >= minimumWidth else { return compact(card, width: width) }
        let inner = width - 4
        var rows: [Grid] = []

        // The extension's view, with the media button over it.
        var view = VerticalStack(card.view).render(width: inner)
        let viewRows: Int
        if card.preferredRows > 0 {
            viewRows = min(card.preferredRows, maximumViewRows)
        } else if let ratio = card.contentSizeRatio, ratio > 0, ratio.isFinite {
            viewRows = min(max(1, Int((ratio * Double(inner) / 2).rounded())), maximumViewRows)
        } else {
            viewRows = min(view.height, maximumViewRows)
        }
        if viewRows != view.height {
            var sized = Grid(width: inner, height: viewRows)
            sized.draw(view, row: 0, column: 0)
            view = sized
        }
        drawButton(card, on: &view)
        if view.height > 0 { rows.append(view) }

        if let content = card.defaultContent {
            var parts: [any ViewElement] = []
            if !content.title.isEmpty { parts.append(Label(content.title, style: .bold)) }
            if !content.subtitle.isEmpty { parts.append(Label(content.subtitle)) }
            if !content.body.isEmpty { parts.append(Paragraph(content.body, maxLines: maximumBodyLines)) }
            if !parts.isEmpty { rows.append(VerticalStack(parts).render(width: inner)) }
        }

        let actionRows = actionLines(card.actions, width: inner)
        var footer: [Grid] = []
        if actionRows.height > 0 { footer.append(actionRows) }
        if let prompt = card.prompt { footer.append(Label(prompt + "▏", style: .bold).render(width: inner)) }
        if let status = card.status { footer.append(Label(status, style: .dim).render(width: inner)) }

        let bodyHeight = rows.reduce(0) { $0 + $1.height }
        let footerHeight = footer.reduce(0) { $0 + $1.height }
        let separator = footerHeight > 0 && bodyHeight > 0 ? 1 : 0
        var grid = Grid(width: width, height: 2 + bodyHeight + separator + footerHeight)
        let frame = CellStyle.dim

        // Top edge with the header, the age and ✕.
        let right = " \(TerminalText.clean(card.age)) ✕ "
        let rightWidth = CellWidth.of(right)
        grid.put("┌" + String(repeating: "─", count: width - 2) + "┐", row: 0, column: 0, style: frame)
        let header = " " + TextLayout.truncate(TerminalText.clean(card.header), width: max(1, width - rightWidth - 6)) + " "
        grid.put(header, row: 0, column: 2, style: .bold)
        grid.put(right, row: 0, column: width - 1 - rightWidth, style: frame)

        var y = 1
        func side(_ count: Int) {
            for row in y..<(y + count) {
                grid[row, 0] = Cell("│", style: frame)
                grid[row, width - 1] = Cell("│", style: frame)
            }
        }
        for part in rows {
            side(part.height)
            grid.draw(part, row: y, column: 2)
            y += part.height
        }
        if separator == 1 {
            grid.put("├" + String(repeating: "─", count: width - 2) + "┤", row: y, column: 0, style: frame)
            y += 1
        }
        for part in footer {
            side(part.height)
            grid.draw(part, row: y, column: 2)
            y += part.height
        }
        grid.put("└" + String(repeating: "─", count: width - 2) + "┘", row: y, column: 0, style: frame)
        return grid
    }

    /// The glyph and style of the media button, or `nil` when nothing is drawn.
    static func buttonGlyph(_ card: CardModel) -> (String, CellStyle)? {
        switch card.button {
        case .play?: ("▶", CellStyle(foreground: card.buttonTint, bold: true))
        case .pause?: ("⏸", CellStyle(foreground: card.buttonTint, bold: true))
        case .overlayPlay?: ("▶", CellStyle(foreground: card.buttonTint, dim: true))
        case .overlayHidden?, nil: nil
        }
    }

    /// The button in the middle of its frame, clipped to the view.
    static func drawButton(_ card: CardModel, on view: inout Grid) {
        guard let (glyph, style) = buttonGlyph(card), !card.buttonFrame.isEmpty else { return }
        let frame = card.buttonFrame
        let row = frame.y + (frame.height - 1) / 2
        let column = frame.x + (frame.width - 1) / 2
        guard row >= 0, row < view.height, column >= 0, column < view.width else { return }
        view.put(glyph, row: row, column: column, style: style, limit: min(view.width, frame.x + frame.width))
    }

    /// `1 Title  2 Title …`, wrapped; destructive actions in red, text-input ones with `…`.
    static func actionLines(_ actions: [CardModel.Action], width: Int) -> Grid {
        guard !actions.isEmpty else { return Grid(width: width, height: 0) }
        var lines: [[TextSpan]] = [[]]
        var used = 0
        for (index, action) in actions.prefix(9).enumerated() {
            let title = TextLayout.truncate(
                TerminalText.clean(action.title) + (action.textInput ? "…" : ""), width: max(1, width - 2))
            let w = 2 + CellWidth.of(title)
            if used > 0 && used + 2 + w > width {
                lines.append([])
                used = 0
            }
            if used > 0 {
                lines[lines.count - 1].append(TextSpan("  "))
                used += 2
            }
            lines[lines.count - 1].append(TextSpan("\(index + 1)", style: CellStyle(bold: true, reverse: true)))
            lines[lines.count - 1].append(
                TextSpan(" " + title, style: action.destructive ? CellStyle(foreground: .red) : .plain))
            used += w
        }
        return VerticalStack(lines.map { Label(spans: $0) }).render(width: width)
    }

    /// One line for a terminal narrower than ``minimumWidth``: `▶ NagMe: Water the plants`.
    static func compact(_ card: CardModel, width: Int) -> Grid {
        var spans: [TextSpan] = []
        if let (glyph, style) = buttonGlyph(card) { spans.append(TextSpan(glyph + " ", style: style)) }
        spans.append(TextSpan(TerminalText.clean(card.header), style: .bold))
        if let content = card.defaultContent {
            let text = [content.title, content.body].filter { !$0.isEmpty }.joined(separator: " — ")
            if !text.isEmpty { spans.append(TextSpan(": " + text)) }
        }
        if !card.actions.isEmpty { spans.append(TextSpan(" [1-\(min(9, card.actions.count))]", style: .dim)) }
        return Label(spans: spans).render(width: max(0, width))
    }
}
