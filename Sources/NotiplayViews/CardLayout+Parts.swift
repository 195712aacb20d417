import NotiplayCore

extension CardLayout {
    /// The glyph and style of the media button, or `nil` when nothing is drawn.
    static func buttonGlyph(_ card: CardModel) -> (String, CellStyle)? {
        switch card.button {
        case .play?: ("▶", CellStyle(foreground: card.buttonTint, bold: true))
        case .pause?: ("⏸", CellStyle(foreground: card.buttonTint, bold: true))
        case .overlayPlay?: ("▶", CellStyle(foreground: card.buttonTint, dim: true))
        case .overlayHidden?, nil: nil
        }
    }

    /// The button in the middle of its frame, clipped to the view. Returns the frame, clipped to
    /// the view, when the button was drawn: where a click reaches it.
    static func drawButton(_ card: CardModel, on view: inout Grid) -> Rect? {
        guard let (glyph, style) = buttonGlyph(card), !card.buttonFrame.isEmpty else { return nil }
        let frame = card.buttonFrame
        let row = frame.y + (frame.height - 1) / 2
        let column = frame.x + (frame.width - 1) / 2
        guard row >= 0, row < view.height, column >= 0, column < view.width else { return nil }
        view.put(glyph, row: row, column: column, style: style, limit: min(view.width, frame.x + frame.width))
        return frame.clipped(width: view.width, height: view.height)
    }

    /// `1 Title  2 Title …`, wrapped; destructive actions in red, text-input ones with `…`. Also
    /// the cells of each action (its number and title), in the grid returned.
    static func actionLines(_ actions: [CardModel.Action], width: Int) -> (Grid, [Rect]) {
        guard !actions.isEmpty else { return (Grid(width: width, height: 0), []) }
        var lines: [[TextSpan]] = [[]]
        var frames: [Rect] = []
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
            frames.append(Rect(x: used, y: lines.count - 1, width: min(w, width - used), height: 1))
            used += w
        }
        return (VerticalStack(lines.map { Label(spans: $0) }).render(width: width), frames)
    }

    /// The card in a pane narrower than ``minimumWidth`` (a split beside an editor): no frame,
    /// the button's glyph and the app on the first line, then the title, up to
    /// ``compactBodyLines`` lines of the body, the actions' keys and titles, a prompt and the
    /// status, each cut at the edge. Only the media button takes a click there.
    static func compact(_ card: CardModel, width: Int) -> Result {
        let width = max(0, width)
        var header: [TextSpan] = []
        var regions: [CardMap.Region] = []
        if let (glyph, style) = buttonGlyph(card) {
            header.append(TextSpan(glyph + " ", style: style))
            if width > 0 { regions.append(.init(target: .mediaButton, frame: Rect(x: 0, y: 0, width: 1, height: 1))) }
        }
        header.append(TextSpan(TerminalText.clean(card.header), style: .bold))
        if !card.age.isEmpty { header.append(TextSpan(" · " + TerminalText.clean(card.age), style: .dim)) }
        var parts: [any ViewElement] = [Label(spans: header)]
        if let content = card.defaultContent {
            if !content.title.isEmpty { parts.append(Label(content.title, style: .bold)) }
            if !content.subtitle.isEmpty { parts.append(Label(content.subtitle)) }
            if !content.body.isEmpty { parts.append(Paragraph(content.body, maxLines: compactBodyLines)) }
        }
        if !card.actions.isEmpty {
            let titles = card.actions.prefix(9).map { TerminalText.clean($0.title) }.joined(separator: " · ")
            parts.append(Label("[1-\(min(9, card.actions.count))] " + titles, style: .dim))
        }
        if let prompt = card.prompt { parts.append(Label(prompt + "▏", style: .bold)) }
        if let status = card.status { parts.append(Label(status, style: .dim)) }
        return Result(grid: VerticalStack(parts).render(width: width), map: CardMap(regions: regions))
    }

    /// How many lines of the body a card narrower than ``minimumWidth`` shows.
    static let compactBodyLines = 3
}
