#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser

/// A duration on the command line: a number and a unit, `500ms`, `30s`, `1.5m`, `2h`, `7d`, or
/// several from the largest unit down, added up: `1h30m`, `1m30s`, `1d12h`.
struct DurationArgument: ExpressibleByArgument, Sendable {
    /// The seconds.
    var seconds: Double

    /// The units, largest first: a compound duration names each at most once, in this order.
    private static let units: [(name: String, seconds: Double)] = [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1), ("ms", 0.001)]

    init?(argument: String) {
        var rest = Substring(argument)
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        var total = 0.0
        var nextUnit = 0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(number.count)
            let name = rest.prefix { $0.isASCII && $0.isLetter }
            rest = rest.dropFirst(name.count)
            guard !number.isEmpty, let value = Double(number), value.isFinite,
                let unit = Self.units.indices.first(where: { Self.units[$0].name == name }), unit >= nextUnit
            else { return nil }
            total += value * Self.units[unit].seconds
            nextUnit = unit + 1
        }
        guard nextUnit > 0, total.isFinite else { return nil }
        seconds = negative ? -total : total
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// Dates as the command line prints them: ISO 8601 in the computer's time zone, with its offset
/// (`2026-01-31T09:00:00+01:00`), the zone `--at` and `--start` are read in.
enum LocalDateText {
    /// `date` in the computer's time zone.
    static func text(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: .current))
    }
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
