import NotiplayTestSupport
import Testing

@testable import NotiplayScript


/// Checks what `parse` says about `text`: an error points inside the text and its message is
/// clean; a script holds only values the language allows. Returns whether it parsed.
@discardableResult
func checkParse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let lines = ScriptLexer.lines(of: text)
    do {
        let script = try ScriptParser.parse(text, path: "/fuzz/case.playback")
        for step in script.steps {
            let line = lines.first { $0.number == step.line }
            #expect(line != nil && step.column >= 1 && step.column <= (line?.scalars.count ?? 0), sourceLocation: sourceLocation)
            checkValues(step.kind, sourceLocation: sourceLocation)
        }
        let deliversOrServes = script.steps.contains {
            switch $0.kind {
            case .deliver, .serve: true
            default: false
            }
        }
        #expect(deliversOrServes, sourceLocation: sourceLocation)
        return true
    } catch {
        if error.line == 0 {
            #expect(error.column == 0, "\(error)", sourceLocation: sourceLocation)
        } else {
            let line = lines.first { $0.number == error.line }
            #expect(line != nil, "\(error)", sourceLocation: sourceLocation)
            #expect(
                error.column >= 1 && error.column <= (line?.scalars.count ?? 0) + 1, "\(error)", sourceLocation: sourceLocation)
        }
        #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        let dirty = error.message.unicodeScalars.contains {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                || (0x2066...0x2069).contains($0.value)
        }
        #expect(!dirty, "\(error)", sourceLocation: sourceLocation)
        return false
    }
}

func checkValues(_ kind: ScriptStep.Kind, sourceLocation: SourceLocation) {
    let hour = Duration.seconds(3600)
    func duration(_ d: Duration) { #expect(d >= .zero && d <= hour, sourceLocation: sourceLocation) }
    func centerDuration(_ d: Duration) {
        #expect(d > .zero && d <= .seconds(3650 * 86_400), sourceLocation: sourceLocation)
    }
    func path(_ p: String) { #expect(p.hasPrefix("/") && !p.contains("/./") && !p.contains("//"), sourceLocation: sourceLocation) }
    switch kind {
    case .app(let p): path(p)
    case .extensions(let p): path(p)
    case .deliver(let p, let attachments): path(p); attachments.forEach(path)
    case .wait(let d), .seek(let d), .expectPosition(let d), .expectHeard(_, let d): duration(d)
    case .waitUntil(let event, let timeout):
        #expect(ScriptParser.eventNames.contains(event), sourceLocation: sourceLocation)
        if let timeout { duration(timeout) }
    case .resize(let columns, let rows):
        #expect((10...500).contains(columns) && (3...200).contains(rows), sourceLocation: sourceLocation)
    case .expectEvent(let name, let count):
        #expect(ScriptParser.eventNames.contains(name) && (count ?? 0) >= 0, sourceLocation: sourceLocation)
    case .expectNoEvent(let name):
        #expect(ScriptParser.eventNames.contains(name), sourceLocation: sourceLocation)
    case .action(let id, _), .expectForwarded(let id), .expectExtension(let id), .expectError(let id):
        #expect(!id.isEmpty, sourceLocation: sourceLocation)
    case .expectScreen(_, let text):
        #expect(!text.isEmpty, sourceLocation: sourceLocation)
    case .expectActions(let ids):
        #expect(!ids.contains(""), sourceLocation: sourceLocation)
    case .send(let p, let attachments, let id, let trigger):
        path(p)
        attachments.forEach(path)
        #expect(id != "", sourceLocation: sourceLocation)
        if case .timeInterval(let interval, let repeats) = trigger {
            centerDuration(interval)
            #expect(!repeats || interval >= .seconds(60), sourceLocation: sourceLocation)
        }
        if case .calendar(let date, _) = trigger { checkDate(date, sourceLocation: sourceLocation) }
    case .serve(let start): checkDate(start, sourceLocation: sourceLocation)
    case .advance(let d): centerDuration(d)
    case .restart(let d): if let d { centerDuration(d) }
    case .expectDelivered(let id, _, let count): #expect(!id.isEmpty && (count ?? 0) >= 0, sourceLocation: sourceLocation)
    case .expectNotDelivered(let id), .expectSound(let id, _): #expect(!id.isEmpty, sourceLocation: sourceLocation)
    case .expectPending(let count): #expect(count >= 0, sourceLocation: sourceLocation)
    default:
        break
    }
}

/// Checks that `date` is one the parser may make.
func checkDate(_ date: ScriptDate, sourceLocation: SourceLocation) {
    let valid =
        (1970...9999).contains(date.year) && (1...12).contains(date.month)
        && (1...ScriptDate.days(inMonth: date.month, of: date.year)).contains(date.day) && (0...23).contains(date.hour)
        && (0...59).contains(date.minute) && (0...59).contains(date.second)
    #expect(valid, "\(date)", sourceLocation: sourceLocation)
}

@Suite("Never traps: garbage, token soup and mutated scripts (seeded)")
struct RobustnessTests {
    static let corpus = [
        """
        # NagMe
        app ../NagMe.app.json
        extensions Extensions
        deliver nagme.apns attach "voice memo.m4a" attach chime.ogg
        expect extension NagMe
        expect button play
        press play
        wait until mediaPlayingStarted timeout 2s
        expect screen contains "Take out \\"the\\" trash \\\\ now"
        expect position >= 250ms
        seek 1.5
        resize 60x12
        expect actions complete,pending
        action reply text "On my way"
        expect response dismissAndForwardAction
        expect forwarded reply
        expect event buttonState count 2
        expect no event error
        wait end
        expect heard >= .5s
        expect heard <= 3600
        expect dismissed
        """,
        "deliver a.apns\r\ntap content\r\ndefault\r\ndismiss\r\nwait 0\r\nexpect error \"x\"\r\nexpect screen lacks \"▶\"",
        "\u{FEFF}\tdeliver\t/abs/p.apns # c\n  press media\n  press pause\n  expect button hidden\n",
        """
        app NagMe.app.json
        serve at 2026-03-01T08:30:15
        send nagme.apns attach memo.m4a id nag after 90s repeats
        send "other one.apns" at 2026-03-02T09:00 repeat weekly
        send now.apns
        expect pending 2
        advance 1.5m
        expect delivered nag count 1
        expect sound "default" queued
        restart after 2d
        expect delivered nag late
        expect not delivered other
        focus on
        expect no sound
        press play
        """,
    ]

    /// Pieces the soup is made of: keywords, values at and past their limits, and troublemakers.
    static let vocabulary: [String] = ScriptParser.stepNames + ScriptParser.eventNames + [
        "event", "no", "button", "response", "forwarded", "dismissed", "actions", "extension", "screen", "position",
        "heard", "error", "until", "end", "timeout", "count", "attach", "text", "content", "contains", "lacks",
        ">=", "<=", "=", "media", "play", "pause", "none", "hidden", "doNotDismiss", "dismissAndForwardAction",
        "0", "1", "-1", "3600", "3600.0000001", "3601", "250ms", "1.5s", ".5", "5.", "1e9", "9999999999999999999999",
        "-0", "--1", "1..2", "s", "ms", "60x12", "10x3", "9x3", "500x200", "501x201", "x", "0x0", "99999999999999999999x1",
        "serve", "send", "at", "after", "repeats", "repeat", "daily", "weekly", "id", "late", "queued", "pending",
        "delivered", "not", "sound", "on", "off", "2026-01-05T09:00", "2026-02-29T09:00", "2028-02-29T23:59:59",
        "9999-12-31T23:59", "1969-12-31T23:59", "2026-13-01T00:00", "2026-01-05T24:00", "60s", "59.999s", "7d", "3650d",
        "3651d", "15m", "2h", "0s",
        "a,b", ",", "a,", ",,", "\"\"", "\"a b\"", "\"unterminated", "\"\\\"\"", "\"\\\\\"", "\"\\x\"", "\\", "#", "# c",
        "\"#\"", "..", ".", "/", "//", "./x", "\t", " ", "é", "漢字", "🔊", "\u{301}", "\u{202E}", "\u{FEFF}", "\u{7}",
        "\u{1B}[2J", "\r", "\u{0}", "\u{85}", "\u{10FFFF}",
    ]

    static let scalars: [Unicode.Scalar] = Array(" \t\n\r\"\\#,x.-+0123456789msé漢🔊".unicodeScalars) + [
        "\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{301}", "\u{FEFF}", "\u{FFFD}",
    ]

    @Test("Random bytes, decoded as a file would be and leniently")
    func randomBytes() {
        var random = SplitMix64(seed: 0x6E6F_7469_706C_6179)
        var parsed = 0
        for case_ in 0..<4000 {
            let count = Int.random(in: 0...(case_ % 10 == 0 ? 2000 : 120), using: &random)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            for _ in 0..<count {
                // Mostly ASCII text, with every other byte value now and then.
                let roll = Int.random(in: 0..<10, using: &random)
                bytes.append(roll < 7 ? UInt8.random(in: 0x20...0x7E, using: &random) : UInt8.random(in: 0...255, using: &random))
            }
            if (try? ScriptFile.decode(bytes, path: "/fuzz/case.playback")) != nil {
                if checkParse(String(decoding: bytes, as: UTF8.self)) { parsed += 1 }
            } else {
                checkParse(String(decoding: bytes, as: UTF8.self))
            }
        }
        #expect(parsed < 4000)
    }

    @Test("Token soup: lines of keywords, values and troublemakers")
    func tokenSoup() {
        var random = SplitMix64(seed: 42)
        var parsed = 0
        for _ in 0..<6000 {
            var lines: [String] = []
            if Bool.random(using: &random) { lines.append("deliver p.apns") }
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                var words: [String] = []
                for _ in 0..<Int.random(in: 0...6, using: &random) {
                    words.append(Self.vocabulary.randomElement(using: &random) ?? "")
                }
                lines.append(words.joined(separator: Bool.random(using: &random) ? " " : "\t"))
            }
            lines.shuffle(using: &random)
            if checkParse(lines.joined(separator: "\n")) { parsed += 1 }
        }
        // The soup should sometimes be a valid script, or it tests only the first error.
        #expect(parsed > 50)
    }

    @Test("Valid scripts, mutated one scalar or line at a time")
    func mutatedScripts() {
        for text in Self.corpus { #expect(checkParse(text)) }
        var random = SplitMix64(seed: 0xC0FF_EE)
        for _ in 0..<6000 {
            var scalars = Array((Self.corpus.randomElement(using: &random) ?? "").unicodeScalars)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0...scalars.count, using: &random)
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    scalars.insert(Self.scalars.randomElement(using: &random) ?? " ", at: at)
                case 1 where at < scalars.count:
                    scalars.remove(at: at)
                case 2 where at < scalars.count:
                    scalars[at] = Self.scalars.randomElement(using: &random) ?? " "
                case 3:
                    let end = min(scalars.count, at + Int.random(in: 0...20, using: &random))
                    scalars.insert(contentsOf: scalars[at..<end], at: Int.random(in: 0...scalars.count, using: &random))
                case 4:
                    scalars.removeSubrange(at..<min(scalars.count, at + Int.random(in: 0...10, using: &random)))
                default:
                    scalars.insert(contentsOf: (Self.vocabulary.randomElement(using: &random) ?? "").unicodeScalars, at: at)
                }
            }
            checkParse(String(String.UnicodeScalarView(scalars)))
        }
    }
}
