import NotiplayTerminal
import NotiplayViews
import Testing

@Suite("Key decoding")
struct KeyDecoderTests {
    private func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(bytes) + decoder.flush()
    }

    private func keys(_ text: String) -> [Key] { keys(Array(text.utf8)) }

    @Test("single bytes: printable, space, enter, tab, backspace, the control keys", arguments: [
        ([0x71], Key.character("q")), ([0x31], .character("1")), ([0x7E], .character("~")),
        ([0x20], .space), ([0x0D], .enter), ([0x0A], .enter), ([0x09], .tab),
        ([0x7F], .backspace), ([0x08], .backspace),
        ([0x03], .controlC), ([0x04], .controlD), ([0x1A], .controlZ),
        ([0x01], .control("a")), ([0x0C], .control("l")), ([0x00], .control("@")), ([0x1C], .control("\\")),
    ] as [([UInt8], Key)])
    func singleBytes(_ bytes: [UInt8], _ key: Key) {
        #expect(keys(bytes) == [key])
    }

    @Test("arrows in CSI and SS3 form, with modifiers")
    func arrows() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}[1;5C\u{1B}[1;2D") == [.right, .left])
    }

    @Test("UTF-8 characters of two, three and four bytes")
    func utf8() {
        #expect(keys("é日🔇a") == [.character("é"), .character("日"), .character("🔇"), .character("a")])
    }

    @Test("a lone ESC waits, then is Escape when flushed; ESC before a key is Escape and that key")
    func escape() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.isWaiting)
        #expect(keys("\u{1B}q") == [.escape, .character("q")])
        #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
        #expect(keys("\u{1B}\u{1B}") == [.escape, .escape])
        #expect(keys("\u{1B}O\u{3}") == [.escape, .character("O"), .controlC])
    }

    @Test("Alt+[ (ESC [ with nothing after it) and Alt+Shift+O (ESC O) are dropped, never Escape")
    func altBracket() {
        // Flushed after the pause, as the reader does when no more bytes come.
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[".utf8)) == [])
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [])
        #expect(!decoder.isWaiting)
        // The next key is read afresh; a lone ESC is still Escape.
        #expect(decoder.decode(Array("q\u{1B}".utf8)) == [.character("q")])
        #expect(decoder.flush() == [.escape])
        #expect(keys("\u{1B}[") == [])
        #expect(keys("\u{1B}O") == [])
        #expect(keys("a\u{1B}[") == [.character("a")])
        #expect(keys("\u{1B}\u{1B}[") == [.escape])  // Escape, then Alt+[
        // Longer sequences still decode, whole or split after their `ESC [`.
        #expect(keys("\u{1B}[A\u{1B}[<0;3;4M") == [.up, .mouse(.click(column: 3, row: 4))])
        var split = KeyDecoder()
        #expect(split.decode(Array("\u{1B}[".utf8)) == [])
        #expect(split.decode(Array("<0;3;4m\u{1B}[D".utf8)) == [.mouse(MouseEvent(.release, button: 0, column: 3, row: 4)), .left])
    }

    @Test("sequences and characters split across reads, at every byte")
    func split() {
        for text in ["\u{1B}[A", "\u{1B}OB", "\u{1B}[1;5C", "é", "日", "🔇", "\u{1B}[15~x"] {
            let whole = keys(text)
            var decoder = KeyDecoder()
            var got: [Key] = []
            for byte in text.utf8 { got += decoder.decode([byte]) }
            #expect(got == whole, "\(Array(text.utf8))")
            #expect(!decoder.isWaiting)
            #expect(decoder.flush() == [])
        }
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x61, 0x1B, 0x5B]) == [.character("a")])
        #expect(decoder.isWaiting)
        #expect(decoder.decode([0x42, 0x62]) == [.down, .character("b")])
    }

    @Test("unknown sequences are swallowed whole, never leaked as characters")
    func garbage() {
        #expect(keys("\u{1B}[15~") == [])  // F5
        #expect(keys("\u{1B}[3~\u{1B}[H\u{1B}[F") == [])  // Delete, Home, End
        #expect(keys("\u{1B}OP\u{1B}OS") == [])  // F1, F4
        #expect(keys("\u{1B}[?1;2c") == [])  // a device attributes report
        #expect(keys("\u{1B}[1;5P") == [])
        #expect(keys("\u{1B}[200~hi\u{1B}[201~") == [.character("h"), .character("i")])  // paste marks
        #expect(keys("\u{1B}[12\u{1B}[A") == [.up])  // a broken sequence, then a good one
        #expect(keys("\u{1B}[1;2") == [])  // cut short at the end of input
    }

    @Test("invalid UTF-8 and C1 controls are dropped")
    func invalidUTF8() {
        #expect(keys([0xFF, 0x61]) == [.character("a")])
        #expect(keys([0xC3, 0x28]) == [.character("(")])  // a lead byte without its continuation
        #expect(keys([0x80, 0xBF, 0x62]) == [.character("b")])  // lone continuation bytes
        #expect(keys([0xC2, 0x85]) == [])  // NEL, a C1 control
        #expect(keys([0xE0, 0x80, 0x80]) == [])  // overlong
        #expect(keys([0xED, 0xA0, 0x80]) == [])  // a surrogate
        #expect(keys([0xE6, 0x97]) == [])  // cut short at the end of input
    }

    @Test("CR LF is one Enter; CR CR is two")
    func enter() {
        #expect(keys("\r\n") == [.enter])
        #expect(keys("\r\r") == [.enter, .enter])
        #expect(keys("\n\n") == [.enter, .enter])
    }

    @Test("keys have readable names")
    func names() {
        #expect(Key.controlC.description == "ctrl-c")
        #expect(Key.control("a").description == "ctrl-a")
        #expect(Key.character("日").description == "日")
        #expect(Key.up.description == "up")
    }
}
