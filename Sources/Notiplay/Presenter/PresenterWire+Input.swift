import NotiplayCore

extension PresentationSession.Input {
    /// The input as words, for a presenter process: its case, then its values.
    package var wire: [String] {
        switch self {
        case .media: ["media"]
        case .tapContent: ["tapContent"]
        case .action(let number, let text): ["action", String(number)] + (text.map { [$0] } ?? [])
        case .actionNamed(let identifier, let text): ["actionNamed", identifier] + (text.map { [$0] } ?? [])
        case .defaultAction: ["defaultAction"]
        case .dismiss: ["dismiss"]
        case .seek(let seconds): ["seek", String(seconds)]
        case .seekBy(let delta): ["seekBy", String(delta)]
        case .focusNext: ["focusNext"]
        case .focusPrevious: ["focusPrevious"]
        case .confirm: ["confirm"]
        case .click(let column, let row): ["click", String(column), String(row)]
        }
    }

    /// The input ``wire`` gave; `nil` for words that are not one.
    package init?(wire: [String]) {
        let value = { (index: Int) in wire.indices.contains(index) ? wire[index] : nil }
        switch wire.first {
        case "media": self = .media
        case "tapContent": self = .tapContent
        case "action":
            guard let number = value(1).flatMap({ Int($0) }) else { return nil }
            self = .action(number, text: value(2))
        case "actionNamed":
            guard let identifier = value(1) else { return nil }
            self = .actionNamed(identifier, text: value(2))
        case "defaultAction": self = .defaultAction
        case "dismiss": self = .dismiss
        case "seek":
            guard let seconds = value(1).flatMap({ Double($0) }) else { return nil }
            self = .seek(to: seconds)
        case "seekBy":
            guard let delta = value(1).flatMap({ Double($0) }) else { return nil }
            self = .seekBy(delta)
        case "focusNext": self = .focusNext
        case "focusPrevious": self = .focusPrevious
        case "confirm": self = .confirm
        case "click":
            guard let column = value(1).flatMap({ Int($0) }), let row = value(2).flatMap({ Int($0) }) else { return nil }
            self = .click(column: column, row: row)
        default: return nil
        }
    }
}
