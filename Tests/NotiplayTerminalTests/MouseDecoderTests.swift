import NotiplayTerminal
import Testing

/// Mouse reports and Shift-Tab in the key decoder: SGR and X10 reports read whole, in any split,
/// and nothing a terminal sends for the mouse ever read as Escape (dismiss) or as keys.
@Suite("Mouse reports and Shift-Tab")
struct MouseDecoderTests {
    private func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(Array(text.utf8)) + decoder.flush()
    }

    @Test("SGR reports: press and release of each button, wheel, motion, modifiers")
    func sgr() {
        #expect(keys("\u{1B}[<0;12;3M") == [.mouse(.click(column: 12, row: 3))])
        #expect(keys("\u{1B}[<0;12;3m") == [.mouse(MouseEvent(.release, button: 0, column: 12, row: 3))])
        #expect(keys("\u{1B}[<2;1;1M") == [.mouse(MouseEvent(.press, button: 2, column: 1, row: 1))])
        #expect(keys("\u{1B}[<1;300;200M") == [.mouse(MouseEvent(.press, button: 1, column: 300, row: 200))])
        #expect(keys("\u{1B}[<64;5;5M\u{1B}[<65;5;5M") == [
            .mouse(MouseEvent(.wheel, button: 0, column: 5, row: 5)), .mouse(MouseEvent(.wheel, button: 1, column: 5, row: 5)),
        ])
        #expect(keys("\u{1B}[<32;7;2M\u{1B}[<35;7;2M") == [
            .mouse(MouseEvent(.motion, button: 0, column: 7, row: 2)), .mouse(MouseEvent(.motion, button: -1, column: 7, row: 2)),
        ])
        #expect(keys("\u{1B}[<128;4;4M") == [.mouse(MouseEvent(.press, button: 7, column: 4, row: 4))])
        // Shift (4), Alt (8) and Ctrl (16) do not change what was pressed.
        #expect(keys("\u{1B}[<16;9;9M\u{1B}[<4;9;9M") == [.mouse(.click(column: 9, row: 9)), .mouse(.click(column: 9, row: 9))])
    }

    @Test("only a press of the left button is a click")
    func clicks() {
        let reports = keys("\u{1B}[<0;1;1M\u{1B}[<0;1;1m\u{1B}[<2;1;1M\u{1B}[<64;1;1M\u{1B}[<32;1;1M")
        #expect(reports.map { if case .mouse(let event) = $0 { event.isClick } else { false } } == [true, false, false, false, false])
    }

    @Test("reports among keys, in order; a report is never a key")
    func amongKeys() {
        #expect(keys("q\u{1B}[<0;2;3M1\u{1B}[<0;2;3md") == [
            .character("q"), .mouse(.click(column: 2, row: 3)), .character("1"),
            .mouse(MouseEvent(.release, button: 0, column: 2, row: 3)), .character("d"),
        ])
    }

    @Test("a report split across reads, at every byte, is one report")
    func split() {
        let text = Array("\u{1B}[<0;123;45M".utf8)
        for cut in 1..<text.count {
            var decoder = KeyDecoder()
            let first = decoder.decode(text[..<cut])
            #expect(first.isEmpty, "cut at \(cut)")
            #expect(decoder.isWaiting)
            #expect(decoder.decode(text[cut...]) == [.mouse(.click(column: 123, row: 45))], "cut at \(cut)")
        }
    }

    @Test("malformed SGR reports are swallowed whole: no key, no Escape", arguments: [
        "\u{1B}[<0;12M",  // two numbers
        "\u{1B}[<0;12;3;4M",  // four
        "\u{1B}[<;12;3M",  // an empty one
        "\u{1B}[<0;0;3M",  // column 0
        "\u{1B}[<0;12;0M",  // row 0
        "\u{1B}[<0;1234567;3M",  // too long
        "\u{1B}[<0:1;12;3M",  // a colon
        "\u{1B}[<0;12;3X",  // another final byte
        "\u{1B}[0;12;3M",  // no '<' (urxvt's form, not asked for)
    ])
    func malformed(_ text: String) {
        #expect(keys(text) == [])
    }

    @Test("a report cut short at the end of input is dropped, never Escape", arguments: [
        "\u{1B}[<", "\u{1B}[<0", "\u{1B}[<0;", "\u{1B}[<0;12", "\u{1B}[<0;12;", "\u{1B}[<0;12;3", "\u{1B}[M", "\u{1B}[M ",
        "\u{1B}[M !",
    ])
    func truncated(_ text: String) {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array(text.utf8)) == [])
        #expect(decoder.isWaiting, "held for more bytes")
        #expect(decoder.flush() == [], "dropped: no Escape, no characters")
        #expect(!decoder.isWaiting)
        #expect(decoder.decode(Array("q".utf8)) == [.character("q")], "the decoder reads on")
    }

    @Test("a report cut off by the next one is dropped; the next is read whole; no Escape")
    func interrupted() {
        #expect(keys("\u{1B}[<0;1\u{1B}[<0;2;3M") == [.mouse(.click(column: 2, row: 3))])
        #expect(keys("\u{1B}[<0;1\u{1B}") == [.escape], "an ESC typed after the broken report is still Escape")
    }

    @Test("X10 reports (a terminal without SGR reporting): three bytes after ESC [ M, taken whole")
    func x10() {
        // Button 0 at column 12, row 3: 32 + 0, 32 + 12, 32 + 3.
        #expect(keys("\u{1B}[M ,#") == [.mouse(.click(column: 12, row: 3))])
        // Release (3): the button is not said.
        #expect(keys("\u{1B}[M#,#q") == [.mouse(MouseEvent(.release, button: -1, column: 12, row: 3)), .character("q")])
        // Wheel up.
        #expect(keys("\u{1B}[M`!!") == [.mouse(MouseEvent(.wheel, button: 0, column: 1, row: 1))])
        // The bytes are never keys, even a space (the media button) or a digit (an action); a
        // report off the screen (row 0) is dropped whole.
        #expect(keys("\u{1B}[M 1!") == [.mouse(.click(column: 17, row: 1))])
        #expect(keys("\u{1B}[M 1 ") == [])
    }

    @Test("Shift-Tab is ESC [ Z; Tab is 0x09")
    func backTab() {
        #expect(keys("\u{1B}[Z\t") == [.backTab, .tab])
        #expect(Key.backTab.description == "shift-tab")
        #expect(Key.mouse(.click(column: 12, row: 3)).description == "mouse-press-0@12:3")
    }
}
