import NotiplayCore
package import NotiplayViews

/// What the server asks of a presenter process, one JSON object per frame
/// (``PresenterChannel``): present a card's notifications, hand it input, lay it out at a width,
/// close it. Every request is answered with a ``PresenterReply`` whose `ack` is its `seq`, after
/// the events and the card it caused.
package struct PresenterRequest: Codable, Sendable {
    /// What is asked.
    package enum Kind: String, Codable, Sendable {
        case present, input, width, close
    }

    /// The request's number, answered by the reply's `ack`.
    package var seq: Int
    /// What is asked.
    package var kind: Kind
    /// `present`: the app whose extension presents.
    package var app: String?
    /// `present`: the notifications, the card's first one first.
    package var notifications: [WireNotification]?
    /// `input`: what a person did (``PresentationSession/Input/wire``).
    package var input: [String]?
    /// `width`: the columns the card is laid out at.
    package var width: Int?

    package init(seq: Int, kind: Kind) {
        self.seq = seq
        self.kind = kind
    }
}

/// A notification as it crosses to a presenter: its stored payload, decoded there as the
/// center decodes it.
package struct WireNotification: Codable, Sendable {
    /// Its identifier.
    package var identifier: String
    /// Its payload's JSON text.
    package var payload: String
    /// When it was delivered (seconds since 1970).
    package var date: Double
    /// Its stored attachment files: path and identifier.
    package var attachments: [[String]]

    package init(identifier: String, payload: String, date: Double, attachments: [[String]]) {
        self.identifier = identifier
        self.payload = payload
        self.date = date
        self.attachments = attachments
    }
}

/// What a presenter tells the server: events recorded on its card, the card as it is now, and
/// which request it has finished.
package struct PresenterReply: Codable, Sendable {
    /// The request finished, when this reply ends one.
    package var ack: Int?
    /// Events, in order: a name and its fields.
    package var events: [WireEvent]?
    /// The card now.
    package var card: WireCard?

    package init(ack: Int? = nil, events: [WireEvent]? = nil, card: WireCard? = nil) {
        self.ack = ack
        self.events = events
        self.card = card
    }
}

/// An event's line without its time (the server's log times it).
package struct WireEvent: Codable, Sendable {
    package var name: String
    /// Each field: its key, then its value as `s` (string), `n` (number), `i` (integer), `b`
    /// (bool), or nothing (null).
    package var fields: [WireField]

    package struct WireField: Codable, Sendable {
        package var key: String
        package var s: String?
        package var n: Double?
        package var i: Int?
        package var b: Bool?
    }

    package init(_ event: PresentationEvent) {
        name = event.name
        fields = event.fields.map { key, value in
            var field = WireField(key: key)
            switch value {
            case .string(let text): field.s = text
            case .number(let number): field.n = number
            case .integer(let integer): field.i = integer
            case .bool(let flag): field.b = flag
            case .null: break
            }
            return field
        }
    }

    /// The event it carries; `nil` for one this runtime does not know.
    package var event: PresentationEvent? {
        let scalars: [(String, JSONScalar)] = fields.map { field in
            if let text = field.s { return (field.key, .string(text)) }
            if let integer = field.i { return (field.key, .integer(integer)) }
            if let number = field.n { return (field.key, .number(number)) }
            if let flag = field.b { return (field.key, .bool(flag)) }
            return (field.key, .null)
        }
        return PresentationEvent(name: name, fields: scalars)
    }
}

/// A card as a presenter drew it: everything ``CardModel`` holds, with the extension's view as
/// cells (``WireGrid``), and the session's state.
package struct WireCard: Codable, Sendable {
    package var header: String
    /// When its notification was delivered (seconds since 1970); `nil`: no notification.
    package var date: Double?
    package var view: WireGrid
    package var preferredRows: Int
    package var contentSizeRatio: Double?
    /// Title, subtitle, body.
    package var defaultContent: [String]?
    /// Each action: title, then "d" (destructive) and "t" (text input) flags.
    package var actions: [[String]]
    /// The media button's case name.
    package var button: String?
    package var buttonFrame: [Int]
    package var buttonTint: [Int]
    package var interactive: Bool
    /// The focus, as ``CardTarget/wire``.
    package var focus: [Int]?
    package var isPlaying: Bool
    package var isDismissed: Bool
    package var awaitsResponse: Bool
    /// The presenting extension's name; `nil` for the default card.
    package var extensionName: String?
}

/// A grid of cells, as generic as ``Grid``: each cell's text (empty for the right half of a
/// wide character) and its style, by index into `styles`, and the buttons drawn on it. Whatever
/// a view element draws into a grid crosses this way.
package struct WireGrid: Codable, Sendable {
    package var width: Int
    package var height: Int
    package var text: [String]
    package var style: [Int]
    /// Each style: foreground, background (``TerminalColor/wire``), then the attributes' bits.
    package var styles: [[[Int]]]
    /// Each button: x, y, width, height, and its title.
    package var controls: [WireControl]
    /// The pictures drawn into the grid (an image element's), when they changed since the last
    /// grid sent; `nil`: the same as then (an image is sent once, not with every frame).
    package var pictures: [Picture]?

    package struct WireControl: Codable, Sendable {
        package var frame: [Int]
        package var title: String
    }

    package init(_ grid: Grid) {
        width = grid.width
        height = grid.height
        var table: [CellStyle: Int] = [:]
        var styles: [[[Int]]] = []
        text = []
        style = []
        text.reserveCapacity(grid.cells.count)
        style.reserveCapacity(grid.cells.count)
        for cell in grid.cells {
            text.append(cell.character.map(String.init) ?? "")
            if let index = table[cell.style] {
                style.append(index)
            } else {
                table[cell.style] = styles.count
                style.append(styles.count)
                styles.append(cell.style.wire)
            }
        }
        self.styles = styles
        controls = grid.controls.map { WireControl(frame: $0.frame.wire, title: $0.title) }
        pictures = grid.pictures
    }

    /// The grid, with `pictures` when this one did not carry its own; its buttons' actions are
    /// `activate(index)`.
    package func grid(pictures earlier: [Picture] = [], activate: @escaping @MainActor (Int) -> Void) -> Grid {
        var grid = Grid(width: max(0, width), height: max(0, height))
        let decoded = styles.map(CellStyle.init(wire:))
        for row in 0..<grid.height {
            for column in 0..<grid.width {
                let index = row * width + column
                guard index < text.count else { continue }
                let cellStyle = index < style.count && decoded.indices.contains(style[index]) ? decoded[style[index]] : .plain
                if let character = text[index].first {
                    grid[row, column] = Cell(character, style: cellStyle)
                } else {
                    grid[row, column] = .continuation(cellStyle)
                }
            }
        }
        grid.controls = controls.enumerated().map { index, control in
            Grid.Control(frame: Rect(wire: control.frame), title: control.title) { activate(index) }
        }
        grid.pictures = pictures ?? earlier
        return grid
    }
}

extension Rect {
    package var wire: [Int] { [x, y, width, height] }
    package init(wire: [Int]) {
        let at = { (index: Int) in wire.indices.contains(index) ? wire[index] : 0 }
        self.init(x: at(0), y: at(1), width: at(2), height: at(3))
    }
}

extension TerminalColor {
    /// `[]` the terminal's own, `[0, n]` ANSI, `[1, n]` palette, `[2, r, g, b]` true colour.
    package var wire: [Int] {
        switch self {
        case .standard: []
        case .ansi(let n): [0, Int(n)]
        case .palette(let n): [1, Int(n)]
        case .rgb(let r, let g, let b): [2, Int(r), Int(g), Int(b)]
        }
    }

    package init(wire: [Int]) {
        let byte = { (index: Int) in UInt8(clamping: wire.indices.contains(index) ? wire[index] : 0) }
        switch wire.first {
        case 0: self = .ansi(byte(1))
        case 1: self = .palette(byte(1))
        case 2: self = .rgb(byte(1), byte(2), byte(3))
        default: self = .standard
        }
    }
}

extension CellStyle {
    /// Foreground, background, and the attributes as bits (bold 1, dim 2, italic 4, underline 8,
    /// reverse 16).
    package var wire: [[Int]] {
        let bits = (bold ? 1 : 0) | (dim ? 2 : 0) | (italic ? 4 : 0) | (underline ? 8 : 0) | (reverse ? 16 : 0)
        return [foreground.wire, background.wire, [bits]]
    }

    package init(wire: [[Int]]) {
        let bits = wire.count > 2 ? wire[2].first ?? 0 : 0
        self.init(
            foreground: TerminalColor(wire: wire.first ?? []), background: TerminalColor(wire: wire.count > 1 ? wire[1] : []),
            bold: bits & 1 != 0, dim: bits & 2 != 0, italic: bits & 4 != 0, underline: bits & 8 != 0, reverse: bits & 16 != 0)
    }
}

extension CardTarget {
    /// `[0]` ✕, `[1]` media button, `[2, n]` action n, `[3, i]` control i, `[4]` content.
    package var wire: [Int] {
        switch self {
        case .close: [0]
        case .mediaButton: [1]
        case .action(let n): [2, n]
        case .control(let i): [3, i]
        case .content: [4]
        }
    }

    package init?(wire: [Int]) {
        let value = wire.count > 1 ? wire[1] : 0
        switch wire.first {
        case 0: self = .close
        case 1: self = .mediaButton
        case 2: self = .action(value)
        case 3: self = .control(value)
        case 4: self = .content
        default: return nil
        }
    }
}
