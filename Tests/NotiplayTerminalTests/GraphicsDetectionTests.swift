import Glibc
import NotiplayTerminal
import NotiplayViews
import Testing

@Suite("Graphics detection: the terminal's replies decide, DA1's ends the wait")
struct GraphicsDetectionTests {
    static let da1 = "\u{1B}[?62;22c"
    static let da1Sixel = "\u{1B}[?62;4;22c"
    static let kittyOK = "\u{1B}_Gi=31;OK\u{1B}\\"
    static func version(_ name: String) -> String { "\u{1B}P>|\(name)\u{1B}\\" }

    @Test("Replies and what they mean", arguments: [
        (kittyOK + version("kitty(0.32.2)") + da1, GraphicsDetection.Verdict.found(.kitty)),
        (kittyOK + da1Sixel, .found(.kitty)),
        (version("iTerm2 3.5.0") + da1, .found(.iTerm2)),
        (version("WezTerm 20240203") + da1Sixel, .found(.iTerm2)),
        (version("XTerm(390)") + da1Sixel, .found(.sixel)),
        (da1Sixel, .found(.sixel)),
        (version("tmux 3.3a") + "\u{1B}[?1;2c", .found(nil)),
        (da1, .found(nil)),
        ("\u{1B}[?1;2;4c", .found(.sixel)),
        // Keys typed meanwhile, and other reports, are passed over.
        ("ab\u{1B}[A" + kittyOK + "\u{1B}[3;1R" + da1, .found(.kitty)),
        // A kitty reply after DA1 is too late: DA1 ended the wait.
        (da1 + kittyOK, .found(nil)),
    ] as [(String, GraphicsDetection.Verdict)])
    func verdicts(_ replies: String, _ verdict: GraphicsDetection.Verdict) {
        #expect(GraphicsDetection.verdict(Array(replies.utf8)) == verdict)
    }

    @Test("Before DA1's reply is whole, the answer is to wait", arguments: [
        "", kittyOK, kittyOK + "\u{1B}[?62;2", "\u{1B}_Gi=31;O", version("iTerm2"), "\u{1B}P>|iTe", "\u{1B}",
    ])
    func waiting(_ replies: String) {
        #expect(GraphicsDetection.verdict(Array(replies.utf8)) == .waiting)
    }

    @Test("A cell's size in pixels from the reply to CSI 16 t; none without it, or absurd", arguments: [
        ("\u{1B}[6;20;10t" + da1Sixel, Size(width: 10, height: 20)),
        ("\u{1B}[A" + "\u{1B}[6;17;8t", Size(width: 8, height: 17)),
        (da1Sixel, nil), ("\u{1B}[6;0;10t", nil), ("\u{1B}[6;20;99999t", nil), ("\u{1B}[4;480;640t", nil), ("\u{1B}[6;20;", nil),
    ] as [(String, Size?)])
    func cellPixels(_ replies: String, _ size: Size?) {
        #expect(GraphicsDetection.cellPixels(Array(replies.utf8)) == size)
    }

    @Test("The queries: kitty's graphics query, XTVERSION, the cell size, then DA1")
    func query() {
        #expect(String(decoding: GraphicsDetection.query, as: UTF8.self)
            == "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[>q\u{1B}[16t\u{1B}[c")
    }

    /// A terminal's two ends as pipes: what `ask` writes, and the replies it reads.
    static func ask(replies: String?) throws -> ((graphics: GraphicsProtocol?, cell: Size?), [UInt8]) {
        var toTerminal: [Int32] = [0, 0]
        var fromTerminal: [Int32] = [0, 0]
        try #require(pipe(&toTerminal) == 0 && pipe(&fromTerminal) == 0)
        defer {
            close(toTerminal[0])
            close(fromTerminal[0])
        }
        if let replies {
            let bytes = Array(replies.utf8)
            try #require(bytes.withUnsafeBytes { write(fromTerminal[1], $0.baseAddress, $0.count) } == bytes.count)
        }
        close(fromTerminal[1])  // no more: the end of the input, never a timeout
        // A hang guard long enough never to decide: the reply, or the end of the input, does.
        let found = GraphicsDetection.ask(input: fromTerminal[0], output: toTerminal[1], hangGuard: .seconds(60))
        close(toTerminal[1])
        var written: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(toTerminal[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            written += buffer[0..<count]
        }
        return (found, written)
    }

    @Test("ask writes the queries and stops at DA1's reply; the terminal's silence (its end) is none")
    func askOnPipes() throws {
        let (kitty, written) = try Self.ask(replies: Self.kittyOK + Self.version("kitty") + Self.da1 + "typed")
        #expect(kitty.graphics == .kitty && kitty.cell == nil)
        #expect(written == GraphicsDetection.query)
        let sixel = try Self.ask(replies: "\u{1B}[6;20;10t" + Self.da1Sixel).0
        #expect(sixel.graphics == .sixel && sixel.cell == Size(width: 10, height: 20))
        #expect(try Self.ask(replies: Self.kittyOK).0.graphics == nil)
        #expect(try Self.ask(replies: nil).0.graphics == nil)
    }
}
