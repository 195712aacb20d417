// Foundation whole, not only FoundationEssentials: named time zones need its ICU part, as in
// the notiplay binary.
import Foundation
import FuzzSupport
import NotiplayCore

/// The schedule's arithmetic: up to three repeating requests (a time interval, or a calendar
/// trigger hourly, daily, weekly, monthly or yearly, as `send --at … --repeat` makes them, in one
/// of a few time zones, some with daylight-saving changes), then up to four advances of a
/// virtual clock, each as the center takes it (``PendingSchedule/advance(to:)``).
///
/// Settings, per request: its form, its zone, four bytes of interval or of date components.
/// Then the start (four bytes), then four bytes per advance (1 s to the horizon).
///
/// Oracles: each request's firings come in date order, each after the one before, never after
/// the stop they fire at; after an advance every next date is after its end; a calendar repeat
/// fires on a day it asks for (the 31st, 29 February, the weekday) at the time it asks for (but
/// where a daylight-saving change skips that time); an advance fires at most
/// ``PendingSchedule/firingsPerAdvance`` plus twice the requests, and only its last stop is late.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(LibFuzzer.bytes(data, size))
    let count = 1 + Int(input.byte()) % 3
    let requests = (0..<count).map { _ in FuzzRequest(&input) }
    // From 2000 to about 2136.
    var now = Date(timeIntervalSince1970: 946_684_800 + Double(input.word()))
    var schedule = PendingSchedule()
    for (index, request) in requests.enumerated() {
        schedule.add("r\(index)", trigger: request.trigger, scheduledAt: now)
    }
    var last: [String: Date] = [:]
    for _ in 0..<4 where !input.isAtEnd {
        let target = now.addingTimeInterval(1 + Double(input.word() % UInt32(PendingSchedule.horizon)))
        let stops = schedule.advance(to: target)
        let fired = stops.reduce(0) { $0 + $1.firings.count }
        if fired > PendingSchedule.firingsPerAdvance + 2 * count {
            oracleFailure("an advance of \(target.timeIntervalSince(now)) s fired \(fired) times (\(count) requests)")
        }
        var moment = now
        for (number, stop) in stops.enumerated() {
            if stop.moment < moment || stop.moment > target { oracleFailure("a stop at \(stop.moment) after \(moment), before \(target)") }
            moment = stop.moment
            if number < stops.count - 1, stop.firings.contains(where: \.late) { oracleFailure("a late firing before the last stop") }
            for firing in stop.firings {
                if firing.date > stop.moment { oracleFailure("\(firing) fired early, at \(stop.moment)") }
                if let previous = last[firing.identifier], firing.date <= previous {
                    oracleFailure("\(firing.identifier) fired at \(firing.date), not after \(previous)")
                }
                last[firing.identifier] = firing.date
                let index = Int(firing.identifier.dropFirst())!
                requests[index].checkDay(of: firing.date)
            }
        }
        if let next = schedule.nextDate, next <= target { oracleFailure("\(next) still due after the advance to \(target)") }
        now = target
    }
    return 0
}

/// One request of an input: its trigger, and what a calendar one keeps.
struct FuzzRequest {
    static let zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo"]
    let trigger: any UNNotificationTrigger
    let components: DateComponents?
    let zone: TimeZone

    init(_ input: inout FuzzInput) {
        let form = Int(input.byte()) % 6
        zone = TimeZone(identifier: Self.zones[Int(input.byte()) % Self.zones.count])!
        let word = input.word()
        guard form > 0 else {
            let interval = UNTimeIntervalNotificationTrigger(
                timeInterval: 60 + Double(word % UInt32(PendingSchedule.horizon - 60)), repeats: true)
            trigger = interval
            components = nil
            return
        }
        var kept = DateComponents(minute: Int(word % 60), second: Int(word / 60 % 60))
        let hour = Int(word / 3_600 % 24)
        let day = 1 + Int(word / 86_400 % 31)
        let month = 1 + Int(word / 2_678_400 % 12)
        switch form {
        case 1: break
        case 2: kept.hour = hour
        case 3: (kept.hour, kept.weekday) = (hour, 1 + day % 7)
        case 4: (kept.hour, kept.day) = (hour, day)
        default: (kept.hour, kept.day, kept.month) = (hour, min(day, [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]), month)
        }
        kept.timeZone = zone
        components = kept
        trigger = UNCalendarNotificationTrigger(dateMatching: kept, repeats: true)
    }

    /// Records an oracle failure unless `date` is on a day the request asks for, at its time.
    func checkDay(of date: Date) {
        guard let components else { return }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let actual = calendar.dateComponents([.month, .day, .weekday, .hour, .minute, .second], from: date)
        for key: Calendar.Component in [.month, .day, .weekday] {
            if let asked = components.value(for: key), actual.value(for: key) != asked {
                oracleFailure("\(components) fired at \(date): \(key) is \(String(describing: actual.value(for: key)))")
            }
        }
        let time = [Calendar.Component.hour, .minute, .second].allSatisfy { key in
            components.value(for: key).map { $0 == actual.value(for: key) } ?? true
        }
        // Only where a daylight-saving change skips the time asked: then at the gap's end.
        let skipped = zone.nextDaylightSavingTimeTransition(after: date.addingTimeInterval(-86_400)).map {
            abs($0.timeIntervalSince(date)) <= 86_400
        } ?? false
        if !time && !skipped { oracleFailure("\(components) fired at \(date), at another time of day") }
    }
}

extension FuzzInput {
    /// The next four bytes, big-endian (0 past the end).
    mutating func word() -> UInt32 {
        (0..<4).reduce(0) { value, _ in value << 8 | UInt32(byte()) }
    }
}

/// Hands the process to libFuzzer with this target (called from `main.swift`; the C function
/// is taken here, in its own file, so that the compiler emits it once).
func runFuzzTarget() -> Never {
    LibFuzzer.run(LLVMFuzzerTestOneInput)
}
