import Notiplay
import NotiplayViews

/// Tab, Shift-Tab, Enter and clicks, on the card as ``NotificationTestHost/screen()`` shows it
/// (``NotificationTestHost/columns`` wide).
extension NotificationTestHost {
    /// Where ``click(_:)`` clicks: the middle of one of the card's buttons.
    public enum ClickTarget: Sendable, Equatable {
        /// The media button the runtime draws.
        case mediaButton
        /// The ✕ in the header.
        case close
        /// The action button with this identifier.
        case action(String)
        /// The extension's ``Button`` with this title.
        case button(String)
    }

    /// Presses Tab: the focus moves to the next button — the extension's, when its manifest sets
    /// `UNNotificationExtensionUserInteractionEnabled`, then the actions, then none.
    public func tab() { input(.focusNext) }

    /// Presses Shift-Tab: the focus moves to the previous button.
    public func shiftTab() { input(.focusPrevious) }

    /// Presses Enter: the focused button, or the default action when none is.
    public func enter() { input(.confirm) }

    /// Clicks the card's cell at `column`, `row`, from 1 as a terminal counts (the first row is the
    /// card's top edge, as ``screen()`` shows it).
    public func click(column: Int, row: Int) {
        input(.click(column: column - 1, row: row - 1))
    }

    /// Clicks the middle of `target`.
    /// - Throws: ``TestHostFailure`` when the card does not show it.
    public func click(_ target: ClickTarget) throws(TestHostFailure) {
        session.layoutWidth = columns
        let map = session.cardMap()
        let cell: (column: Int, row: Int)?
        switch target {
        case .mediaButton:
            cell = map.cell(of: .mediaButton)
            if cell == nil { throw failure("click media: the card shows no media button (\(buttonState.rawValue))") }
        case .close:
            cell = map.cell(of: .close)
            if cell == nil { throw failure("click close: the card shows no ✕ (narrower than \(CardLayout.minimumWidth) columns)") }
        case .action(let identifier):
            guard let index = session.actions.firstIndex(where: { $0.identifier == identifier }) else {
                let shown = actionIdentifiers.joined(separator: ",")
                throw failure("click action \(identifier): not on the card (actions: \(shown.isEmpty ? "none" : shown))")
            }
            cell = map.cell(of: .action(index + 1))
            if cell == nil { throw failure("click action \(identifier): its button is not drawn at \(columns) columns") }
        case .button(let title):
            guard let control = map.controls.first(where: { $0.title == title }) else {
                let shown = map.controls.map { "\"\($0.title)\"" }.joined(separator: ", ")
                throw failure("click button \"\(title)\": the extension shows no such button (buttons: \(shown.isEmpty ? "none" : shown))")
            }
            cell = CardMap.middle(of: control.frame)
        }
        if let cell { session.handle(.click(column: cell.column, row: cell.row)) }
    }

    private func input(_ input: PresentationSession.Input) {
        session.layoutWidth = columns
        session.handle(input)
    }
}
