#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A notification delivered when the date matches components, once or every time it does (Apple:
/// `UNCalendarNotificationTrigger`).
///
/// The components are matched in their own calendar and time zone when they carry one, else in
/// the Gregorian calendar and the time zone the computer is set to, as iOS does: `hour: 9`
/// fires at nine local time, before and after a daylight-saving change. A time the change skips
/// (02:30 on the spring-forward night) fires at the first moment after the gap (03:00); a time
/// it repeats (the autumn night) fires once, the first time. A day that does not exist is
/// skipped, as on iOS: the 31st every month fires on 31 January, 31 March, 31 May…, and
/// 29 February every year only in leap years, each at the time asked.
public struct UNCalendarNotificationTrigger: UNNotificationTrigger, Hashable {
    /// The components a date must match.
    public let dateComponents: DateComponents
    /// Whether it fires every time the date matches, not only the first.
    public let repeats: Bool

    /// A trigger firing when the date matches `dateComponents` (Apple: `init(dateMatching:repeats:)`).
    public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.dateComponents = dateComponents
        self.repeats = repeats
    }

    /// The next date after now that matches, or `nil` if none will (Apple: `nextTriggerDate()`).
    public func nextTriggerDate() -> Date? {
        nextDate(after: Date())
    }

    /// The first date after `date` that matches, or `nil` if none does (in the next
    /// ``searchedMatches`` the calendar offers: 30 February never comes).
    package func nextDate(after date: Date) -> Date? {
        let calendar = matchingCalendar
        var components = dateComponents
        components.calendar = nil
        components.timeZone = nil
        var after = date
        for _ in 0..<Self.searchedMatches {
            // `.nextTime` moves a time a daylight-saving change skips to the gap's end, but also
            // a day the month lacks to the next day's midnight (31 April → 1 May, 00:00): such a
            // date is no match, and the search goes on from it.
            guard
                let found = calendar.nextDate(
                    after: after, matching: components, matchingPolicy: .nextTime, repeatedTimePolicy: .first,
                    direction: .forward),
                found > after
            else { return nil }
            if matchesDay(found, in: calendar) { return found }
            after = found
        }
        return nil
    }

    /// How many dates the calendar offers before the search gives up: a 29 February is at most
    /// eight years away (2096 to 2104), one date offered a year.
    static let searchedMatches = 12

    /// Whether `date` falls on a day the components ask for: its era, year, month, day, weekday
    /// and weekday ordinal are those asked. (The hour, minute and second may differ where a
    /// daylight-saving change skips them; the week-based components are left to the calendar.)
    func matchesDay(_ date: Date, in calendar: Calendar) -> Bool {
        let dayComponents: [Calendar.Component] = [.era, .year, .month, .day, .weekday, .weekdayOrdinal]
        let asked = dayComponents.filter { dateComponents.value(for: $0) != nil }
        guard !asked.isEmpty else { return true }
        let actual = calendar.dateComponents(Set(asked), from: date)
        return asked.allSatisfy { actual.value(for: $0) == dateComponents.value(for: $0) }
    }

    /// The calendar the components are matched in.
    var matchingCalendar: Calendar {
        var calendar = dateComponents.calendar ?? Calendar(identifier: .gregorian)
        calendar.timeZone = dateComponents.timeZone ?? dateComponents.calendar?.timeZone ?? TimeZone.current
        return calendar
    }
}
