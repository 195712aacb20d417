public import Foundation
public import NotiplayViews

// `frame`, as iOS's `UIView.frame`: in points, the same rule as `bounds` (one cell is 8 × 16
// points, ``PointsPerCell``).

extension ViewElement {
    /// Where the element sits in the element that holds it (the view, a ``Box``, a
    /// ``VerticalStack``), in points (iOS's `UIView.frame`).
    ///
    /// ```swift
    /// var title = Label(notification.request.content.title, style: .bold)
    /// title.frame = CGRect(x: 16, y: 32, width: view.frame.width - 32, height: 16)
    /// view.elements = [title, Label("in the flow, from the top")]
    /// ```
    ///
    /// By default an element has no frame (`.zero`) and is laid out in its container's flow, one
    /// element under the other. Setting a frame takes it out of the flow: it is drawn, at the
    /// frame's width, into the cells the frame covers (the origin rounded down to its cell, the
    /// far edge up), over whatever the flow drew there, and clipped to the container; the
    /// container grows to hold it. The frame reads back as it was set. An element of your own
    /// keeps a frame by declaring `var placement: PointFrame?`.
    public var frame: CGRect {
        get { placement.map(CGRect.init) ?? .zero }
        set { placement = PointFrame(newValue) }
    }
}

extension TerminalView {
    /// The view's rectangle in its superview (the card's content area), in points (iOS's
    /// `UIView.frame`): its origin there, and the size of its ``bounds``.
    ///
    /// The runtime lays the view out at the content area's origin, as wide as the card's content
    /// and as high as its rows, before ``TerminalViewController/viewDidLoad()``, when the card's
    /// width changes and when ``TerminalViewController/preferredContentSize`` changes — so
    /// `view.frame.width` is the width to lay elements out in. Setting it moves and resizes the
    /// view as on iOS (`bounds.size` follows) until the runtime lays it out again; the card's
    /// height follows ``TerminalViewController/preferredContentSize``, not the frame.
    public var frame: CGRect {
        get { CGRect(origin: origin, size: bounds.size) }
        set {
            origin = newValue.origin
            bounds.size = newValue.size
        }
    }
}
