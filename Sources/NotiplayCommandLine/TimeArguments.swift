#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser

/// A duration on the command line: a number and a unit, `500ms`, `30s`, `1.5m`, `2h`, `7d`.
struct DurationArgument: ExpressibleByArgument, Sendable {
    /// The seconds.
    var seconds: Double

    init?(argument: String) {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
        for (unit, scale) in units where argument.hasSuffix(unit) {
            let number = argument.dropLast(unit.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }),
                let value = Double(number), value.isFinite
            else { return nil }
            seconds = value * scale
            return
        }
        return nil
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// A local date and time on the command line: `2026-12-01T09:00` or `2026-12-01T09:00:30`,
/// read in the computer's time zone.
struct LocalDateArgument: ExpressibleByArgument, Sendable {
    /// The components given (year to minute or second), without a time zone.
    var components: DateComponents

    init?(argument: String) {
        let halves = argument.split(separator: "T", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let day = halves[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let time = halves[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard day.count == 3, (2...3).contains(time.count), !day.contains(nil), !time.contains(nil),
            halves[0].count == 10, let year = day[0], let month = day[1], let dayOfMonth = day[2],
            let hour = time[0], let minute = time[1]
        else { return nil }
        let second = time.count == 3 ? time[2]! : nil
        var components = DateComponents(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: second)
        // Checked by the calendar: 2026-02-30 or 25:00 is no date.
        let calendar = Calendar.current
        guard (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute),
            (0...59).contains(second ?? 0), let date = calendar.date(from: components),
            calendar.component(.day, from: date) == dayOfMonth
        else { return nil }
        if second == nil { components.second = 0 }
        self.components = components
    }

    /// The date in the computer's time zone (a time the spring-forward night skips moves on).
    var date: Date? { Calendar.current.date(from: components) }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// How `send --at DATE --repeat` repeats: which of the date's components a later date must match.
enum RepeatForm: String, CaseIterable, ExpressibleByArgument, Sendable {
    case hourly, daily, weekly, monthly, yearly

    /// The components of `date` kept, for a calendar trigger matching them.
    func components(of date: LocalDateArgument) -> DateComponents {
        let c = date.components
        switch self {
        case .hourly: return DateComponents(minute: c.minute, second: c.second)
        case .daily: return DateComponents(hour: c.hour, minute: c.minute, second: c.second)
        case .weekly:
            var kept = DateComponents(hour: c.hour, minute: c.minute, second: c.second)
            kept.weekday = date.date.map { Calendar.current.component(.weekday, from: $0) }
            return kept
        case .monthly: return DateComponents(day: c.day, hour: c.hour, minute: c.minute, second: c.second)
        case .yearly: return DateComponents(month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second)
        }
    }
}
