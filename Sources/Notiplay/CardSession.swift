package import NotiplayCore
package import NotiplayViews
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// One card being presented, as a card driver, the center's deck and an attached viewer see it:
/// its picture, its input and its events. A ``PresentationSession`` is one, in this process; a
/// ``PresenterSession`` is one whose extension runs in a presenter process of its own, so that an
/// extension's crash costs its card and never the process that shows it.
@MainActor
package protocol CardSession: AnyObject {
    /// Everything that happened on the card, in order.
    var log: EventLog { get }
    /// Called when anything on the card may have changed.
    var onChange: (@MainActor () -> Void)? { get set }
    /// The width, in columns, the card is laid out at (see ``PresentationSession/layoutWidth``).
    var layoutWidth: Int { get set }
    /// Whether the extension last reported its media as playing.
    var isPlaying: Bool { get }
    /// Whether the card was closed.
    var isDismissed: Bool { get }
    /// Whether a response is waiting for its completion handler.
    var awaitsResponse: Bool { get }
    /// The titles of the card's action buttons, numbered from 1.
    var actionTitles: [String] { get }
    /// What the card shows now, for ``CardLayout``; its age measured to `now` (`nil`: the
    /// session's clock).
    func card(now: Date?, prompt: String?, status: String?) -> CardModel
    /// Where the card's parts are, laid out ``layoutWidth`` wide.
    func cardMap() -> CardMap
    /// The number of the text-input action `input` would choose, if it takes text.
    func textInputAction(for input: PresentationSession.Input) -> Int?
    /// Handles what a person did.
    func handle(_ input: PresentationSession.Input)
    /// Presents `notification`: a new card, or the same thread's card again.
    func present(_ notification: UNNotification) throws(NotiplayError)
    /// Makes the next card's media commands wait until `task` has ended.
    func mediaWaits(for task: Task<Void, Never>)
    /// The card ends: its media stops, its extension is let go.
    func close()
}

extension PresentationSession: CardSession {
    package var actionTitles: [String] { actions.map(\.title) }
}
