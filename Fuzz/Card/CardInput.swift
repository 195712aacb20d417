import FuzzSupport
import NotiplayViews

/// The card an input describes, and how it is drawn.
///
/// Settings (one byte each): the width (1–120 columns; under 30 the compact card), the colour
/// mode, glyph set and flags, the view's size, the media button and focus, and two styles. Then
/// text fields, each raw as an extension or a payload could give it: header, age, title,
/// subtitle, body, three action titles, prompt, status, a label, a paragraph, a box title, a
/// button title, a progress label, two styled spans, text written cell by cell (a custom element
/// that bypasses `Grid.put`), and the second frame's age, title and cell text.
struct CardInput {
    var width: Int
    var mode: ColorMode
    var glyphs: GlyphSet
    var first: CardModel
    var second: CardModel

    init(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        width = 1 + Int(input.byte()) % 120
        let flags = input.byte()
        mode = ColorMode.allCases[Int(flags & 3)]
        glyphs = flags & 4 != 0 ? .ascii : .unicode
        let size = input.byte()
        let buttonAndFocus = input.byte()
        let styleA = Self.style(input.byte(), input.byte())
        let styleB = Self.style(input.byte(), input.byte())
        let texts = (0..<22).map { _ in input.field() }

        var card = CardModel(header: texts[0], age: texts[1])
        if flags & 8 != 0 { card.defaultContent = (texts[2], texts[3], texts[4]) }
        card.actions = [texts[5], texts[6], texts[7]].enumerated().filter { !$0.element.isEmpty }.map { index, title in
            CardModel.Action(title: title, destructive: index == 0 && flags & 16 != 0, textInput: index == 2)
        }
        if !texts[8].isEmpty { card.prompt = texts[8] }
        if !texts[9].isEmpty { card.status = texts[9] }
        card.interactive = flags & 32 != 0
        switch flags >> 6 {
        case 1: card.contentSizeRatio = Double(size) / 64
        case 2: card.preferredRows = Int(size % 24)
        case 3: card.contentSizeRatio = size & 1 == 0 ? .infinity : -Double(size)
        default: break
        }
        card.view = [
            Label(spans: [TextSpan(texts[10], style: styleA), TextSpan(texts[16], style: styleB)]),
            Paragraph(texts[11], style: styleB, maxLines: Int(size % 8)),
            Box(title: texts[12], style: styleA, [Button(texts[13], style: styleB) {}]),
            ProgressBar(value: Double(size) / 200, style: styleA, label: texts[14]),
            StyledParagraph(spans: [TextSpan(texts[15], style: styleA), TextSpan(texts[16], style: styleB)], maxLines: 3),
            RawCells(text: texts[17], style: styleB),
        ]
        let buttons: [CardModel.Button?] = [nil, .play, .pause, .overlayPlay, .overlayHidden]
        card.button = buttons[Int(buttonAndFocus % 5)]
        card.buttonFrame = Rect(x: Int(size % 5), y: 0, width: Int(size % 7), height: 1 + Int(size % 3))
        card.buttonTint = styleA.foreground
        let focuses: [CardTarget?] = [nil, .close, .mediaButton, .action(1), .action(3), .control(0), .content]
        card.focus = focuses[Int(buttonAndFocus / 5) % focuses.count]
        first = card

        // The next frame: what changes while a card is up (the age, the button, the focus, a
        // title, what an extension draws).
        card.age = texts[18]
        card.button = card.button == .play ? .pause : card.button == .pause ? .play : card.button
        card.focus = focuses[Int(buttonAndFocus / 35) % focuses.count]
        if card.defaultContent != nil { card.defaultContent?.title = texts[19] }
        card.view[5] = RawCells(text: texts[20], style: styleA)
        card.view[3] = ProgressBar(value: Double(size) / 100, style: styleA, label: texts[21])
        second = card
    }

    /// A style from two bytes: attributes from the first, a colour (of each kind) from both.
    static func style(_ a: UInt8, _ b: UInt8) -> CellStyle {
        let colors: [TerminalColor] = [.standard, .ansi(b), .palette(b), .rgb(b, a, b &* 3)]
        return CellStyle(
            foreground: colors[Int(a & 3)], background: colors[Int((a >> 2) & 3)], bold: a & 16 != 0, dim: a & 32 != 0,
            italic: a & 64 != 0, underline: a & 128 != 0, reverse: b & 1 != 0)
    }
}

/// An element that writes its text's characters straight into cells, one per cell, as a custom
/// element could: control characters and all (the renderer must keep them off the terminal).
struct RawCells: ViewElement {
    var text: String
    var style: CellStyle

    func render(width: Int) -> Grid {
        var grid = Grid(width: width, height: 1)
        for (x, character) in text.prefix(max(0, width)).enumerated() {
            grid[0, x] = Cell(character, style: style)
        }
        return grid
    }
}
