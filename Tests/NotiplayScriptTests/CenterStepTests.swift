import Testing

@testable import NotiplayScript

@Suite("The notification center's steps: every form, with its line and column")
struct CenterStepTests {
    typealias Kind = ScriptStep.Kind

    static let tuesday = ScriptDate(year: 2026, month: 1, day: 6, hour: 9, minute: 0)

    @Test(arguments: [
        ("send p.apns", Kind.send(payload: "/scripts/p.apns", attachments: [], identifier: nil, trigger: nil)),
        (
            "send p.apns attach memo.m4a attach /media/chime.ogg id nag",
            .send(
                payload: "/scripts/p.apns", attachments: ["/scripts/memo.m4a", "/media/chime.ogg"], identifier: "nag",
                trigger: nil)
        ),
        (
            #"send "my payload.apns" id "two words""#,
            .send(payload: "/scripts/my payload.apns", attachments: [], identifier: "two words", trigger: nil)
        ),
        (
            "send p.apns after 30s",
            .send(payload: "/scripts/p.apns", attachments: [], identifier: nil, trigger: .timeInterval(.seconds(30), repeats: false))
        ),
        (
            "send p.apns after 250ms",
            .send(
                payload: "/scripts/p.apns", attachments: [], identifier: nil,
                trigger: .timeInterval(.milliseconds(250), repeats: false))
        ),
        (
            "send p.apns after 60s repeats",
            .send(payload: "/scripts/p.apns", attachments: [], identifier: nil, trigger: .timeInterval(.seconds(60), repeats: true))
        ),
        (
            "send p.apns id x after 1.5m repeats",
            .send(payload: "/scripts/p.apns", attachments: [], identifier: "x", trigger: .timeInterval(.seconds(90), repeats: true))
        ),
        (
            "send p.apns after 7d",
            .send(
                payload: "/scripts/p.apns", attachments: [], identifier: nil,
                trigger: .timeInterval(.seconds(7 * 86_400), repeats: false))
        ),
        (
            "send p.apns after 3650d repeats",
            .send(
                payload: "/scripts/p.apns", attachments: [], identifier: nil,
                trigger: .timeInterval(.seconds(3650 * 86_400), repeats: true))
        ),
        (
            "send p.apns at 2026-01-06T09:00",
            .send(payload: "/scripts/p.apns", attachments: [], identifier: nil, trigger: .calendar(tuesday, repeating: nil))
        ),
        (
            "send p.apns attach a.wav at 2028-02-29T23:59:59 repeat yearly",
            .send(
                payload: "/scripts/p.apns", attachments: ["/scripts/a.wav"], identifier: nil,
                trigger: .calendar(ScriptDate(year: 2028, month: 2, day: 29, hour: 23, minute: 59, second: 59), repeating: .yearly))
        ),
        ("advance 30s", .advance(.seconds(30))),
        ("advance 250ms", .advance(.milliseconds(250))),
        ("advance 1.5h", .advance(.seconds(5400))),
        ("advance 7d", .advance(.seconds(7 * 86_400))),
        ("advance 90", .advance(.seconds(90))),
        ("restart", .restart(after: nil)),
        ("restart after 2h", .restart(after: .seconds(7200))),
        ("focus on", .focus(on: true)),
        ("focus off", .focus(on: false)),
        ("expect pending 0", .expectPending(count: 0)),
        ("expect pending 3", .expectPending(count: 3)),
        ("expect delivered nag", .expectDelivered(identifier: "nag", late: false, count: nil)),
        ("expect delivered nag count 2", .expectDelivered(identifier: "nag", late: false, count: 2)),
        ("expect delivered nag late", .expectDelivered(identifier: "nag", late: true, count: nil)),
        ("expect delivered nag late count 1", .expectDelivered(identifier: "nag", late: true, count: 1)),
        ("expect delivered late", .expectDelivered(identifier: "late", late: false, count: nil)),
        (#"expect delivered "a b" count 0"#, .expectDelivered(identifier: "a b", late: false, count: 0)),
        ("expect not delivered nag", .expectNotDelivered(identifier: "nag")),
        (#"expect sound "default""#, .expectSound(name: "default", queued: false)),
        ("expect sound chime.caf queued", .expectSound(name: "chime.caf", queued: true)),
        (#"expect sound "queued""#, .expectSound(name: "queued", queued: false)),
        ("expect no sound", .expectNoSound),
        // The card's steps still work after serve.
        ("press play", .press(.play)),
        (#"expect screen contains "Water""#, .expectScreen(contains: true, text: "Water")),
        ("expect no event error", .expectNoEvent(name: "error")),
    ])
    func step(_ line: String, _ kind: Kind) throws {
        let script = try parse("serve\n\n    \(line)   # a comment\n")
        try #require(script.steps.count == 2)
        #expect(script.steps[1] == ScriptStep(line: 3, column: 5, kind: kind))
    }

    @Test(
        "Every repetition of a calendar trigger",
        arguments: ScriptStep.Recurrence.allCases)
    func recurrence(_ recurrence: ScriptStep.Recurrence) throws {
        let script = try parse("serve\nsend p.apns at 2026-01-06T09:00 repeat \(recurrence.rawValue)")
        #expect(
            script.steps.last?.kind
                == .send(
                    payload: "/scripts/p.apns", attachments: [], identifier: nil,
                    trigger: .calendar(Self.tuesday, repeating: recurrence)))
    }

    @Test("serve: at the default start without at, at the date written with it")
    func serve() throws {
        #expect(try parse("serve").steps == [ScriptStep(line: 1, column: 1, kind: .serve(start: .defaultStart))])
        #expect(ScriptDate.defaultStart == ScriptDate(year: 2026, month: 1, day: 5, hour: 9, minute: 0, second: 0))
        let dated = try parse("app a.json\n  serve at 2026-03-01T08:30:15").steps.last
        #expect(
            dated
                == ScriptStep(
                    line: 2, column: 3, kind: .serve(start: ScriptDate(year: 2026, month: 3, day: 1, hour: 8, minute: 30, second: 15))))
        let quoted = try parse(#"serve at "2026-03-01T08:30""#).steps.last?.kind
        #expect(quoted == .serve(start: ScriptDate(year: 2026, month: 3, day: 1, hour: 8, minute: 30)))
    }

    /// The first code block after "### The notification center" in the ScriptLanguage article.
    static func articleExample() throws -> String {
        var folder = Substring(#filePath)
        for _ in 0..<3 { folder = folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)] }
        let article = String(folder) + "/Sources/NotiplayScript/NotiplayScript.docc/ScriptLanguage.md"
        let text = try ScriptFile.decode(try ScriptFile.contents(of: article, cap: 1 << 20), path: article)
        let section = try #require(text.firstRange(of: "### The notification center\n"))
        let open = try #require(text[section.upperBound...].firstRange(of: "```\n"))
        let close = try #require(text[open.upperBound...].firstRange(of: "```\n"))
        return String(text[open.upperBound..<close.lowerBound])
    }

    @Test("The article's example script parses to these steps")
    func example() throws {
        let script = try ScriptParser.parse(try Self.articleExample(), path: "/samples/Reminder/center.playback")
        let reminder = "/samples/Reminder/reminder.apns"
        #expect(
            script.steps.map(\.kind) == [
                .app(path: "/samples/Reminder/Reminder.app.json"),
                .serve(start: .defaultStart),
                .send(payload: reminder, attachments: [], identifier: "water", trigger: .timeInterval(.seconds(30), repeats: false)),
                .expectPending(count: 1),
                .advance(.seconds(30)),
                .expectPending(count: 0),
                .expectDelivered(identifier: "water", late: false, count: nil),
                .expectSound(name: "default", queued: false),
                .expectScreen(contains: true, text: "Water the plants"),
                .dismiss,
                .focus(on: true),
                .send(
                    payload: reminder, attachments: [], identifier: "daily",
                    trigger: .calendar(ScriptDate(year: 2026, month: 1, day: 6, hour: 8, minute: 0), repeating: .daily)),
                .advance(.seconds(86_400)),
                .expectDelivered(identifier: "daily", late: false, count: 1),
                .expectNoSound,
                .expectPending(count: 1),
                .restart(after: .seconds(2 * 86_400)),
                .expectDelivered(identifier: "daily", late: true, count: 1),
                .expectNotDelivered(identifier: "weekly"),
            ])
        #expect(script.steps.first?.line == 3)
    }

    @Test("Dates: weekdays as Calendar numbers them, days per month, the text form")
    func dates() {
        #expect(ScriptDate.defaultStart.weekday == 2)  // a Monday
        #expect(ScriptDate(year: 1970, month: 1, day: 1, hour: 0, minute: 0).weekday == 5)  // Thursday
        #expect(ScriptDate(year: 2000, month: 1, day: 1, hour: 0, minute: 0).weekday == 7)  // Saturday
        #expect(ScriptDate(year: 2024, month: 2, day: 29, hour: 0, minute: 0).weekday == 5)  // Thursday
        #expect(ScriptDate(year: 2026, month: 3, day: 1, hour: 0, minute: 0).weekday == 1)  // Sunday
        #expect(ScriptDate(year: 9999, month: 12, day: 31, hour: 0, minute: 0).weekday == 6)  // Friday
        #expect(ScriptDate.days(inMonth: 2, of: 2026) == 28 && ScriptDate.days(inMonth: 2, of: 2028) == 29)
        #expect(ScriptDate.days(inMonth: 2, of: 2100) == 28 && ScriptDate.days(inMonth: 2, of: 2000) == 29)
        #expect(ScriptDate.days(inMonth: 4, of: 2026) == 30 && ScriptDate.days(inMonth: 12, of: 2026) == 31)
        #expect(ScriptDate.defaultStart.description == "2026-01-05T09:00:00")
        #expect(ScriptValues.date("2026-01-05T09:00") == .value(.defaultStart))
        #expect(ScriptValues.date("9999-12-31T23:59:59") == .value(ScriptDate(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)))
        for bad in ["", "2026-01-05", "2026-01-05T09", "2026-01-05T9:00", "2026-01-05 09:00", "2026-01-05t09:00",
            "2026/01/05T09:00", "2026-01-05T09:00:0", "2026-01-05T09:00:000", "+026-01-05T09:00", "2026-01-05T09:00Z",
            "２026-01-05T09:00", "25:00"]
        {
            #expect(ScriptValues.date(bad) == .malformed, "\(bad)")
        }
    }
}
