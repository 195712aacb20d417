import Testing

@testable import NotiplayScript

@Suite("Errors: the line and column of the token at fault, and a clear message")
struct ErrorTests {
    static let steps =
        "steps: app, extensions, deliver, press, click, tap, action, default, dismiss, wait, seek, resize, expect, serve, send, advance, "
        + "restart, focus"
    static let events =
        "known events: didReceive, mediaPlay, mediaPause, mediaPlayingStarted, mediaPlayingPaused, buttonState, "
        + "action, actions, response, forwarded, dismissed, playback, error, command, service, removed, control"
    static let click = "click COL,ROW | click media | click close | click action ID | click button \"TITLE\""
    static let expectations =
        "expect takes: event, no event, button, response, forwarded, dismissed, actions, extension, screen, position, heard, error, "
        + "pending, delivered, not delivered, sound, no sound"

    /// (the line after `deliver p.apns`, so on line 2; column; message)
    @Test(arguments: [
        // Unknown steps and expectations.
        ("play now", 1, "unknown step \"play\"; \(steps)"),
        ("  \"deliver\" x", 3, "a step starts with its name, not a string; \(steps)"),
        ("expect", 7, "missing what to expect; \(expectations)"),
        ("expect   noise on", 10, "unknown expectation \"noise\"; \(expectations)"),
        // Missing arguments: just past the last token.
        ("app", 4, "missing PATH; usage: app PATH"),
        ("extensions  ", 11, "missing DIR; usage: extensions DIR"),
        ("deliver", 8, "missing PAYLOAD; usage: deliver PAYLOAD [attach FILE]..."),
        ("deliver p.apns attach", 22, "missing FILE after attach; usage: deliver PAYLOAD [attach FILE]..."),
        ("press", 6, "missing media, play, pause, tab, shift-tab or enter; usage: press media|play|pause|tab|shift-tab|enter"),
        ("tap", 4, "missing content; usage: tap content"),
        ("action", 7, "missing ID; usage: action ID [text \"REPLY\"]"),
        ("action reply text", 18, "missing REPLY after text; usage: action ID [text \"REPLY\"]"),
        ("wait", 5, "missing DURATION, until EVENT or end; usage: wait DURATION | wait until EVENT [timeout DURATION] | wait end"),
        ("wait until", 11, "missing EVENT; usage: wait until EVENT [timeout DURATION]"),
        ("wait until playback timeout", 28, "missing DURATION after timeout; usage: wait until EVENT [timeout DURATION]"),
        ("seek", 5, "missing DURATION; usage: seek DURATION"),
        ("resize", 7, "missing COLSxROWS; usage: resize COLSxROWS"),
        ("expect event", 13, "missing EVENT; usage: expect event NAME [count N]"),
        ("expect event action count", 26, "missing N after count; usage: expect event NAME [count N]"),
        ("expect no", 10, "missing event or sound; usage: expect no event NAME | expect no sound"),
        ("expect no event", 16, "missing EVENT; usage: expect no event NAME"),
        ("expect button", 14, "missing none, play, pause or hidden; usage: expect button none|play|pause|hidden"),
        ("expect response", 16, "missing doNotDismiss, dismiss or dismissAndForwardAction; usage: expect response doNotDismiss|dismiss|dismissAndForwardAction"),
        ("expect forwarded", 17, "missing ACTION_ID; usage: expect forwarded ACTION_ID"),
        ("expect actions", 15, "missing ID[,ID...]; usage: expect actions ID[,ID...]"),
        ("expect extension", 17, "missing NAME; usage: expect extension NAME"),
        ("expect screen", 14, "missing contains or lacks; usage: expect screen contains|lacks \"TEXT\""),
        ("expect screen lacks", 20, "missing TEXT; usage: expect screen contains|lacks \"TEXT\""),
        ("expect position", 16, "missing >=; usage: expect position >= DURATION"),
        ("expect position >=", 19, "missing DURATION; usage: expect position >= DURATION"),
        ("expect heard", 13, "missing >= or <=; usage: expect heard >=|<= DURATION"),
        ("expect heard <=", 16, "missing DURATION; usage: expect heard >=|<= DURATION"),
        ("expect error", 13, "missing TEXT; usage: expect error \"TEXT\""),
        // Empty arguments.
        ("app \"\"", 5, "empty PATH; usage: app PATH"),
        ("action \"\" text x", 8, "empty ID; usage: action ID [text \"REPLY\"]"),
        ("expect screen contains \"\"", 24, "empty TEXT; usage: expect screen contains|lacks \"TEXT\""),
        ("expect error \"\"", 14, "empty TEXT; usage: expect error \"TEXT\""),
        // Extra tokens.
        ("dismiss now", 9, "extra argument \"now\"; usage: dismiss"),
        ("default x", 9, "extra argument \"x\"; usage: default"),
        ("app a.json b.json", 12, "extra argument \"b.json\"; usage: app PATH"),
        ("deliver p.apns with a.wav", 16, "extra argument \"with\"; usage: deliver PAYLOAD [attach FILE]..."),
        ("press play twice", 12, "extra argument \"twice\"; usage: press media|play|pause|tab|shift-tab|enter"),
        ("tap content again", 13, "extra argument \"again\"; usage: tap content"),
        ("action reply \"hi\"", 14, "extra argument \"hi\"; usage: action ID [text \"REPLY\"]"),
        ("wait 1s 2s", 9, "extra argument \"2s\"; usage: wait DURATION"),
        ("wait end now", 10, "extra argument \"now\"; usage: wait end"),
        ("wait until action after 1s", 19, "extra argument \"after\"; usage: wait until EVENT [timeout DURATION]"),
        ("seek 1 s", 8, "extra argument \"s\"; usage: seek DURATION"),
        ("resize 60x12 big", 14, "extra argument \"big\"; usage: resize COLSxROWS"),
        ("expect event action count 2 times", 29, "extra argument \"times\"; usage: expect event NAME [count N]"),
        ("expect dismissed now", 18, "extra argument \"now\"; usage: expect dismissed"),
        ("expect button play pause", 20, "extra argument \"pause\"; usage: expect button none|play|pause|hidden"),
        ("action \"a\",b", 11, "extra argument \",b\"; usage: action ID [text \"REPLY\"]"),
        ("expect actions a b", 18, "extra argument \"b\"; separate action identifiers with commas"),
        ("expect actions \"\" a", 16, "empty action identifier; usage: expect actions ID[,ID...]"),
        ("expect actions a,,b", 18, "empty action identifier; usage: expect actions ID[,ID...]"),
        ("expect actions ,a", 16, "empty action identifier; usage: expect actions ID[,ID...]"),
        ("expect actions a,", 18, "missing ID after the last comma; usage: expect actions ID[,ID...]"),
        ("expect screen contains \"a\" \"b\"", 28, "extra argument \"b\"; usage: expect screen contains|lacks \"TEXT\""),
        ("expect heard >= 1s 2s", 20, "extra argument \"2s\"; usage: expect heard >=|<= DURATION"),
        // Bad values.
        ("press stop", 7, "expected media, play, pause, tab, shift-tab or enter; found \"stop\""),
        ("press \"play\"", 7, "expected media, play, pause, tab, shift-tab or enter; found \"play\""),
        ("click", 6, "missing COL,ROW, media, close, action ID or button \"TITLE\"; usage: \(click)"),
        ("click 0,3", 7, "expected COL,ROW (from 1, like 12,3), media, close, action ID or button \"TITLE\"; found \"0,3\""),
        ("click 12", 7, "expected COL,ROW (from 1, like 12,3), media, close, action ID or button \"TITLE\"; found \"12\""),
        ("click 12,3,4", 7, "expected COL,ROW (from 1, like 12,3), media, close, action ID or button \"TITLE\"; found \"12,3,4\""),
        ("click \"media\"", 7, "expected COL,ROW (from 1, like 12,3), media, close, action ID or button \"TITLE\"; found \"media\""),
        ("click button", 13, "missing TITLE after button; usage: \(click)"),
        ("click action \"\"", 14, "empty ID after action; usage: \(click)"),
        ("click media twice", 13, "extra argument \"twice\"; usage: \(click)"),
        ("tap screen", 5, "expected content; found \"screen\"; usage: tap content"),
        ("expect no events action", 11, "expected event or sound; found \"events\"; usage: expect no event NAME | expect no sound"),
        ("expect button Play", 15, "expected none, play, pause or hidden; found \"Play\""),
        ("expect response close", 17, "expected doNotDismiss, dismiss or dismissAndForwardAction; found \"close\""),
        ("expect screen has \"x\"", 15, "expected contains or lacks; found \"has\""),
        ("expect position > 1s", 17, "expected >=; found \">\"; usage: expect position >= DURATION"),
        ("expect position <= 1s", 17, "expected >=; found \"<=\"; usage: expect position >= DURATION"),
        ("expect heard == 1s", 14, "expected >= or <=; found \"==\""),
        // Durations.
        ("wait soon", 6, "bad duration \"soon\"; write 250ms, 1.5s or a number of seconds"),
        ("wait 1w", 6, "bad duration \"1w\"; write 250ms, 1.5s or a number of seconds"),
        ("wait 2h", 6, "duration \"2h\" is longer than the limit of 1 hour"),
        ("wait 61m", 6, "duration \"61m\" is longer than the limit of 1 hour"),
        ("wait 1e3", 6, "bad duration \"1e3\"; write 250ms, 1.5s or a number of seconds"),
        ("wait inf", 6, "bad duration \"inf\"; write 250ms, 1.5s or a number of seconds"),
        ("wait nan", 6, "bad duration \"nan\"; write 250ms, 1.5s or a number of seconds"),
        ("wait -1s", 6, "a duration cannot be negative; found \"-1s\""),
        ("seek 3601", 6, "duration \"3601\" is longer than the limit of 1 hour"),
        ("wait 3600001ms", 6, "duration \"3600001ms\" is longer than the limit of 1 hour"),
        ("wait 99999999999999999999999999s", 6, "duration \"99999999999999999999999999s\" is longer than the limit of 1 hour"),
        ("wait until action timeout -2", 27, "a duration cannot be negative; found \"-2\""),
        ("wait until action timeout 2d", 27, "duration \"2d\" is longer than the limit of 1 hour"),
        ("expect position >= 1.5.2", 20, "bad duration \"1.5.2\"; write 250ms, 1.5s or a number of seconds"),
        ("expect heard <= 7200", 17, "duration \"7200\" is longer than the limit of 1 hour"),
        // Counts.
        ("expect event action count -1", 27, "a count cannot be negative; found \"-1\""),
        ("expect event action count two", 27, "bad count \"two\"; expected a whole number, 0 or more"),
        ("expect event action count 1.0", 27, "bad count \"1.0\"; expected a whole number, 0 or more"),
        ("expect event action count +1", 27, "bad count \"+1\"; expected a whole number, 0 or more"),
        ("expect event action count 99999999999999999999", 27, "count \"99999999999999999999\" is too large"),
        // Sizes.
        ("resize 60*12", 8, "bad size \"60*12\"; write COLSxROWS, like 60x12"),
        ("resize 60x", 8, "bad size \"60x\"; write COLSxROWS, like 60x12"),
        ("resize x12", 8, "bad size \"x12\"; write COLSxROWS, like 60x12"),
        ("resize 60X12", 8, "bad size \"60X12\"; write COLSxROWS, like 60x12"),
        ("resize -60x12", 8, "bad size \"-60x12\"; write COLSxROWS, like 60x12"),
        ("resize 9x12", 8, "columns must be 10…500; found \"9\""),
        ("resize 501x12", 8, "columns must be 10…500; found \"501\""),
        ("resize 60x2", 11, "rows must be 3…200; found \"2\""),
        ("resize 60x201", 11, "rows must be 3…200; found \"201\""),
        ("resize \"60x1\"", 12, "rows must be 3…200; found \"1\""),
        ("resize 99999999999999999999999x12", 8, "columns must be 10…500; found \"99999999999999999999999\""),
        // Event names.
        ("expect event mediaplay", 14, "unknown event \"mediaplay\"; \(events)"),
        ("expect no event crash", 17, "unknown event \"crash\"; \(events)"),
        ("wait until   started timeout 1s", 14, "unknown event \"started\"; \(events)"),
        // Strings and characters.
        ("expect screen contains \"unterminated", 24, "unterminated string: no closing \" on this line"),
        ("expect screen contains \"ends in a backslash\\", 24, "unterminated string: no closing \" on this line"),
        ("expect screen contains \"a\\nb\"", 26, "unknown escape \\n in a string; only \\\" and \\\\ are allowed"),
        ("expect screen contains \"a\"b", 27, "a string must be followed by a space or the end of the line"),
        ("expect screen contains a\"b\"", 25, "a quote inside a word; put the whole argument in double quotes"),
        ("dismiss\u{1B}[2J", 8, "control character U+001B is not allowed in a script"),
        ("expect screen contains \"\u{7}\"", 25, "control character U+0007 is not allowed in a script"),
        ("dismiss\rnow", 8, "control character U+000D is not allowed in a script"),
    ])
    func error(_ line: String, _ column: Int, _ message: String) throws {
        let error = try #require(parseError("\(deliverLine)\n\(line)\n# after"), "\(line)")
        #expect(error == ScriptError(path: "/scripts/test.playback", line: 2, column: column, message: message), "\(line)")
        #expect(error.description == "/scripts/test.playback:2:\(column): \(message)")
    }

    @Test("Columns count Unicode scalars: a wide character or an emoji counts once")
    func scalarColumns() {
        #expect(parseError("\(deliverLine)\nexpect screen contains \"漢字🔊\" extra")?.column == 30)
        #expect(parseError("\(deliverLine)\n\"é\" x")?.column == 1)
    }

    @Test(
        "A script that delivers nothing is an error at line 0",
        arguments: ["", "\n\n", "# only a comment", "app a.json\npress play\nexpect button pause"])
    func nothingDelivered(_ text: String) {
        #expect(
            parseError(text)
                == ScriptError(
                    path: "/scripts/test.playback", line: 0, column: 0,
                    message: "nothing is delivered: a script needs at least one `deliver PAYLOAD` step, or `serve`"))
    }

    @Test("The first error wins, even after a good deliver")
    func firstError() {
        let error = parseError("deliver a.apns\nwait 1x\nwait 2y")
        #expect(error?.line == 2 && error?.column == 6)
        #expect(parseError("wait 1x\ndeliver a.apns")?.line == 1)
    }

    @Test("Script text in messages shows what the terminal would act on as escapes, and is shortened")
    func cleaned() throws {
        // A string may hold characters the terminal would act on only if they are not control
        // characters, so check the bidirectional overrides, which are printable scalars.
        let error = try #require(parseError("\(deliverLine)\nexpect event \u{202E}lave"))
        #expect(error.message.hasPrefix(#"unknown event "\u{202E}lave";"#), "\(error)")
        let long = String(repeating: "y", count: 100)
        let shortened = try #require(parseError("\(deliverLine)\n\(long)"))
        #expect(shortened.message.hasPrefix("unknown step \"" + String(repeating: "y", count: 39) + "…\";"))
        let path = ScriptError(path: "evil\u{1B}[2J.playback", line: 1, column: 1, message: "m")
        #expect(path.description == #"evil\u{1B}[2J.playback:1:1: m"#)
    }
}
