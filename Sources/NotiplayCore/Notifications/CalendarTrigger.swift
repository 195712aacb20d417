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
/// it repeats (the autumn night) fires once, the first time.
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

    /// The first date after `date` that matches, or `nil` if none does.
    package func nextDate(after date: Date) -> Date? {
        let calendar = matchingCalendar
        var components = dateComponents
        components.calendar = nil
        components.timeZone = nil
        return calendar.nextDate(
            after: date, matching: components, matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward)
    }

    /// The calendar the components are matched in.
    var matchingCalendar: Calendar {
        var calendar = dateComponents.calendar ?? Calendar(identifier: .gregorian)
        calendar.timeZone = dateComponents.timeZone ?? dateComponents.calendar?.timeZone ?? TimeZone.current
        return calendar
    }
}
