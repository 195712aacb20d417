#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import NotiplayCore

/// Scheduled requests: stored as pending with their next date, fired on the center's time,
/// put back after a restart (those missed while the server was down fire at once, late).
extension CenterService {
    /// Why a scheduled request was refused.
    package enum ScheduleRefusal: Error, Equatable, CustomStringConvertible {
        /// Apple's refusal of the trigger ("time interval must be at least 60 if repeating").
        case invalidTrigger(String)
        /// The trigger never fires (a calendar date in the past; Apple:
        /// `UNError.notificationInvalidNoDate`).
        case noDate
        /// The trigger first fires further away than ``PendingSchedule/horizon``.
        case beyondHorizon

        package var description: String {
            switch self {
            case .invalidTrigger(let message): message
            case .noDate: "the trigger has no date in the future: the notification would never be delivered"
            case .beyondHorizon:
                "the trigger's first date is more than \(PendingSchedule.horizonText) away: nothing is scheduled that far ahead"
            }
        }
    }

    /// When `trigger`, added now, fires first; throws when Apple would refuse it, it never
    /// fires, or it first fires past ``PendingSchedule/horizon``.
    package func firstDate(of trigger: any UNNotificationTrigger) throws(ScheduleRefusal) -> Date {
        if let interval = trigger as? UNTimeIntervalNotificationTrigger, let problem = interval.problem {
            throw .invalidTrigger(problem)
        }
        let now = time.now
        guard let date = PendingSchedule.next(trigger, scheduledAt: now, after: now) else { throw .noDate }
        guard date.timeIntervalSince(now) <= PendingSchedule.horizon else { throw .beyondHorizon }
        return date
    }

    /// Puts the store's pending requests on the schedule (after a restart); those whose date
    /// passed fire now, marked late.
    func restoreSchedule() {
        let pending = (try? store.pending()) ?? []
        for stored in pending {
            guard let text = stored.trigger, let trigger = try? TriggerJSON.decode(text) else { continue }
            let next =
                stored.nextDate
                ?? PendingSchedule.next(trigger, scheduledAt: stored.arrivedAt, after: stored.arrivedAt)
            guard let next else { continue }
            schedule.restore(stored.identifier, trigger: trigger, scheduledAt: stored.arrivedAt, next: next)
        }
        fireDue()
    }

    /// A stored pending request goes on the schedule.
    func scheduled(_ stored: StoredNotification, trigger: any UNNotificationTrigger) {
        schedule.add(stored.identifier, trigger: trigger, scheduledAt: stored.arrivedAt)
        armTimer()
    }

    /// Pending requests left the store: off the schedule too.
    func unscheduled(_ identifiers: [String]) {
        if !schedule.remove(identifiers).isEmpty { armTimer() }
    }

    /// The number of pending requests.
    package var pendingCount: Int { schedule.entries.count }

    /// Fires what is due now, in date order; a date that passed long ago (the server was down)
    /// fires once, late (``PendingSchedule/due(at:)``).
    func fireDue() {
        deliver(schedule.due(at: time.now))
        armTimer()
    }

    /// Delivers what the schedule fired (it has moved on already), then prunes the history: each
    /// delivery of a repeating request replaced the one before.
    private func deliver(_ firings: [PendingSchedule.Firing]) {
        for firing in firings {
            let next = firing.staysPending ? schedule.entries[firing.identifier]?.next : nil
            guard let delivered = try? store.fire(firing.identifier, dueAt: firing.date, next: next) else { continue }
            emit(.fired(identifier: firing.identifier, late: firing.late))
            arrived(delivered)
        }
        if !firings.isEmpty { try? pruneHistory() }
    }

    /// Moves a virtual clock on by `seconds` (at most ``PendingSchedule/horizon``; the center's
    /// requests refuse more): what falls due meanwhile fires in date order, each at its own date,
    /// up to ``PendingSchedule/firingsPerAdvance`` firings; what is still due after them fires
    /// once at the end, late, as after a restart. Returns the time after.
    package func advance(by seconds: Double) -> Date {
        let target = time.now.addingTimeInterval(min(max(0, seconds), PendingSchedule.horizon))
        var fired = 0
        while let stop = schedule.advanceStep(toward: target, firedSoFar: fired) {
            time.move(to: stop.moment)
            deliver(stop.firings)
            fired += stop.firings.count
        }
        time.move(to: target)
        armTimer()
        expireDue()
        return time.now
    }

    /// On the system's time, wakes up at the next date (at most a minute away, so that a change
    /// of the system's clock is noticed); a virtual time moves only by ``advance(by:)``.
    func armTimer() {
        timer?.cancel()
        timer = nil
        guard let next = schedule.nextDate else { return }
        timer = wakeUp(at: next) { center in
            center.timer = nil
            center.fireDue()
        }
    }

    /// On the system's time, a task that calls `body` at `date` (or in a minute, whichever is
    /// sooner, so that a change of the system's clock is noticed); `nil` on a virtual time,
    /// which moves only by ``advance(by:)``.
    func wakeUp(at date: Date, _ body: @escaping @MainActor (CenterService) -> Void) -> Task<Void, Never>? {
        guard !time.isVirtual else { return nil }
        let delay = min(max(0, date.timeIntervalSince(time.now)), 60)
        return Task { @MainActor [weak self] in
            try? await Task.sleep(for: .seconds(delay), tolerance: .zero)
            guard !Task.isCancelled, let self else { return }
            body(self)
        }
    }
}
