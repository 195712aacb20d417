import NotiplayCore
import NotiplayFreedesktop
import NotiplayTestSupport
import Testing

@Suite struct BodyMarkupTests {
    @Test func plainTextStaysAsItIs() {
        let text = BodyMarkup.parse("Build done in 3 s")
        #expect(text.runs == [StyledRun("Build done in 3 s")])
        #expect(!text.isStyled)
    }

    @Test func keepsTheFourStyles() {
        let text = BodyMarkup.parse("<b>bold</b> <i>italic</i> <u>under</u> <a href=\"https://example.org\">link</a>")
        #expect(
            text.runs == [
                StyledRun("bold", bold: true), StyledRun(" "), StyledRun("italic", italic: true), StyledRun(" "),
                StyledRun("under", underline: true), StyledRun(" "), StyledRun("link", link: "https://example.org"),
            ])
        #expect(text.plainText == "bold italic under link")
    }

    @Test func nestedStylesCombine() {
        let text = BodyMarkup.parse("<b>a<i>b<u>c</u></i></b>d")
        #expect(
            text.runs == [
                StyledRun("a", bold: true), StyledRun("b", bold: true, italic: true),
                StyledRun("c", bold: true, italic: true, underline: true), StyledRun("d"),
            ])
    }

    @Test func misnestedTagsCloseWhatTheyName() {
        let text = BodyMarkup.parse("<b>x<i>y</b>z</i>w")
        #expect(text.runs == [StyledRun("x", bold: true), StyledRun("y", bold: true, italic: true), StyledRun("z", italic: true), StyledRun("w")])
    }

    @Test func tagsAreCaseInsensitive() {
        #expect(BodyMarkup.parse("<B>x</B>").runs == [StyledRun("x", bold: true)])
    }

    @Test func unclosedTagStylesToTheEnd() {
        let text = BodyMarkup.parse("start <b>bold to the end")
        #expect(text.runs == [StyledRun("start "), StyledRun("bold to the end", bold: true)])
    }

    @Test func strayClosingTagIsDropped() {
        #expect(BodyMarkup.parse("a</b>b</a></i>c").runs == [StyledRun("abc")])
    }

    @Test func linksNestAndFallBack() {
        let text = BodyMarkup.parse("<a href='outer'>o<a>inner</a>o</a><a>none</a>")
        #expect(text.runs == [StyledRun("oinnero", link: "outer"), StyledRun("none")])
    }

    @Test func quotedAttributesMayHoldBrackets() {
        let text = BodyMarkup.parse(#"<a title="1 > 0" href="https://x.org/?a=1&amp;b=2">go</a>!"#)
        #expect(text.runs == [StyledRun("go", link: "https://x.org/?a=1&b=2"), StyledRun("!")])
    }

    @Test func singleAndUnquotedAttributes() {
        #expect(BodyMarkup.parse("<a href='x y'>1</a>").runs == [StyledRun("1", link: "x y")])
        #expect(BodyMarkup.parse("<a href=plain>1</a>").runs == [StyledRun("1", link: "plain")])
    }

    @Test func unbalancedQuoteEndsAtTheFirstBracket() {
        let text = BodyMarkup.parse(#"<a href="oops>text</a> after"#)
        #expect(text.plainText == "text after")
        #expect(!text.plainText.contains("<"))
    }

    @Test func imagesAndOtherTagsAreStripped() {
        #expect(BodyMarkup.parse(#"see <img src="/tmp/x.png" alt="a picture"/> here"#).plainText == "see  here")
        #expect(BodyMarkup.parse("<span foreground='red'>red</span> <tt>mono</tt>").plainText == "red mono")
        #expect(BodyMarkup.parse("<p>para</p><div>div</div>").plainText == "paradiv")
    }

    @Test func scriptLikeTagsLeaveOnlyText() {
        let text = BodyMarkup.parse("<script>alert('x')</script><style>b{}</style><iframe src=x></iframe>ok")
        #expect(text.plainText == "alert('x')b{}ok")
        #expect(!text.isStyled)
    }

    @Test func commentsDoctypesAndInstructionsVanish() {
        #expect(BodyMarkup.parse("a<!-- b > c -->d<!DOCTYPE html>e<?xml version='1.0'?>f").plainText == "adef")
    }

    @Test func lineBreakTagAndNewlines() {
        #expect(BodyMarkup.parse("one<br>two<br/>three\r\nfour").plainText == "one\ntwo\nthree\nfour")
    }

    @Test func entitiesAreDecoded() {
        let text = BodyMarkup.parse("&amp; &lt;b&gt; &quot;q&quot; &apos;a&apos; &#233; &#xE9; &#X1F600;")
        #expect(text.plainText == "& <b> \"q\" 'a' é é 😀")
        #expect(!text.isStyled)
    }

    @Test func unknownAndBrokenEntitiesShowAsText() {
        #expect(BodyMarkup.parse("&nbsp; & x &#; &#xZZ; &amp").plainText == "&nbsp; & x &#; &#xZZ; &amp")
        #expect(BodyMarkup.parse("&#0; &#xD800; &#x110000;").plainText == "\u{FFFD} \u{FFFD} \u{FFFD}")
    }

    @Test func lessThanThatBeginsNoTagIsText() {
        #expect(BodyMarkup.parse("a < b, 1<2, <3 and <<").plainText == "a < b, 1<2, <3 and <<")
        #expect(BodyMarkup.parse("x <b never closed").plainText == "x <b never closed")
        #expect(BodyMarkup.parse("<b <i>y</i>").runs == [StyledRun("<b "), StyledRun("y", italic: true)])
    }

    @Test func escapeBytesNeverSurvive() {
        let raw = "\u{1B}[31mred\u{1B}[0m \u{1B}]0;title\u{07}<b>\u{9B}2Jbold</b>\u{7}\u{0}"
        let text = BodyMarkup.parse(raw)
        #expect(text.plainText == "red bold")
        #expect(text.runs.last == StyledRun("bold", bold: true))
    }

    @Test func escapesFromEntitiesNeverSurvive() {
        let text = BodyMarkup.parse("a&#27;[31mb&#x9B;2Jc&#7;d&#x202E;e&#10;f&#9;g")
        #expect(text.plainText == "a[31mb2Jcde\nf g")
    }

    @Test func textThatWouldReadAsATagLosesItsBracket() {
        #expect(BodyMarkup.parse("<b <i>x</i> y>").plainText == "b x y>")
        #expect(BodyMarkup.parse("<<b>x></b>").plainText == "x>")
        #expect(BodyMarkup.parse("a <b <i>c</i>").plainText == "a <b c")
        #expect(BodyMarkup.parse("&lt;b&gt; stays, as the client wrote it").plainText == "<b> stays, as the client wrote it")
    }

    @Test func controlsInHrefAreRemoved() {
        let text = BodyMarkup.parse("<a href=\"https://x.org/&#27;]8;;evil\">t</a>")
        #expect(text.runs.first?.link?.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } == true)
    }

    @Test func surroundingWhitespaceIsTrimmed() {
        #expect(BodyMarkup.parse("\n  <b> hi </b>\n\n").runs == [StyledRun("hi", bold: true)])
        #expect(BodyMarkup.parse("   ").runs.isEmpty)
        #expect(BodyMarkup.parse("").runs.isEmpty)
    }

    @Test func styledTextRoundTripsThroughJSON() {
        let text = BodyMarkup.parse("<b>a</b><i><a href='h'>b</a></i>c<u>d</u>")
        #expect(StyledText(json: text.jsonValue) == text)
        #expect(StyledText(json: .string("x")) == nil)
    }

    /// 10,000 random strings over the characters markup is made of: never a crash, never a
    /// control character, and never a tag in the output (entities aside, which are left out of
    /// the alphabet so that a decoded `&lt;` cannot pass for one).
    @Test func randomStringsNeverLeakTagsOrControls() {
        let pieces = [
            "<", ">", "/", "b", "i", "u", "a", "img", "script", " ", "=", "\"", "'", "href", "x", "<!--", "-->",
            "\n", "\u{1B}", "[", "]", "\u{7}", "\u{9B}", "\u{0}", "\r", "\t", "é", "😀", "\u{202E}", "!", "?", ";", "#",
        ]
        var random = SplitMix64(seed: 16)
        for _ in 0..<10_000 {
            let count = Int.random(in: 0...40, using: &random)
            let input = (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
            let text = BodyMarkup.parse(input)
            let shown = text.plainText + text.runs.compactMap(\.link).joined()
            #expect(!Self.hasControl(shown), "control in \(shown.debugDescription) from \(input.debugDescription)")
            #expect(!Self.hasTag(text.plainText), "tag in \(text.plainText.debugDescription) from \(input.debugDescription)")
        }
    }

    /// Whether `text` holds a C0 or C1 control other than a line break, or DEL.
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { s in
            (s.value < 0x20 && s != "\n") || (0x7F...0x9F).contains(s.value)
        }
    }

    /// Whether `text` holds `<` followed by a tag's start and a `>` before the next `<`.
    static func hasTag(_ text: String) -> Bool {
        let s = Array(text.unicodeScalars)
        for (i, c) in s.enumerated() where c == "<" && i + 1 < s.count {
            let next = s[i + 1]
            guard next.properties.isAlphabetic && next.isASCII || next == "/" || next == "!" || next == "?" else { continue }
            for later in s[(i + 1)...] {
                if later == "<" { break }
                if later == ">" { return true }
            }
        }
        return false
    }
}
