#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The pending requests of the center and when each fires next: which are due at a moment, in
/// the order of their dates, and what a repeating one does after it fired. Pure: the moment is
/// always given, by the server's clock (the system's, or a test's virtual one).
///
/// As in Apple's center, a request with an identifier already pending replaces it; a repeating
/// request stays pending after it fires, with its next date; a request whose date passed while
/// nothing looked (the server was down) fires once when asked, marked late, and a repeating one
/// then goes on from the moment asked, without firing for every date it missed.
///
/// A virtual clock's advance (``advanceStep(toward:firedSoFar:)``) fires what falls due at its
/// own dates, in date order, up to ``firingsPerAdvance`` firings; past that, the clock jumps to
/// the advance's end, and what is still due fires once there, late, as after a restart. Nothing
/// fires further than ``horizon`` ahead of now: a trigger or an advance past it is refused.
package struct PendingSchedule: Sendable {
    /// A pending request.
    package struct Entry: Sendable {
        /// The request's identifier.
        package var identifier: String
        /// What fires it.
        package var trigger: any UNNotificationTrigger
        /// When it was added.
        package var scheduledAt: Date
        /// When it fires next.
        package var next: Date
    }

    /// One firing, from ``due(at:)``.
    package struct Firing: Sendable, Equatable {
        /// The request's identifier.
        package var identifier: String
        /// The date it was due at.
        package var date: Date
        /// Whether it was due before the moment asked by more than ``lateness``: missed while
        /// the server was down, or skipped by a long advance of a virtual clock.
        package var late: Bool
        /// Whether it stays pending (it repeats, and has a next date).
        package var staysPending: Bool
    }

    /// Where an advance of a virtual clock stops, and what fires there.
    package struct Stop: Sendable, Equatable {
        /// The moment the clock moves to.
        package var moment: Date
        /// What fires there, oldest date first.
        package var firings: [Firing]
    }

    /// How long after its date a firing still counts as on time.
    package static let lateness: TimeInterval = 1

    /// The furthest ahead anything may be scheduled, and the longest advance of a virtual clock:
    /// 3650 days (ten years). A trigger whose first date is further away, or a longer advance,
    /// is refused rather than clamped.
    package static let horizon: TimeInterval = 3_650 * 86_400

    /// How the horizon is named in messages.
    package static let horizonText = "3650 days (10 years)"

    /// How many firings one advance of a virtual clock makes at their own dates; after them,
    /// what is still due before the advance's end fires once, late, at its end.
    package static let firingsPerAdvance = 100

    /// The pending requests, by identifier.
    package private(set) var entries: [String: Entry] = [:]

    /// No pending requests.
    package init() {}

    /// Adds (or replaces) request `identifier`, added at `scheduledAt`; returns when it fires
    /// first, or `nil` when it never will (nothing is added then: a calendar date in the past,
    /// or a trigger Apple refuses).
    @discardableResult
    package mutating func add(_ identifier: String, trigger: any UNNotificationTrigger, scheduledAt: Date) -> Date? {
        entries[identifier] = nil
        guard let next = Self.next(trigger, scheduledAt: scheduledAt, after: scheduledAt) else { return nil }
        entries[identifier] = Entry(identifier: identifier, trigger: trigger, scheduledAt: scheduledAt, next: next)
        return next
    }

    /// Puts back a request the store kept (after a restart), with the date it was to fire next;
    /// one whose date passed fires, late, at the next ``due(at:)``.
    package mutating func restore(_ identifier: String, trigger: any UNNotificationTrigger, scheduledAt: Date, next: Date) {
        entries[identifier] = Entry(identifier: identifier, trigger: trigger, scheduledAt: scheduledAt, next: next)
    }

    /// Removes requests; returns those that were pending.
    @discardableResult
    package mutating func remove(_ identifiers: some Sequence<String>) -> [String] {
        identifiers.filter { entries.removeValue(forKey: $0) != nil }
    }

    /// The earliest date a request fires at, if any is pending.
    package var nextDate: Date? {
        entries.values.lazy.map(\.next).min()
    }

    /// The requests due at `now`, oldest date first (then by identifier): each fires once; a
    /// repeating one moves on to its first date after `now`, the others leave the schedule.
    /// A date passed long ago fires once, late: this is where missed dates coalesce.
    package mutating func due(at now: Date) -> [Firing] {
        let due = entries.values.filter { $0.next <= now }.sorted { ($0.next, $0.identifier) < ($1.next, $1.identifier) }
        return due.map { entry in
            let following = entry.trigger.repeats ? Self.next(entry.trigger, scheduledAt: entry.scheduledAt, after: now) : nil
            entries[entry.identifier] = following.map { next in
                var moved = entry
                moved.next = next
                return moved
            }
            return Firing(
                identifier: entry.identifier, date: entry.next, late: now.timeIntervalSince(entry.next) > Self.lateness,
                staysPending: following != nil)
        }
    }

    /// The next stop of a virtual clock's advance to `target`, `firedSoFar` firings into it, and
    /// what fires there (the schedule moves on past it); `nil` when nothing more is due by
    /// `target`. Until ``firingsPerAdvance`` firings, the stop is the earliest date due, so each
    /// fires at its own date; after them it is `target`, where what is still due fires once,
    /// late (``due(at:)``), and the advance ends.
    package mutating func advanceStep(toward target: Date, firedSoFar: Int) -> Stop? {
        guard let next = nextDate, next <= target else { return nil }
        let moment = firedSoFar < Self.firingsPerAdvance ? next : target
        return Stop(moment: moment, firings: due(at: moment))
    }

    /// A whole advance to `target` at once (``advanceStep(toward:firedSoFar:)`` until it is
    /// over): its stops, in order. The center takes the steps one by one, delivering between.
    package mutating func advance(to target: Date) -> [Stop] {
        var stops: [Stop] = []
        var fired = 0
        while let stop = advanceStep(toward: target, firedSoFar: fired) {
            stops.append(stop)
            fired += stop.firings.count
        }
        return stops
    }

    /// The first date after `date` that `trigger`, added at `scheduledAt`, fires at.
    package static func next(_ trigger: any UNNotificationTrigger, scheduledAt: Date, after date: Date) -> Date? {
        switch trigger {
        case let interval as UNTimeIntervalNotificationTrigger:
            interval.nextDate(scheduledAt: scheduledAt, after: date)
        case let calendar as UNCalendarNotificationTrigger:
            calendar.nextDate(after: date)
        default:
            nil
        }
    }
}
