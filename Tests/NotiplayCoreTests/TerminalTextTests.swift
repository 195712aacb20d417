import Testing

@testable import NotiplayCore

@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("\u{1B}]52;c;ZXZpbA==\u{07}clip", "clip"),  // OSC 52 clipboard write
        ("\u{1B}]0;title\u{1B}\\after", "after"),  // window title, ST-terminated
        ("\u{1B}[2J\u{1B}[H\u{1B}[10;10Hmoved", "moved"),
        ("a\u{9B}31mb", "ab"),  // C1 CSI
        ("tab\tand\nline", "tab and line"),
        ("\u{202E}evil\u{202C}", "evil"),  // bidi override
        ("bell\u{07}del\u{7F}", "belldel"),
        ("\u{1B}Pdcs data\u{1B}\\ok", "ok"),
        ("emoji 🔊 and 漢字", "emoji 🔊 and 漢字"),
        ("\u{1B}", ""),
    ])
    func removesControlsAndEscapes(input: String, expected: String) {
        #expect(TerminalText.clean(input) == expected)
    }

    @Test func keepsNewlinesWhenAsked() {
        #expect(TerminalText.clean("a\nb\u{1B}[1m", keepNewlines: true) == "a\nb")
    }

    @Test(
        "For messages: what clean removes is shown as escapes, never raw",
        arguments: [
            ("plain text, é 🔊", "plain text, é 🔊"),
            ("\u{1B}[31m", #"\u{1B}[31m"#),
            ("\u{1B}]52;c;aGk=\u{07}", #"\u{1B}]52;c;aGk=\u{7}"#),
            ("a\u{9B}31mb", #"a\u{9B}31mb"#),
            ("tab\tline\nreturn\r", #"tab\tline\nreturn\r"#),
            ("\u{202E}evil", #"\u{202E}evil"#),
            ("del\u{7F}", #"del\u{7F}"#),
        ])
    func visible(input: String, expected: String) {
        let shown = TerminalText.visible(input)
        #expect(shown == expected)
        #expect(TerminalText.clean(shown) == shown)  // nothing left to remove
        #expect(TerminalText.visible(shown) == shown)
    }

    @Test func visibleKeepsNewlinesWhenAsked() {
        #expect(TerminalText.visible("a\nb\u{1B}", keepNewlines: true) == "a\nb\\u{1B}")
    }

    @Test("A key that is only an escape sequence is named visibly in the warning, not cleaned to nothing")
    func keyInDiagnostic() throws {
        let payload = try PayloadDecoder().decode(Array(#"{"aps": {"alert": "x", "\u001b[31m": 1}}"#.utf8))
        let warning = try #require(payload.warnings.first).description
        #expect(warning == #"aps.\u{1B}[31m: is not an APNs key and is ignored; put custom keys beside "aps", not in it"#)
        #expect(NotiplayError(.badData, file: "\u{1B}[2Jx.apns", "bad").description == #"\u{1B}[2Jx.apns: bad"#)
    }
}

@Suite struct EventLineTests {
    @Test func eventAndTimeComeFirstAndStringsAreEscaped() {
        let line = EventLine("error", t: 1.2345678, [("message", .string("bad \"x\"\n\u{1B}")), ("code", .integer(-17))])
        #expect(line.json == #"{"event":"error","t":1.234568,"message":"bad \"x\"\n\u001b","code":-17}"#)
    }

    @Test("Bidi controls, C1 controls and DEL are written as \\uXXXX, in strings and in others' JSON text")
    func bidiAndC1AreEscaped() throws {
        var s = ""
        JSONWriter.appendString("a\u{202E}b\u{2066}c\u{9B}d\u{7F}e\u{200F}", to: &s)
        #expect(s == #""a\u202eb\u2066c\u009bd\u007fe\u200f""#)
        // Pretty JSON written by someone else: its line breaks and tabs stay (they are between
        // tokens), what is inside its strings is escaped, and it reads back the same.
        let pretty = "{\n\t\"k\": \"x\u{202E}y\u{85}\",\r\n\t\"n\": 1\n}"
        let escaped = JSONWriter.escapingUnsafeScalars(pretty)
        #expect(escaped == "{\n\t\"k\": \"x\\u202ey\\u0085\",\r\n\t\"n\": 1\n}")
        #expect(try JSONParser.parse(Array(escaped.utf8)) == JSONParser.parse(Array(pretty.utf8)))
        #expect(JSONWriter.escapingUnsafeScalars("{\"plain\": \"é ü\"}") == "{\"plain\": \"é ü\"}")
    }

    @Test func numbers() {
        var s = ""
        JSONWriter.appendNumber(2, to: &s)
        s += " "
        JSONWriter.appendNumber(.nan, to: &s)
        s += " "
        JSONWriter.appendNumber(0.5, to: &s)
        #expect(s == "2 null 0.5")
    }

    @Test func clockIsMonotonic() {
        let clock = EventClock()
        var last = clock.seconds()
        for _ in 0..<1000 {
            let now = clock.seconds()
            #expect(now >= last)
            last = now
        }
    }
}
