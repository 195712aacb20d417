import NotiplayCore
import NotiplayViews
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

extension PresentationSession {
    /// What the card shows now, for ``CardLayout``.
    ///
    /// - Parameters:
    ///   - now: The time the age is measured to; by default the configuration's
    ///     (``Configuration/now``).
    ///   - prompt: A text-input prompt being typed, shown under the actions.
    ///   - status: A notice shown dim at the bottom.
    public func card(now: Date? = nil, prompt: String? = nil, status: String? = nil) -> CardModel {
        guard let notification, let controller else { return CardModel(header: app.name) }
        let content = notification.request.content
        var header = app.name
        if manifest?.overridesDefaultTitle == true, let title = controller.title, !title.isEmpty { header = title }
        var card = CardModel(header: header, age: Self.age(from: notification.date, to: now ?? configuration.now()))
        card.view = controller.view.elements
        card.preferredRows = controller.preferredContentSize.rows
        card.contentSizeRatio = manifest?.initialContentSizeRatio
        if manifest?.defaultContentHidden != true {
            card.defaultContent = (content.title, content.subtitle, content.body)
        }
        card.actions = actions.map {
            CardModel.Action(title: $0.title, destructive: $0.options.contains(.destructive), textInput: $0.isTextInput)
        }
        switch buttonState {
        case .none: card.button = nil
        case .play: card.button = buttonType == .overlay ? .overlayPlay : .play
        case .pause: card.button = .pause
        case .hidden: card.button = .overlayHidden
        }
        card.buttonFrame = Rect(points: controller.mediaPlayPauseButtonFrame)
        card.buttonTint = controller.mediaPlayPauseButtonTintColor.terminalColor
        card.prompt = prompt
        card.status = status
        card.interactive = userInteractionEnabled
        card.focus = focus
        return card
    }

    /// "now", "5m", "2h", "3d".
    static func age(from date: Date, to now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "now"
        case ..<3_600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3_600)h"
        default: return "\(seconds / 86_400)d"
        }
    }
}
