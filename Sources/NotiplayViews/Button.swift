import NotiplayCore

/// A button in an extension's view: a title, drawn `[ Title ]`, and an action — what iOS's
/// `UIButton` with an `@IBAction` wired to it is.
///
/// ```swift
/// view.elements = [
///     Label("Water the plants"),
///     Button("Snooze 10 min", style: CellStyle(foreground: .yellow)) { [weak self] in self?.snooze() },
/// ]
/// ```
///
/// The action runs only when the extension's `Info.plist` sets
/// `UNNotificationExtensionUserInteractionEnabled`: then a person reaches the button with Tab and
/// Shift-Tab and activates it with Enter (the focused button is drawn in reverse video), or clicks
/// it. Without that key the button is drawn and takes no input, as on iOS. The runtime calls the
/// action on the main actor, in the card's scope, as it calls the extension's other methods: a
/// ``MediaPlayer`` made there plays through the card's engine lease.
///
/// Where the button lands on the card is known from the grid it draws into (``Grid/controls``);
/// a custom element that draws a button into its own grid with ``Grid/draw(_:row:column:)``
/// passes it on.
public struct Button: ViewElement {
    /// Where it sits in its container, in points; `nil`: in the flow.
    public var placement: PointFrame?
    /// The title (cleaned before it is drawn).
    public var title: String
    /// The title's style: its tint, bold, …
    public var style: CellStyle
    /// Where the button sits in the width.
    public var alignment: TextAlignment
    /// What a click or Enter does.
    public var action: @MainActor () -> Void

    /// A button titled `title` in `style` that runs `action` when activated.
    public init(
        _ title: String, style: CellStyle = .plain, alignment: TextAlignment = .leading,
        action: @escaping @MainActor () -> Void
    ) {
        self.title = title
        self.style = style
        self.alignment = alignment
        self.action = action
    }

    /// One row: `[ Title ]`, or `[Titl…]` when the width is short; its cells are the grid's one
    /// control.
    public func render(width: Int) -> Grid {
        var grid = Grid(width: width, height: 1)
        let name = TerminalText.clean(title)
        let natural = CellWidth.of(name) + 4
        let text =
            natural <= width
            ? "[ " + name + " ]"
            : width >= 3 ? "[" + TextLayout.truncate(name, width: width - 2) + "]" : TextLayout.truncate(name, width: width)
        let drawn = CellWidth.of(text)
        guard drawn > 0 else { return grid }
        let x =
            switch alignment {
            case .leading: 0
            case .center: max(0, (width - drawn) / 2)
            case .trailing: max(0, width - drawn)
            }
        grid.put(text, row: 0, column: x, style: style)
        grid.controls = [Grid.Control(frame: Rect(x: x, y: 0, width: drawn, height: 1), title: name, action: action)]
        return grid
    }
}
