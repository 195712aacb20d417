import NotiplayCore
package import NotiplayViews

/// Clicks and the focus: what a click on the card reaches and where Tab goes, both read from the
/// card laid out ``PresentationSession/layoutWidth`` wide (`CardLayout`'s `CardMap`).
///
/// As on iOS, an extension's own controls take input only when its manifest sets
/// `UNNotificationExtensionUserInteractionEnabled`: then its ``Button``s take clicks, Tab and
/// Enter. Without it a click on one is a click on the content, and Tab passes them by. What the
/// system draws — the ✕, the media button, the action buttons — takes clicks either way.
extension PresentationSession {
    /// Whether the presenting extension takes input (its manifest's
    /// `UNNotificationExtensionUserInteractionEnabled`; never the default card).
    public var userInteractionEnabled: Bool { manifest?.userInteractionEnabled == true }

    /// Where the ✕, the media button, the actions, the extension's buttons and its view are on the
    /// card laid out ``layoutWidth`` wide.
    public func cardMap() -> CardMap {
        CardLayout.layout(card(), width: layoutWidth).map
    }

    /// The number of the text-input action `input` would choose — a click on it, Enter while it
    /// is focused, or its key — if that action takes text: a terminal then opens its prompt
    /// instead of handing the input over. `nil` for any other input.
    public func textInputAction(for input: Input) -> Int? {
        guard let number = input.chosenAction(focus: focus, map: cardMap()) else { return nil }
        guard actions.indices.contains(number - 1), actions[number - 1].isTextInput else { return nil }
        return number
    }

    /// Moves the focus `step` places along the focus order (the extension's buttons, when it
    /// takes input, then the actions), through "nothing focused" between the last and the first.
    func moveFocus(by step: Int) {
        let order = cardMap().focusOrder
        let before = focus
        if order.isEmpty {
            focus = nil
        } else {
            // Place 0 is "nothing"; the targets follow.
            let places = order.count + 1
            let place = focus.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            let next = ((place + step) % places + places) % places
            focus = next == 0 ? nil : order[next - 1]
        }
        if focus != before { onChange?() }
    }

    /// Does what a click on `target`, or Enter on it, does.
    func activate(_ target: CardTarget, on map: CardMap) {
        switch target {
        case .close:
            dismissByUser()
        case .mediaButton:
            presenter.pressButton()
        case .action(let number):
            guard presenter.actions.indices.contains(number - 1) else { return }
            respond(to: presenter.actions[number - 1], text: nil)
        case .control(let index):
            guard userInteractionEnabled, map.controls.indices.contains(index) else { return }
            let control = map.controls[index]
            log.record(.control(title: control.title))
            control.action()
        case .content:
            presenter.touchContent()
        }
    }
}

extension PresentationSession.Input {
    /// The number of the action this input chooses on a card focused on `focus` and laid out as
    /// `map`: its key, Enter while it is focused, or a click on it; `nil` for any other input.
    func chosenAction(focus: CardTarget?, map: CardMap) -> Int? {
        switch self {
        case .action(let n, nil):
            return n
        case .confirm:
            guard case .action(let n)? = focus, map.focusOrder.contains(.action(n)) else { return nil }
            return n
        case .click(let column, let row):
            guard case .action(let n)? = map.target(column: column, row: row) else { return nil }
            return n
        default:
            return nil
        }
    }
}
