public import NotiplayCore

/// A stretch of body text with one style: what a `Notify` body's markup comes to once parsed.
public struct StyledRun: Sendable, Hashable {
    /// The text, clean: no control characters, no escape sequences (line breaks are kept).
    public var text: String
    /// Inside `<b>`.
    public var bold: Bool
    /// Inside `<i>`.
    public var italic: Bool
    /// Inside `<u>`.
    public var underline: Bool
    /// Inside `<a href="…">`: the link's target, clean; `nil` outside a link.
    public var link: String?

    /// A run of text with the styles given.
    public init(_ text: String, bold: Bool = false, italic: Bool = false, underline: Bool = false, link: String? = nil) {
        self.text = text
        self.bold = bold
        self.italic = italic
        self.underline = underline
        self.link = link
    }

    /// Whether the run has any style at all (plain text otherwise).
    public var isStyled: Bool { bold || italic || underline || link != nil }

    /// Whether `other` has the same style (so the two may be one run).
    func hasSameStyle(as other: StyledRun) -> Bool {
        bold == other.bold && italic == other.italic && underline == other.underline && link == other.link
    }
}

/// Body text as styled runs: the visible text of a `Notify` body, with the styles its markup
/// asked for. Adjacent runs always differ in style, and no run is empty.
public struct StyledText: Sendable, Hashable {
    /// The runs, in order.
    public private(set) var runs: [StyledRun]

    /// Styled text of `runs`: empty runs are dropped, neighbours of one style merged.
    public init(_ runs: [StyledRun]) {
        self.runs = []
        for run in runs { append(run) }
    }

    /// Adds a run at the end (merged into the last one when it has the same style).
    mutating func append(_ run: StyledRun) {
        guard !run.text.isEmpty else { return }
        if let last = runs.indices.last, runs[last].hasSameStyle(as: run) {
            runs[last].text += run.text
        } else {
            runs.append(run)
        }
    }

    /// The visible text without its styles: the payload's `aps.alert.body`.
    public var plainText: String { runs.map(\.text).joined() }

    /// Whether any run is styled (when none is, the plain text says it all).
    public var isStyled: Bool { runs.contains { $0.isStyled } }

    /// The runs as the payload keeps them (`freedesktop.markup`): one object per run, `text`
    /// always, then `bold`, `italic`, `underline` (each `true` when set, left out otherwise) and
    /// `link` (when inside a link).
    public var jsonValue: JSONValue {
        .array(runs.map { run in
            var object = JSONObject([("text", .string(run.text))])
            if run.bold { object["bold"] = .bool(true) }
            if run.italic { object["italic"] = .bool(true) }
            if run.underline { object["underline"] = .bool(true) }
            if let link = run.link { object["link"] = .string(link) }
            return .object(object)
        })
    }

    /// Styled text read back from ``jsonValue``'s form; `nil` when `value` is not an array of
    /// run objects. Every text is cleaned again on the way in: a stored payload is input too.
    public init?(json value: JSONValue) {
        guard let items = value.arrayValue else { return nil }
        var runs: [StyledRun] = []
        for item in items {
            guard let object = item.objectValue, let text = object["text"]?.stringValue else { return nil }
            runs.append(
                StyledRun(
                    TerminalText.clean(text, keepNewlines: true), bold: object["bold"]?.boolValue == true,
                    italic: object["italic"]?.boolValue == true, underline: object["underline"]?.boolValue == true,
                    link: object["link"]?.stringValue.map { TerminalText.clean($0) }))
        }
        self.init(runs)
    }
}
