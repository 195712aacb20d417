import ArgumentParser
import NotiplayCenterClient
import NotiplayCore
import Testing

@testable import NotiplayCommandLine

/// `send --after/--at/--repeat` and `clock --advance` as the command line reads them: what a
/// person writes becomes the trigger the center gets, and bad values are refused before any
/// server is asked (usage 64 from the parser, Apple's refusals 65 from `trigger()`).
@Suite("Schedule arguments")
struct ScheduleArgumentTests {
    func send(_ arguments: [String]) throws -> SendCommand {
        try #require(try NotiplayCommand.parseAsRoot(["send", "p.apns"] + arguments) as? SendCommand)
    }

    @Test("Durations and local dates read, into the trigger the center gets")
    func triggers() throws {
        #expect(try send(["--after", "90s"]).trigger() == TriggerSpecs.interval(90, repeats: false))
        #expect(try send(["--after", "1.5m", "--repeat", "interval"]).trigger() == TriggerSpecs.interval(90, repeats: true))
        #expect(try send(["--after", "2h"]).trigger() == TriggerSpecs.interval(7200, repeats: false))
        let daily = try #require(try send(["--at", "2027-01-01T09:30", "--repeat", "daily"]).trigger())
        #expect(daily.type == "calendar" && daily.repeats && daily.dateComponents == ["hour": 9, "minute": 30, "second": 0])
        let once = try #require(try send(["--at", "2099-12-31T23:59:30"]).trigger())
        #expect(once.dateComponents == ["year": 2099, "month": 12, "day": 31, "hour": 23, "minute": 59, "second": 30])
        #expect(try send([]).trigger() == nil)
    }

    @Test("Apple's refusals and a past date: 65, naming the option", arguments: [
        (["--after", "0s"], "time interval must be greater than 0"),
        (["--after", "-5s"], "time interval must be greater than 0"),
        (["--after", "59s", "--repeat", "interval"], "time interval must be at least 60 if repeating"),
        (["--at", "2020-01-01T09:00"], "the date is in the past"),
    ])
    func refusals(_ arguments: [String], _ message: String) throws {
        #expect {
            _ = try send(arguments).trigger()
        } throws: { error in
            "\(error)".contains(message) && (error as? NotiplayError)?.kind == .badData
        }
    }

    @Test("What is not a duration, a date, or a repeat form: a usage error", arguments: [
        ["--after", "soon"], ["--after", "30"], ["--at", "2026-02-30T09:00"], ["--at", "2026-01-01 09:00"],
        ["--at", "2026-01-01T25:00"], ["--at", "2027-01-01T09:00", "--repeat", "often"],
        ["--after", "60s", "--repeat", "daily"], ["--repeat", "daily"], ["--after", "60s", "--at", "2027-01-01T09:00"],
    ])
    func usage(_ arguments: [String]) {
        #expect(throws: (any Error).self) { try send(arguments) }
    }

    @Test("clock --advance takes more than 0, a negative one included as a value")
    func advance() throws {
        let clock = try #require(try NotiplayCommand.parseAsRoot(["clock", "--advance", "7d"]) as? ClockCommand)
        #expect(clock.advance.map(\.seconds) == 604_800.0)
        #expect(throws: (any Error).self) { try NotiplayCommand.parseAsRoot(["clock", "--advance", "-5s"]) }
        #expect(throws: (any Error).self) { try NotiplayCommand.parseAsRoot(["clock", "--advance", "0s"]) }
    }
}

extension ScheduleArgumentTests {
    @Test("Compound durations read as their sum: 1m30s, 1h30m, 1d12h, 2h0m15s")
    func compoundDurations() throws {
        #expect(try send(["--after", "1m30s"]).trigger() == TriggerSpecs.interval(90, repeats: false))
        #expect(try send(["--after", "1h30m"]).trigger() == TriggerSpecs.interval(5_400, repeats: false))
        #expect(try send(["--after", "1d12h", "--repeat", "interval"]).trigger() == TriggerSpecs.interval(129_600, repeats: true))
        #expect(try send(["--after", "2h0m15s"]).trigger() == TriggerSpecs.interval(7_215, repeats: false))
        let clock = try #require(try NotiplayCommand.parseAsRoot(["clock", "--advance", "1m30s"]) as? ClockCommand)
        #expect(clock.advance.map(\.seconds) == 90)
    }

    @Test("Not durations: units out of order or twice, a unit without a number, a number without a unit", arguments: [
        "30m1h", "1m1m", "1h30", "m30s", "1h-30m", "1.5.0s", "",
    ])
    func badCompoundDurations(_ text: String) {
        #expect(throws: (any Error).self) { try send(["--after", text]) }
    }

    @Test("Past the horizon (3650 days): --after and clock --advance are usage errors saying so; up to it they are read")
    func horizon() throws {
        for arguments in [
            ["send", "p.apns", "--after", "1000000000000000000s"], ["send", "p.apns", "--after", "3651d"],
            ["clock", "--advance", "1000000000000000000s"], ["clock", "--advance", "3650d1s"],
        ] {
            #expect {
                _ = try NotiplayCommand.parseAsRoot(arguments)
            } throws: { error in
                NotiplayCommand.exitCode(for: error).rawValue == 64 && NotiplayCommand.message(for: error).contains("3650 days")
            }
        }
        #expect(try send(["--after", "3650d"]).trigger() == TriggerSpecs.interval(315_360_000, repeats: false))
        #expect(try NotiplayCommand.parseAsRoot(["clock", "--advance", "3650d"]) is ClockCommand)
    }
}

enum TriggerSpecs {
    static func interval(_ seconds: Double, repeats: Bool) -> TriggerSpec {
        TriggerSpec(type: "timeInterval", timeInterval: seconds, repeats: repeats)
    }
}
