import Foundation
import Testing

@testable import NotiplayCore

/// Triggers: when they fire, Apple's refusals, daylight-saving changes, and their JSON.
@Suite struct TriggerTests {
    /// 2026-03-28 12:00 in Berlin (UTC+1; the clocks go forward the next night at 02:00).
    static let beforeSpringForward = Date(timeIntervalSince1970: 1_774_695_600)
    /// 2026-10-24 12:00 in Berlin (UTC+2; the clocks go back the next night at 03:00).
    static let beforeFallBack = Date(timeIntervalSince1970: 1_792_836_000)
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    static func text(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let offset = berlin.secondsFromGMT(for: date) / 3600
        return String(format: "%04d-%02d-%02d %02d:%02d +%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, offset)
    }

    func berlinComponents(_ build: (inout DateComponents) -> Void) -> DateComponents {
        var components = DateComponents()
        components.timeZone = Self.berlin
        build(&components)
        return components
    }

    @Test("A time interval fires one interval after scheduling; a repeating one every interval after that")
    func timeInterval() {
        let scheduled = Date(timeIntervalSince1970: 1_000_000)
        let once = UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false)
        #expect(once.nextDate(scheduledAt: scheduled, after: scheduled) == scheduled + 30)
        #expect(once.nextDate(scheduledAt: scheduled, after: scheduled + 30) == nil)
        let hourly = UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: true)
        #expect(hourly.nextDate(scheduledAt: scheduled, after: scheduled + 3600) == scheduled + 7200)
        #expect(hourly.nextDate(scheduledAt: scheduled, after: scheduled + 3599.5) == scheduled + 3600)
        #expect(hourly.nextDate(scheduledAt: scheduled, after: scheduled + 10 * 3600 + 1) == scheduled + 11 * 3600)
    }

    @Test("Apple's refusals: an interval of 0 or less, under 60 s when repeating", arguments: [
        (0.0, false, "time interval must be greater than 0"), (-5, false, "time interval must be greater than 0"),
        (Double.nan, false, "time interval must be greater than 0"),
        (59.9, true, "time interval must be at least 60 if repeating"), (60, true, nil), (0.5, false, nil),
    ] as [(Double, Bool, String?)])
    func refusals(interval: Double, repeats: Bool, problem: String?) {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: repeats)
        #expect(trigger.problem == problem)
        #expect((trigger.nextTriggerDate() == nil) == (problem != nil))
    }

    @Test("9:00 every day stays 9:00 local across both daylight-saving changes")
    func dailyAcrossChanges() {
        let daily = UNCalendarNotificationTrigger(dateMatching: berlinComponents { $0.hour = 9; $0.minute = 0 }, repeats: true)
        var date = Self.beforeSpringForward
        var fired: [String] = []
        for _ in 0..<2 {
            date = daily.nextDate(after: date)!
            fired.append(Self.text(date))
        }
        #expect(fired == ["2026-03-29 09:00 +02", "2026-03-30 09:00 +02"])
        date = daily.nextDate(after: Self.beforeFallBack)!
        #expect(Self.text(date) == "2026-10-25 09:00 +01")
        #expect(date.timeIntervalSince(Self.beforeFallBack) == 22 * 3600, "21 hours on the clock, and the hour the night repeats")
    }

    @Test("A time the spring-forward night skips fires at the gap's end; one the autumn night repeats fires once")
    func skippedAndRepeatedTimes() {
        let half = UNCalendarNotificationTrigger(dateMatching: berlinComponents { $0.hour = 2; $0.minute = 30 }, repeats: true)
        let skipped = half.nextDate(after: Self.beforeSpringForward)!
        #expect(Self.text(skipped) == "2026-03-29 03:00 +02")
        let repeated = half.nextDate(after: Self.beforeFallBack)!
        #expect(Self.text(repeated) == "2026-10-25 02:30 +02")
        #expect(Self.text(half.nextDate(after: repeated)!) == "2026-10-26 02:30 +01", "not again an hour later")
    }

    @Test("Next Tuesday at 9, and a fully given date in the past never fires")
    func weekdayAndPast() {
        let tuesday = UNCalendarNotificationTrigger(
            dateMatching: berlinComponents { $0.weekday = 3; $0.hour = 9 }, repeats: false)
        #expect(Self.text(tuesday.nextDate(after: Self.beforeSpringForward)!) == "2026-03-31 09:00 +02")
        let past = UNCalendarNotificationTrigger(
            dateMatching: berlinComponents { $0.year = 2020; $0.month = 1; $0.day = 1; $0.hour = 9 }, repeats: false)
        #expect(past.nextDate(after: Self.beforeSpringForward) == nil)
    }

    @Test("JSON round trips; bad JSON names the member")
    func json() throws {
        let triggers: [any UNNotificationTrigger] = [
            UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false),
            UNCalendarNotificationTrigger(dateMatching: berlinComponents { $0.weekday = 3; $0.hour = 9 }, repeats: true),
            UNCalendarNotificationTrigger(dateMatching: DateComponents(year: 2026, month: 12, day: 1, hour: 9), repeats: false),
        ]
        for trigger in triggers {
            let text = try #require(TriggerJSON.encode(trigger))
            let back = try TriggerJSON.decode(text)
            #expect(TriggerJSON.encode(back) == text)
        }
        #expect(TriggerJSON.encode(UNPushNotificationTrigger()) == nil)
        let bad: [(String, String)] = [
            (#"{"type":"later"}"#, "trigger.type"),
            (#"{"type":"timeInterval"}"#, "trigger.timeInterval"),
            (#"{"type":"calendar","dateComponents":{"hours":9}}"#, "trigger.dateComponents.hours"),
            (#"{"type":"calendar","dateComponents":{"hour":"9"}}"#, "trigger.dateComponents.hour"),
            (#"{"type":"calendar","dateComponents":{},"timeZone":"Mars/Olympus"}"#, "trigger.timeZone"),
            ("[1]", "a JSON object"), ("{", "not JSON"),
        ]
        for (text, named) in bad {
            #expect(throws: TriggerJSON.Invalid.self) { try TriggerJSON.decode(text) }
            do { _ = try TriggerJSON.decode(text) } catch { #expect(error.message.contains(named), "\(error)") }
        }
    }
}
