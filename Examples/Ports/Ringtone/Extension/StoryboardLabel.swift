import Notiplay

/// A label of the extension's storyboard, drawn as one line of the view: setting ``text`` puts it
/// on its line, as a `UILabel` outlet's `text` does on iOS.
@MainActor
final class StoryboardLabel {
    private let view: TerminalView
    private let line: Int
    private let style: CellStyle

    /// The label on line `line` (from 0) of `view`, drawn in `style`.
    init(_ view: TerminalView, line: Int, style: CellStyle = CellStyle()) {
        self.view = view
        self.line = line
        self.style = style
    }

    /// The label's text; `nil` leaves its line blank.
    var text: String? {
        didSet {
            var elements = view.elements
            while elements.count <= line { elements.append(Label("")) }
            elements[line] = Label(text ?? "", style: style)
            view.elements = elements
        }
    }
}
