import Foundation
@testable import NotiplayCore
import Testing

/// The center's pending requests on a clock the test moves: what is due when, what repeats, what
/// a restart finds late, and how far a virtual clock's advance fires.
@Suite struct PendingScheduleTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("A 30 s request fires once at its date, not before; it then leaves the schedule")
    func once() {
        var schedule = PendingSchedule()
        let first = schedule.add("memo", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false), scheduledAt: start)
        #expect(first == start + 30)
        #expect(schedule.due(at: start + 29.999).isEmpty)
        #expect(schedule.due(at: start + 30) == [.init(identifier: "memo", date: start + 30, late: false, staysPending: false)])
        #expect(schedule.entries.isEmpty && schedule.nextDate == nil)
    }

    @Test("A repeating request stays pending with its next date; the earliest of several fires first")
    func repeatingAndOrder() {
        var schedule = PendingSchedule()
        schedule.add("hourly", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: true), scheduledAt: start)
        schedule.add("soon", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false), scheduledAt: start)
        #expect(schedule.nextDate == start + 60)
        #expect(schedule.due(at: start + 3600).map(\.identifier) == ["soon", "hourly"])
        #expect(schedule.nextDate == start + 7200)
        #expect(schedule.due(at: start + 7200).first?.staysPending == true)
    }

    @Test("Missed while down: fires once, late; a repeating one goes on from now without a burst")
    func missed() {
        var schedule = PendingSchedule()
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)
        schedule.restore("minutely", trigger: trigger, scheduledAt: start, next: start + 60)
        let fired = schedule.due(at: start + 3600 + 30)
        #expect(fired == [.init(identifier: "minutely", date: start + 60, late: true, staysPending: true)])
        #expect(schedule.nextDate == start + 3660)
    }

    @Test("The same identifier replaces; removal, a past date and Apple's refusals leave nothing pending")
    func replaceAndRefuse() {
        var schedule = PendingSchedule()
        schedule.add("a", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false), scheduledAt: start)
        schedule.add("a", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 90, repeats: false), scheduledAt: start)
        #expect(schedule.entries.count == 1 && schedule.nextDate == start + 90)
        #expect(schedule.remove(["a", "b"]) == ["a"])
        #expect(schedule.add("b", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: true), scheduledAt: start) == nil)
        #expect(schedule.add("c", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 0, repeats: false), scheduledAt: start) == nil)
        let past = UNCalendarNotificationTrigger(
            dateMatching: DateComponents(timeZone: TimeZone(identifier: "UTC"), year: 2020, month: 1, day: 1, hour: 9), repeats: false)
        #expect(schedule.add("d", trigger: past, scheduledAt: start) == nil)
        #expect(schedule.entries.isEmpty)
    }

    @Test("A year's advance on a 60 s repeat: 100 firings at their own dates, then the rest once, late, at the end")
    func boundedAdvance() {
        var schedule = PendingSchedule()
        schedule.add("m", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true), scheduledAt: start)
        schedule.add("once", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 86_400, repeats: false), scheduledAt: start)
        let end = start + 365 * 86_400
        let stops = schedule.advance(to: end)
        #expect(PendingSchedule.firingsPerAdvance == 100)
        #expect(stops.count == 101)
        #expect(stops.dropLast().map(\.moment) == (1...100).map { start + Double($0) * 60 })
        #expect(stops.dropLast().allSatisfy { $0.firings.count == 1 && !$0.firings[0].late })
        #expect(
            stops.last == .init(
                moment: end,
                firings: [
                    .init(identifier: "m", date: start + 101 * 60, late: true, staysPending: true),
                    .init(identifier: "once", date: start + 86_400, late: true, staysPending: false),
                ]))
        #expect(schedule.nextDate == end + 60 && schedule.entries.count == 1)
        // The next advance starts afresh: on time again.
        #expect(schedule.advance(to: end + 60) == [.init(moment: end + 60, firings: [.init(identifier: "m", date: end + 60, late: false, staysPending: true)])])
        #expect(schedule.advance(to: end + 119).isEmpty)
    }

    /// The dates a repeating calendar request fires at, from `start` on, `count` of them.
    func firings(_ components: DateComponents, from start: Date, count: Int) -> [String] {
        var schedule = PendingSchedule()
        schedule.add("r", trigger: UNCalendarNotificationTrigger(dateMatching: components, repeats: true), scheduledAt: start)
        var dates: [String] = []
        while dates.count < count, let next = schedule.nextDate {
            dates += schedule.due(at: next).map { $0.date.formatted(.iso8601) }
        }
        return dates
    }

    @Test("Monthly on the 31st skips the months without one and keeps 09:00; yearly on 29 February only in leap years")
    func calendarDaysSomeMonthsLack() {
        let utc = TimeZone(identifier: "UTC")!
        let january = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00Z
        let monthly = DateComponents(timeZone: utc, day: 31, hour: 9, minute: 0, second: 0)
        #expect(
            firings(monthly, from: january, count: 8) == [
                "2026-01-31T09:00:00Z", "2026-03-31T09:00:00Z", "2026-05-31T09:00:00Z", "2026-07-31T09:00:00Z",
                "2026-08-31T09:00:00Z", "2026-10-31T09:00:00Z", "2026-12-31T09:00:00Z", "2027-01-31T09:00:00Z",
            ])
        let leapDay = DateComponents(timeZone: utc, month: 2, day: 29, hour: 9, minute: 0, second: 0)
        #expect(firings(leapDay, from: january, count: 3) == ["2028-02-29T09:00:00Z", "2032-02-29T09:00:00Z", "2036-02-29T09:00:00Z"])
        // 30 February never comes: nothing is scheduled.
        var schedule = PendingSchedule()
        let never = DateComponents(timeZone: utc, month: 2, day: 30, hour: 9)
        #expect(schedule.add("x", trigger: UNCalendarNotificationTrigger(dateMatching: never, repeats: true), scheduledAt: january) == nil)
    }
}
