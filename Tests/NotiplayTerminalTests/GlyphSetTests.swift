import NotiplayTerminal
import NotiplayViews
import Testing

@Suite("Glyph sets: Unicode or ASCII by locale")
struct GlyphSetTests {
    @Test("the locale as C finds it: LC_ALL, then LC_CTYPE, then LANG, the first non-empty", arguments: [
        (["LANG": "en_US.UTF-8"], true),
        (["LANG": "de_DE.utf8"], true),
        (["LC_CTYPE": "C.UTF-8"], true),
        (["LC_ALL": "fr_FR.Utf-8", "LANG": "C"], true),
        (["LC_ALL": "C", "LANG": "en_US.UTF-8"], false),
        (["LC_ALL": "", "LC_CTYPE": "", "LANG": "en_GB.UTF-8"], true),
        (["LC_CTYPE": "POSIX", "LANG": "en_US.UTF-8"], false),
        (["LANG": "C"], false),
        (["LANG": "POSIX"], false),
        (["LANG": "de_DE.ISO-8859-1"], false),
        ([:], false),
    ])
    func detect(_ environment: [String: String], _ unicode: Bool) {
        #expect(GlyphSet.detect(environment: environment) == (unicode ? .unicode : .ascii))
    }

    @Test("the members: one column each in Unicode, plain ASCII in the fallback")
    func members() {
        let u = GlyphSet.unicode
        let a = GlyphSet.ascii
        #expect([u.play, u.pause, u.close, u.ellipsis] == ["▶", "⏸", "✕", "…"])
        #expect([a.play, a.pause, a.close, a.ellipsis] == [">", "||", "x", "..."])
        #expect([u.horizontal, u.vertical, u.topLeft, u.topRight, u.bottomLeft, u.bottomRight] == ["─", "│", "┌", "┐", "└", "┘"])
        #expect([a.horizontal, a.vertical, a.topLeft, a.topRight, a.bottomLeft, a.bottomRight] == ["-", "|", "+", "+", "+", "+"])
        #expect([u.progressFull, u.progressEmpty, a.progressFull, a.progressEmpty] == ["█", "░", "#", "-"])
        let unicodeMembers = [u.play, u.pause, u.close, u.ellipsis, u.horizontal, u.vertical, u.topLeft, u.topRight,
                              u.bottomLeft, u.bottomRight, u.progressFull, u.progressEmpty]
        #expect(unicodeMembers.allSatisfy { CellWidth.of($0) == 1 })
        let asciiMembers = [a.play, a.pause, a.close, a.ellipsis, a.horizontal, a.vertical, a.topLeft, a.topRight,
                            a.bottomLeft, a.bottomRight, a.progressFull, a.progressEmpty]
        #expect(asciiMembers.allSatisfy { $0.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 } })
    }

    @Test("ASCII-safe text: look-alikes, ? for the rest, the same columns", arguments: [
        ("plain text", "plain text"),
        ("José Müller", "Jose Muller"),
        ("e\u{301}te\u{301}", "ete"),
        ("▶ 0:01 ─│┌┐└┘ █░", "> 0:01 -|++++ #-"),
        ("“quoted” — ok…", "\"quoted\" - ok."),
        ("日本", "????"),
        ("🔇 mute", "?? mute"),
        ("ab\u{7}c", "abc"),
        ("Ωμέγα", "?????"),
    ])
    func asciiSafe(_ text: String, _ expected: String) {
        let safe = GlyphSet.asciiSafe(text)
        #expect(safe == expected)
        #expect(CellWidth.of(safe) == CellWidth.of(text))
        #expect(safe.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F })
        #expect(GlyphSet.ascii.safe(text) == expected)
        #expect(GlyphSet.unicode.safe(text) == text)
    }
}
