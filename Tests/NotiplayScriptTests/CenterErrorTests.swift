import Testing

@testable import NotiplayScript

@Suite("The center's steps: errors at the token at fault, and the rules between steps")
struct CenterErrorTests {
    static let send =
        "usage: send PAYLOAD [attach FILE]... [id ID] [after DURATION [repeats] | at DATE [repeat hourly|daily|weekly|monthly|yearly]]"
    static let badDate = "write YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM:SS, like 2026-01-05T09:00"
    static let units = "expected hourly, daily, weekly, monthly or yearly"

    /// (the line after `serve`, so on line 2; column; message)
    @Test(arguments: [
        // Missing operands: just past the last token.
        ("send", 5, "missing PAYLOAD; \(send)"),
        ("send p.apns attach", 19, "missing FILE after attach; \(send)"),
        ("send p.apns id", 15, "missing ID after id; \(send)"),
        ("send p.apns after", 18, "missing DURATION; \(send)"),
        ("send p.apns at", 15, "missing DATE; \(send)"),
        ("send p.apns at 2026-01-06T09:00 repeat", 39, "missing hourly, daily, weekly, monthly or yearly; \(send)"),
        ("advance", 8, "missing DURATION; usage: advance DURATION"),
        ("restart after", 14, "missing DURATION; usage: restart [after DURATION]"),
        ("focus", 6, "missing on or off; usage: focus on|off"),
        ("expect pending", 15, "missing N; usage: expect pending N"),
        ("expect delivered", 17, "missing ID; usage: expect delivered ID [late] [count N]"),
        ("expect delivered nag late count", 32, "missing N after count; usage: expect delivered ID [late] [count N]"),
        ("expect not", 11, "missing delivered; usage: expect not delivered ID"),
        ("expect not delivered", 21, "missing ID; usage: expect not delivered ID"),
        ("expect sound", 13, "missing NAME; usage: expect sound \"NAME\" [queued]"),
        // Empty operands.
        (#"send """#, 6, "empty PAYLOAD; \(send)"),
        (#"send p.apns id """#, 16, "empty ID after id; \(send)"),
        (#"expect delivered """#, 18, "empty ID; usage: expect delivered ID [late] [count N]"),
        (#"expect sound """#, 14, "empty NAME; usage: expect sound \"NAME\" [queued]"),
        // Trailing garbage.
        ("send p.apns after 60s repeats forever", 31, "extra argument \"forever\"; \(send)"),
        ("send p.apns at 2026-01-06T09:00 repeat daily again", 46, "extra argument \"again\"; \(send)"),
        ("send p.apns after 30s id x", 23, "extra argument \"id\"; \(send)"),
        ("send p.apns after 30s at 2026-01-06T09:00", 23, "extra argument \"at\"; \(send)"),
        ("send p.apns now", 13, "extra argument \"now\"; \(send)"),
        ("advance 1s 2s", 12, "extra argument \"2s\"; usage: advance DURATION"),
        ("restart now", 9, "extra argument \"now\"; usage: restart [after DURATION]"),
        ("restart after 1h later", 18, "extra argument \"later\"; usage: restart [after DURATION]"),
        ("focus on off", 10, "extra argument \"off\"; usage: focus on|off"),
        ("expect pending 1 2", 18, "extra argument \"2\"; usage: expect pending N"),
        ("expect delivered a b", 20, "extra argument \"b\"; usage: expect delivered ID [late] [count N]"),
        ("expect delivered a count 1 late", 28, "extra argument \"late\"; usage: expect delivered ID [late] [count N]"),
        ("expect not delivered a b", 24, "extra argument \"b\"; usage: expect not delivered ID"),
        ("expect sound a b", 16, "extra argument \"b\"; usage: expect sound \"NAME\" [queued]"),
        ("expect no sound please", 17, "extra argument \"please\"; usage: expect no sound"),
        // Bad words.
        ("focus maybe", 7, "expected on or off; found \"maybe\""),
        (#"focus "on""#, 7, "expected on or off; found \"on\""),
        ("expect not received a", 12, "expected delivered; found \"received\"; usage: expect not delivered ID"),
        ("expect no noise", 11, "expected event or sound; found \"noise\"; usage: expect no event NAME | expect no sound"),
        ("send p.apns at 2026-01-06T09:00 repeat fortnightly", 40, "\(units); found \"fortnightly\""),
        (#"send p.apns at 2026-01-06T09:00 repeat "daily""#, 40, "\(units); found \"daily\""),
        ("send p.apns after 60s repeat daily", 23, "repeat goes with at DATE; after a duration write repeats; \(send)"),
        (
            "send p.apns at 2026-01-06T09:00 repeats", 33,
            "repeats goes with after DURATION; after a date write repeat hourly, daily, weekly, monthly or yearly"
        ),
        // Counts.
        ("expect pending -1", 16, "a count cannot be negative; found \"-1\""),
        ("expect pending many", 16, "bad count \"many\"; expected a whole number, 0 or more"),
        ("expect delivered a count two", 26, "bad count \"two\"; expected a whole number, 0 or more"),
        // Time intervals: Apple's rules, at the duration.
        ("send p.apns after 0", 19, "time interval must be greater than 0"),
        ("send p.apns after 0s repeats", 19, "time interval must be greater than 0"),
        ("send p.apns after -5s", 19, "time interval must be greater than 0"),
        ("send p.apns after -0", 19, "time interval must be greater than 0"),
        ("send p.apns after 30s repeats", 19, "time interval must be at least 60 if repeating"),
        ("send p.apns id a after 59.999s repeats", 24, "time interval must be at least 60 if repeating"),
        ("send p.apns after soon", 19, "bad duration \"soon\"; write 30s, 15m, 2h, 7d or a number of seconds"),
        ("send p.apns after -x", 19, "bad duration \"-x\"; write 30s, 15m, 2h, 7d or a number of seconds"),
        ("send p.apns after 3651d", 19, "duration \"3651d\" is longer than the limit of 3650 days"),
        // Other durations: more than 0, at most 3650 days.
        ("advance 0", 9, "advance needs a duration greater than 0; found \"0\""),
        ("advance -1s", 9, "advance needs a duration greater than 0; found \"-1s\""),
        ("advance 1w", 9, "bad duration \"1w\"; write 30s, 15m, 2h, 7d or a number of seconds"),
        ("advance 3650.5d", 9, "duration \"3650.5d\" is longer than the limit of 3650 days"),
        ("advance 9999999999999999999999s", 9, "duration \"9999999999999999999999s\" is longer than the limit of 3650 days"),
        ("restart after 0ms", 15, "restart after needs a duration greater than 0; found \"0ms\""),
        ("restart after -2h", 15, "restart after needs a duration greater than 0; found \"-2h\""),
        // Dates, in send: a field out of range is an error at its first digit.
        ("send p.apns at 2026-04-31T09:00", 24, "day must be 01…30 in April 2026; found \"31\""),
        ("send p.apns at tomorrow", 16, "bad date \"tomorrow\"; \(badDate)"),
    ])
    func error(_ line: String, _ column: Int, _ message: String) throws {
        let error = try #require(parseError("serve\n\(line)\n# after"), "\(line)")
        #expect(error == ScriptError(path: "/scripts/test.playback", line: 2, column: column, message: message), "\(line)")
    }

    /// (the line after `app a.json`, so on line 2; column; message)
    @Test(arguments: [
        ("serve now", 7, "extra argument \"now\"; usage: serve [at DATE]"),
        ("serve at", 9, "missing DATE; usage: serve [at DATE]"),
        ("serve at 2026-01-05T09:00 sharp", 27, "extra argument \"sharp\"; usage: serve [at DATE]"),
        ("serve at 2026-02-30T09:00", 18, "day must be 01…28 in February 2026; found \"30\""),
        ("serve at 2100-02-29T09:00", 18, "day must be 01…28 in February 2100; found \"29\""),
        ("serve at 2026-01-00T09:00", 18, "day must be 01…31 in January 2026; found \"00\""),
        (#"serve at "2026-02-29T09:00""#, 19, "day must be 01…28 in February 2026; found \"29\""),
        ("serve at 2026-01-05T25:00", 21, "hour must be 00…23; found \"25\""),
        ("serve at 2026-01-05T24:00", 21, "hour must be 00…23; found \"24\""),
        ("serve at 2026-13-05T09:00", 15, "month must be 01…12; found \"13\""),
        ("serve at 2026-00-05T09:00", 15, "month must be 01…12; found \"00\""),
        ("serve at 2026-01-05T09:60", 24, "minute must be 00…59; found \"60\""),
        ("serve at 2026-01-05T09:00:60", 27, "second must be 00…59; found \"60\""),
        ("serve at 1969-12-31T23:59", 10, "year must be 1970…9999; found \"1969\""),
        ("serve at 25:00", 10, "bad date \"25:00\"; \(badDate)"),
        ("serve at 2026-1-5T09:00", 10, "bad date \"2026-1-5T09:00\"; \(badDate)"),
        ("serve at 2026-01-05 09:00", 10, "bad date \"2026-01-05\"; \(badDate)"),
        ("serve at 2026-01-05t09:00", 10, "bad date \"2026-01-05t09:00\"; \(badDate)"),
    ])
    func serveError(_ line: String, _ column: Int, _ message: String) throws {
        let error = try #require(parseError("app a.json\n\(line)"), "\(line)")
        #expect(error == ScriptError(path: "/scripts/test.playback", line: 2, column: column, message: message), "\(line)")
    }

    @Test(
        "The center's steps need serve on an earlier line",
        arguments: [
            ("send p.apns", "send"), ("advance 1s", "advance"), ("restart", "restart"), ("focus on", "focus"),
            ("expect pending 0", "expect pending"), ("expect delivered a", "expect delivered"),
            ("expect not delivered a", "expect not delivered"), ("expect sound default", "expect sound"),
            ("expect no sound", "expect no sound"),
        ])
    func needsServe(_ line: String, _ name: String) {
        let message = "`\(name)` needs the notification center: write `serve` on a line before it"
        #expect(parseError("deliver p.apns\n  \(line)") == ScriptError(path: "/scripts/test.playback", line: 2, column: 3, message: message))
        // Before serve in a script that has one, and in a script with nothing else.
        #expect(parseError("app a.json\n\(line)\nserve") == ScriptError(path: "/scripts/test.playback", line: 2, column: 1, message: message))
        #expect(parseError(line) == ScriptError(path: "/scripts/test.playback", line: 1, column: 1, message: message))
    }

    @Test("One serve at most; serve and deliver never in one script, naming both lines")
    func serveRules() {
        func error(_ text: String, _ line: Int, _ column: Int, _ message: String) -> Bool {
            parseError(text) == ScriptError(path: "/scripts/test.playback", line: line, column: column, message: message)
        }
        #expect(error("serve\nsend p.apns\n serve at 2026-01-05T09:00", 3, 2, "at most one `serve` per script; the first is on line 1"))
        #expect(
            error(
                "deliver p.apns\n\nserve", 3, 1,
                "`serve` and `deliver` do not mix in one script: `deliver` is on line 1, `serve` on line 3"))
        #expect(
            error(
                "app a.json\nserve\nsend p.apns\n  deliver p.apns", 4, 3,
                "`serve` and `deliver` do not mix in one script: `deliver` is on line 4, `serve` on line 2"))
        #expect(
            error(
                "serve\napp a.json", 2, 1,
                "`app` must come before `serve` (line 1): the center registers the apps as it starts"))
        #expect(
            error(
                "\nserve\n\textensions Ext", 3, 2,
                "`extensions` must come before `serve` (line 2): the center registers the apps as it starts"))
    }

    @Test("A script that serves needs nothing else; one with neither serve nor deliver is an error at line 0")
    func servedOrDelivered() throws {
        #expect(try parse("app a.json\nextensions Ext\nserve").steps.count == 3)
        #expect(try parse("serve\nexpect pending 0").steps.count == 2)
        #expect(
            parseError("app a.json\n# serve")
                == ScriptError(
                    path: "/scripts/test.playback", line: 0, column: 0,
                    message: "nothing is delivered: a script needs at least one `deliver PAYLOAD` step, or `serve`"))
    }

    @Test("The first error wins: a bad line before serve is reported, not the missing serve")
    func firstError() {
        #expect(parseError("send p.apns after 0\nserve")?.message == "time interval must be greater than 0")
        #expect(parseError("serve\nsend p.apns after 30s repeats\nserve")?.line == 2)
    }
}
