import Testing

@testable import NotiplayScript

/// The script used where only one step matters: a `deliver` line, so that the script is whole.
let deliverLine = "deliver p.apns"

/// Parses `text` as `/scripts/test.playback`.
func parse(_ text: String, path: String = "/scripts/test.playback") throws(ScriptError) -> PlaybackScript {
    try ScriptParser.parse(text, path: path)
}

/// The error `text` gives, or nil when it parses.
func parseError(_ text: String, path: String = "/scripts/test.playback") -> ScriptError? {
    do {
        _ = try parse(text, path: path)
        return nil
    } catch {
        return error
    }
}

@Suite("Steps: every kind, with its line and column")
struct StepTests {
    typealias Kind = ScriptStep.Kind

    @Test(arguments: [
        ("app NagMe.app.json", Kind.app(path: "/scripts/NagMe.app.json")),
        ("app /etc/app.json", .app(path: "/etc/app.json")),
        ("extensions Extensions", .extensions(directory: "/scripts/Extensions")),
        ("extensions ../shared/Ext/", .extensions(directory: "/scripts/../shared/Ext")),
        ("deliver nagme.apns", .deliver(payload: "/scripts/nagme.apns", attachments: [])),
        (
            "deliver nagme.apns attach memo.m4a attach /media/chime.ogg",
            .deliver(payload: "/scripts/nagme.apns", attachments: ["/scripts/memo.m4a", "/media/chime.ogg"])
        ),
        (#"deliver "my payload.apns" attach "a \"b\".wav""#, .deliver(payload: "/scripts/my payload.apns", attachments: [#"/scripts/a "b".wav"#])),
        ("press media", .press(.media)),
        ("press play", .press(.play)),
        ("press pause", .press(.pause)),
        ("press tab", .press(.tab)),
        ("press shift-tab", .press(.shiftTab)),
        ("press enter", .press(.enter)),
        ("click 12,3", .click(.cell(column: 12, row: 3))),
        ("click 1,1", .click(.cell(column: 1, row: 1))),
        ("click 500,200", .click(.cell(column: 500, row: 200))),
        ("click media", .click(.media)),
        ("click close", .click(.close)),
        ("click action snooze", .click(.action("snooze"))),
        (#"click button "Snooze 10 min""#, .click(.button("Snooze 10 min"))),
        ("click button Snooze", .click(.button("Snooze"))),
        ("tap content", .tapContent),
        ("action complete", .action(identifier: "complete", text: nil)),
        (#"action reply text "On my way""#, .action(identifier: "reply", text: "On my way")),
        ("action reply text ok", .action(identifier: "reply", text: "ok")),
        (#"action reply text """#, .action(identifier: "reply", text: "")),
        (#"action "two words""#, .action(identifier: "two words", text: nil)),
        ("default", .defaultAction),
        ("dismiss", .dismiss),
        ("wait 250ms", .wait(.milliseconds(250))),
        ("wait 1.5s", .wait(.milliseconds(1500))),
        ("wait 2", .wait(.seconds(2))),
        ("wait 0", .wait(.zero)),
        ("wait .5s", .wait(.milliseconds(500))),
        ("wait 0.1", .wait(.milliseconds(100))),
        ("wait 1.25ms", .wait(.microseconds(1250))),
        ("wait 3600s", .wait(.seconds(3600))),
        ("wait 3600000ms", .wait(.seconds(3600))),
        ("wait until mediaPlayingStarted", .waitUntil(event: "mediaPlayingStarted", timeout: nil)),
        ("wait until dismissed timeout 2s", .waitUntil(event: "dismissed", timeout: .seconds(2))),
        ("wait end", .waitEnd),
        ("seek 1.2s", .seek(.milliseconds(1200))),
        ("resize 60x12", .resize(columns: 60, rows: 12)),
        ("resize 10x3", .resize(columns: 10, rows: 3)),
        ("resize 500x200", .resize(columns: 500, rows: 200)),
        ("expect event mediaPlay", .expectEvent(name: "mediaPlay", count: nil)),
        ("expect event buttonState count 3", .expectEvent(name: "buttonState", count: 3)),
        ("expect event error count 0", .expectEvent(name: "error", count: 0)),
        ("expect no event forwarded", .expectNoEvent(name: "forwarded")),
        ("expect button none", .expectButton(.none)),
        ("expect button play", .expectButton(.play)),
        ("expect button pause", .expectButton(.pause)),
        ("expect button hidden", .expectButton(.hidden)),
        ("expect response doNotDismiss", .expectResponse(.doNotDismiss)),
        ("expect response dismiss", .expectResponse(.dismiss)),
        ("expect response dismissAndForwardAction", .expectResponse(.dismissAndForwardAction)),
        ("expect forwarded snooze", .expectForwarded(action: "snooze")),
        ("expect dismissed", .expectDismissed),
        ("expect actions complete", .expectActions(["complete"])),
        ("expect actions complete,pending,later", .expectActions(["complete", "pending", "later"])),
        ("expect actions complete, pending ,later", .expectActions(["complete", "pending", "later"])),
        (#"expect actions "a b","c,d""#, .expectActions(["a b", "c,d"])),
        (#"expect actions "a",b ,"c""#, .expectActions(["a", "b", "c"])),
        (#"expect actions """#, .expectActions([])),
        ("expect extension NagMe", .expectExtension("NagMe")),
        (#"expect screen contains "Take out the trash""#, .expectScreen(contains: true, text: "Take out the trash")),
        (#"expect screen lacks "▶""#, .expectScreen(contains: false, text: "▶")),
        ("expect position >= 1s", .expectPosition(atLeast: .seconds(1))),
        ("expect heard >= 500ms", .expectHeard(.atLeast, .milliseconds(500))),
        ("expect heard <= 2.5", .expectHeard(.atMost, .milliseconds(2500))),
        (#"expect error "unrecognized file format""#, .expectError("unrecognized file format")),
    ])
    func step(_ line: String, _ kind: Kind) throws {
        let script = try parse("\(deliverLine)\n\n    \(line)   # a comment\n")
        try #require(script.steps.count == 2)
        #expect(script.steps[1] == ScriptStep(line: 3, column: 5, kind: kind))
    }

    @Test("A whole script: lines, columns, comments, blank lines, tabs and CRLF")
    func wholeScript() throws {
        let text = """
            # NagMe: play, then complete\r
            app ../NagMe.app.json\r
            \r
            \textensions Extensions   # the bundles
              deliver nagme.apns attach "voice memo.m4a"
            expect button play#no space needed before a comment
            press play
            wait until mediaPlayingStarted timeout 2s
            expect screen contains "# not a comment"
            \t \t
            action complete
            """
        let script = try ScriptParser.parse(text, path: "/home/sam/tests/nagme.playback")
        #expect(script.path == "/home/sam/tests/nagme.playback")
        #expect(
            script.steps == [
                ScriptStep(line: 2, column: 1, kind: .app(path: "/home/sam/tests/../NagMe.app.json")),
                ScriptStep(line: 4, column: 2, kind: .extensions(directory: "/home/sam/tests/Extensions")),
                ScriptStep(
                    line: 5, column: 3,
                    kind: .deliver(
                        payload: "/home/sam/tests/nagme.apns", attachments: ["/home/sam/tests/voice memo.m4a"])),
                ScriptStep(line: 6, column: 1, kind: .expectButton(.play)),
                ScriptStep(line: 7, column: 1, kind: .press(.play)),
                ScriptStep(line: 8, column: 1, kind: .waitUntil(event: "mediaPlayingStarted", timeout: .seconds(2))),
                ScriptStep(line: 9, column: 1, kind: .expectScreen(contains: true, text: "# not a comment")),
                ScriptStep(line: 11, column: 1, kind: .action(identifier: "complete", text: nil)),
            ])
    }

    @Test("Every event name is accepted where events are named")
    func eventNames() throws {
        #expect(ScriptParser.eventNames.count == 17)
        for name in ScriptParser.eventNames {
            let script = try parse(
                "\(deliverLine)\nexpect event \(name)\nexpect no event \(name)\nwait until \(name) timeout 1")
            #expect(
                script.steps.dropFirst().map(\.kind) == [
                    .expectEvent(name: name, count: nil), .expectNoEvent(name: name),
                    .waitUntil(event: name, timeout: .seconds(1)),
                ])
        }
    }

    @Test(
        "Relative paths are resolved against the script's folder",
        arguments: [
            ("/a/b/s.playback", "p.apns", "/a/b/p.apns"),
            ("/a/b/s.playback", "./x/./p.apns", "/a/b/x/p.apns"),
            ("/a/b/s.playback", "../p.apns", "/a/b/../p.apns"),
            ("/a/b/s.playback", "/abs//p.apns", "/abs/p.apns"),
            ("/s.playback", "p.apns", "/p.apns"),
            ("/a/b/s.playback", "sub/", "/a/b/sub"),
        ])
    func relativePaths(_ script: String, _ written: String, _ resolved: String) throws {
        let steps = try ScriptParser.parse("deliver \(written)", path: script).steps
        #expect(steps.first?.kind == .deliver(payload: resolved, attachments: []))
    }

    @Test("A script path without a folder, or a relative one, resolves from the current directory")
    func currentDirectory() throws {
        let cwd = ScriptPath.currentDirectory()
        let here = try ScriptParser.parse("deliver p.apns", path: "s.playback").steps.first?.kind
        #expect(here == .deliver(payload: ScriptPath.normalized(cwd + "/p.apns"), attachments: []))
        let below = try ScriptParser.parse("deliver p.apns", path: "tests/s.playback").steps.first?.kind
        #expect(below == .deliver(payload: ScriptPath.normalized(cwd + "/tests/p.apns"), attachments: []))
        if case .deliver(let payload, _) = below { #expect(payload.hasPrefix("/")) }
    }

    @Test("A byte-order mark at the start is skipped; columns do not count it")
    func byteOrderMark() throws {
        let script = try parse("\u{FEFF}deliver p.apns\n  dismiss")
        #expect(script.steps.map(\.column) == [1, 3])
    }

    @Test("Durations are exact and keywords are case-sensitive")
    func durations() {
        #expect(ScriptValues.duration("0.001") == .value(.milliseconds(1)))
        #expect(ScriptValues.duration("0.000000001s") == .value(.nanoseconds(1)))
        #expect(ScriptValues.duration("000000000000000000000000001ms") == .value(.milliseconds(1)))
        #expect(ScriptValues.duration("3600.000000000000000000001") == .value(.seconds(3600)))
        #expect(ScriptValues.duration("3600.001") == .tooLong)
        #expect(ScriptValues.duration("99999999999999999999999") == .tooLong)
        #expect(ScriptValues.duration("-0.5s") == .negative)
        #expect(ScriptValues.duration("1h") == .value(.seconds(3600)))
        #expect(ScriptValues.duration("60m") == .value(.seconds(3600)))
        #expect(ScriptValues.duration(".5m") == .value(.seconds(30)))
        #expect(ScriptValues.duration("0.1d", longest: .seconds(86_400)) == .value(.seconds(8640)))
        #expect(ScriptValues.duration("7d", longest: .seconds(7 * 86_400)) == .value(.seconds(7 * 86_400)))
        #expect(ScriptValues.duration("7.000000000000000001d", longest: .seconds(7 * 86_400)) == .tooLong)
        #expect(ScriptValues.duration("1.5h", longest: .seconds(7200)) == .value(.seconds(5400)))
        #expect(ScriptValues.duration("999999999999d", longest: .seconds(7200)) == .tooLong)
        #expect(ScriptValues.duration("1000000000000ms", longest: .seconds(7200)) == .tooLong)
        for bad in ["", "s", "ms", ".", "1..2", "1.2.3", "1e3", "inf", "nan", "+1", "1w", "1 s", "--1", "1sms", "0x10", "١", "1hs", "h", "1mm", "1dd", "1 d"] {
            #expect(ScriptValues.duration(bad) == .malformed, "\(bad)")
        }
        #expect(parseError("\(deliverLine)\nWait 1s")?.message.hasPrefix("unknown step \"Wait\"") == true)
    }
}
