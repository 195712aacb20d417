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
    /// Whether the extension takes input (its manifest's
    /// `UNNotificationExtensionUserInteractionEnabled`): its ``Button``s then take clicks and
    /// focus; otherwise a click on one is a click on the content.
    public var interactive: Bool
    /// What Tab has focused, drawn in reverse video: an extension's button or an action button.
    public var focus: CardTarget?

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
        interactive = false
        focus = nil
    }
}

/// Lays a card out at a width: a pure function from ``CardModel`` to ``Grid``, and to the
/// ``CardMap`` of where its buttons are. <doc:TheCard> says what each part of the card shows.
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
/// Narrower than ``minimumWidth`` (a pane 20–30 columns wide): no frame, a line each for the
/// app, the title, up to three of the body, the actions and the status. The view area is
/// `ratio × width / 2` rows (cells are about twice as tall as wide), or `preferredRows` when the
/// extension sets it, at most ``maximumViewRows``.
public enum CardLayout {
    /// The narrowest full card.
    public static let minimumWidth = 30
    /// The tallest view area.
    public static let maximumViewRows = 20
    /// The most body lines in the default content.
    public static let maximumBodyLines = 4

    /// A card laid out: what it shows and where its buttons are.
    public struct Result: Sendable {
        /// The card's cells.
        public var grid: Grid
        /// Where its ✕, media button, action buttons, extension buttons and view are.
        public var map: CardMap
    }

    /// The card drawn `width` columns wide.
    public static func render(_ card: CardModel, width: Int) -> Grid {
        layout(card, width: width).grid
    }

    /// The card drawn `width` columns wide, with the map of its buttons; the focused target (if
    /// the card shows it) drawn in reverse video.
    public static func layout(_ card: CardModel, width: Int) -> Result {
        var result = width >= minimumWidth ? full(card, width: width) : compact(card, width: width)
        if let focus = card.focus, let frame = result.map.frame(of: focus) { highlight(frame, on: &result.grid) }
        return result
    }

    private static func full(_ card: CardModel, width: Int) -> Result {
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
        let mediaFrame = drawButton(card, on: &view)
        if view.height > 0 { rows.append(view) }

        if let content = card.defaultContent {
            var parts: [any ViewElement] = []
            if !content.title.isEmpty { parts.append(Label(content.title, style: .bold)) }
            if !content.subtitle.isEmpty { parts.append(Label(content.subtitle)) }
            if !content.body.isEmpty { parts.append(Paragraph(content.body, maxLines: maximumBodyLines)) }
            if !parts.isEmpty { rows.append(VerticalStack(parts).render(width: inner)) }
        }

        let (actionRows, actionFrames) = actionLines(card.actions, width: inner)
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
        let footerTop = y
        for part in footer {
            side(part.height)
            grid.draw(part, row: y, column: 2)
            y += part.height
        }
        grid.put("└" + String(repeating: "─", count: width - 2) + "┘", row: y, column: 0, style: frame)

        // Where things are: the ✕ with a cell either side, then what lies over the view, the
        // actions, and the view itself.
        var regions = [CardMap.Region(target: .close, frame: Rect(x: width - 4, y: 0, width: 3, height: 1))]
        let viewFrame = Rect(x: 2, y: 1, width: inner, height: view.height)
        if let mediaFrame { regions.append(.init(target: .mediaButton, frame: mediaFrame.offset(x: 2, y: 1))) }
        if card.interactive {
            for (index, control) in grid.controls.enumerated() {
                regions.append(.init(target: .control(index), frame: control.frame))
            }
        }
        for (index, frame) in actionFrames.enumerated() {
            regions.append(.init(target: .action(index + 1), frame: frame.offset(x: 2, y: footerTop)))
        }
        if !viewFrame.isEmpty { regions.append(.init(target: .content, frame: viewFrame)) }
        return Result(grid: grid, map: CardMap(regions: regions, controls: grid.controls))
    }

    /// The focused target's cells in reverse video, bold.
    private static func highlight(_ frame: Rect, on grid: inout Grid) {
        guard let visible = frame.clipped(width: grid.width, height: grid.height) else { return }
        for row in visible.y..<(visible.y + visible.height) {
            for column in visible.x..<(visible.x + visible.width) {
                grid[row, column].style.reverse = true
                grid[row, column].style.bold = true
            }
        }
    }
}
