package import NotiplayCore
package import NotiplayFreedesktop
package import NotiplayViews

/// What the freedesktop card shows under its sound rows, as view elements: the title in bold,
/// the body with its styles, wrapped, and the `image-path` as one dim line. Pure.
///
/// - `<b>` is bold, `<i>` italic, `<u>` underlined; a link's text is underlined in the tint
///   colour, its target shown dim after it in parentheses — unless the text is the target.
/// - Every text is cleaned again as it is drawn (``Label`` and ``StyledParagraph`` do it): a
///   stored payload is input too.
package enum FreedesktopCardContent {
    /// The most body lines, as on the default card.
    package static let maximumBodyLines = CardLayout.maximumBodyLines
    /// The style of a link's text.
    package static let linkStyle = CellStyle(foreground: .systemTint, underline: true)

    /// The elements for a notification of `content` whose payload carried `extras`.
    package static func elements(_ content: UNNotificationContent, extras: FreedesktopExtras) -> [any ViewElement] {
        var elements = heading(content)
        let spans = extras.markup.map(spans(of:)) ?? [TextSpan(content.body)]
        if spans.contains(where: { !$0.text.isEmpty }) {
            elements.append(StyledParagraph(spans: spans, maxLines: maximumBodyLines))
        }
        if let image = extras.image, !image.isEmpty {
            elements.append(Label("image: " + image, style: .dim))
        }
        return elements
    }

    /// The default card's content in the view, for a notification without a `freedesktop`
    /// object: the title in bold, the subtitle, the body.
    package static func plainElements(_ content: UNNotificationContent) -> [any ViewElement] {
        var elements = heading(content)
        if !content.body.isEmpty { elements.append(Paragraph(content.body, maxLines: maximumBodyLines)) }
        return elements
    }

    /// The title (bold) and subtitle, each when not empty.
    private static func heading(_ content: UNNotificationContent) -> [any ViewElement] {
        var elements: [any ViewElement] = []
        if !content.title.isEmpty { elements.append(Label(content.title, style: .bold)) }
        if !content.subtitle.isEmpty { elements.append(Label(content.subtitle)) }
        return elements
    }

    /// The body's runs as spans, each in its style; a link's target after its last run.
    package static func spans(of text: StyledText) -> [TextSpan] {
        var spans: [TextSpan] = []
        var linkText = ""
        for (index, run) in text.runs.enumerated() {
            spans.append(TextSpan(run.text, style: style(of: run)))
            guard let link = run.link else { continue }
            linkText += run.text
            let next = text.runs.index(after: index)
            guard next == text.runs.endIndex || text.runs[next].link != link else { continue }
            if trimmed(linkText) != link {
                spans.append(TextSpan(" (" + link + ")", style: .dim))
            }
            linkText = ""
        }
        return spans
    }

    /// `text` without white space at either end.
    private static func trimmed(_ text: String) -> Substring {
        let start = text.drop { $0.isWhitespace }
        return start.dropLast(start.reversed().prefix { $0.isWhitespace }.count)
    }

    /// A run's cell style: bold, italic, underlined, and a link underlined in the tint colour.
    package static func style(of run: StyledRun) -> CellStyle {
        var style = run.link == nil ? CellStyle.plain : linkStyle
        style.bold = run.bold
        style.italic = run.italic
        style.underline = style.underline || run.underline
        return style
    }
}
