/// A part of a laid-out card that takes a click: what ``CardMap/target(column:row:)`` finds.
public enum CardTarget: Sendable, Hashable {
    /// The ✕ in the header: dismiss.
    case close
    /// The media button the runtime draws (▶, ⏸, or a dim ▶ over the content): its whole frame.
    case mediaButton
    /// An action button, numbered from 1 as its key.
    case action(Int)
    /// An extension's ``Button``, by its place (from 0) in ``CardMap/controls``: only on a card
    /// whose extension takes input (``CardModel/interactive``).
    case control(Int)
    /// The extension's view, anywhere else.
    case content
}

/// Where things are on a card laid out by ``CardLayout/layout(_:width:)``, in the card's cells
/// (column and row from 0, the card's top-left corner at the origin): the ✕, the media button,
/// the action buttons, the extension's buttons and its view.
public struct CardMap: Sendable, Hashable {
    /// A target and the cells it covers.
    public struct Region: Sendable, Hashable {
        /// What a click there reaches.
        public var target: CardTarget
        /// Its cells on the card.
        public var frame: Rect

        /// A region of `frame` reaching `target`.
        public init(target: CardTarget, frame: Rect) {
            self.target = target
            self.frame = frame
        }
    }

    /// The regions, the first over the others where they overlap: ✕, the media button, the
    /// extension's buttons (interactive cards only), the action buttons, then the view.
    public var regions: [Region]
    /// Every button the extension's view drew on the card, in the order it drew them, with its
    /// cells and action — listed whether or not the card takes input.
    public var controls: [Grid.Control]

    /// A map of `regions` and `controls`.
    public init(regions: [Region] = [], controls: [Grid.Control] = []) {
        self.regions = regions
        self.controls = controls
    }

    /// What a click on the cell at `column`, `row` reaches; `nil` for the frame, the default
    /// content, the footer and anything off the card.
    public func target(column: Int, row: Int) -> CardTarget? {
        regions.first { $0.frame.contains(column: column, row: row) }?.target
    }

    /// The cells of `target`; `nil` when the card does not show it.
    public func frame(of target: CardTarget) -> Rect? {
        regions.first { $0.target == target }?.frame
    }

    /// The cell a click on `target` is best aimed at: the middle of its frame (the glyph of the
    /// media button, the middle of a title); `nil` when the card does not show it.
    public func cell(of target: CardTarget) -> (column: Int, row: Int)? {
        frame(of: target).map(Self.middle)
    }

    /// The middle cell of `frame`.
    public static func middle(of frame: Rect) -> (column: Int, row: Int) {
        (frame.x + (frame.width - 1) / 2, frame.y + (frame.height - 1) / 2)
    }

    /// The targets Tab moves over, in order: the extension's buttons (interactive cards only),
    /// then the action buttons.
    public var focusOrder: [CardTarget] {
        let controlTargets = regions.compactMap { region -> CardTarget? in
            if case .control = region.target { region.target } else { nil }
        }
        let actionTargets = regions.compactMap { region -> CardTarget? in
            if case .action = region.target { region.target } else { nil }
        }
        return controlTargets + actionTargets
    }
}
