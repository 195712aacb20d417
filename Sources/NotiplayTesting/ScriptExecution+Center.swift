import Notiplay
import NotiplayCore
import NotiplayScript

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The center's steps: `serve`, `send`, `advance`, `restart`, `focus` and their checks.
extension ScriptExecution {
    func performCenterStep(_ kind: ScriptStep.Kind) async throws {
        if case .serve(let start) = kind {
            try serve(start: start)
            return
        }
        guard let center else { throw StepFailure("the center's steps need `serve` first") }
        switch kind {
        case .send(let payload, let attachments, let identifier, let trigger):
            do {
                _ = try center.send(payload: payload, attachments: attachments, identifier: identifier, trigger: try Self.trigger(trigger))
            } catch let failure as StepFailure {
                throw failure
            } catch {
                throw StepFailure("send: \(error)")
            }
            await center.settle()
        case .advance(let duration):
            center.advance(by: Self.seconds(duration))
            await center.settle()
        case .restart(let after):
            host = nil
            try await center.restart(after: after.map(Self.seconds) ?? 0)
            await center.settle()
        case .focus(let on):
            center.setFocus(on)
        case .expectPending(let count):
            guard center.pendingCount == count else {
                throw StepFailure("expected \(count) pending, found \(center.pendingCount)")
            }
        case .expectDelivered(let identifier, let late, let count):
            let deliveries = center.deliveries(of: identifier).filter { !late || $0 }
            let what = late ? "delivered late" : "delivered"
            if let count, deliveries.count != count {
                throw StepFailure("expected \"\(identifier)\" \(what) \(count) times, it was \(deliveries.count) times")
            }
            if count == nil, deliveries.isEmpty { throw StepFailure("\"\(identifier)\" was not \(what)") }
        case .expectNotDelivered(let identifier):
            let count = center.deliveries(of: identifier).count
            guard count == 0 else { throw StepFailure("\"\(identifier)\" was delivered (\(count) times)") }
        case .expectSound(let name, let queued):
            let sounds = center.sounds
            guard let index = sounds.indices.first(where: { $0 >= soundCursor && sounds[$0].name == name && (!queued || sounds[$0].queued) })
            else {
                let heard = sounds[min(soundCursor, sounds.count)...].map { "\($0.name)\($0.queued ? " (queued)" : "")" }
                throw StepFailure("no \(queued ? "queued " : "")sound \"\(name)\"; since the last check: \(heard.isEmpty ? "none" : heard.joined(separator: ", "))")
            }
            soundCursor = index + 1
        case .expectNoSound:
            let sounds = center.sounds
            guard sounds.count <= soundCursor else {
                throw StepFailure("a sound played: \(sounds[soundCursor...].map(\.name).joined(separator: ", "))")
            }
        default:
            break
        }
    }

    private func serve(start: ScriptDate) throws {
        guard let make = runner.makeCenter else {
            throw StepFailure("this runner cannot start a notification center (run the script with `notiplay test`)")
        }
        guard extensions == nil else {
            throw StepFailure("with `serve`, name the extensions' folder in the app file (\"extensions\"), not with `extensions`")
        }
        guard let date = Self.date(start) else { throw StepFailure("\(start) is not a date in the local time zone") }
        do {
            center = try make(ScriptCenterSetup(apps: app.map { [$0] } ?? [], start: date, types: runner.types, untimed: runner.untimed))
        } catch {
            throw StepFailure("serve: \(error)")
        }
    }

    /// The host over the card the center shows now.
    func shownCard() throws -> NotificationTestHost {
        guard let center, let shown = center.shownSession else { throw StepFailure("the center shows no card") }
        if let host, host.session === shown { return host }
        let made = NotificationTestHost(showing: shown, engine: center.engine, audio: runner.untimed ? .untimed : .realTime)
        host = made
        observe(made)
        return made
    }

    static func date(_ date: ScriptDate) -> Date? {
        Calendar.current.date(from: components(date))
    }

    static func components(_ date: ScriptDate) -> DateComponents {
        DateComponents(year: date.year, month: date.month, day: date.day, hour: date.hour, minute: date.minute, second: date.second)
    }

    /// The trigger a `send` step asks for.
    static func trigger(_ trigger: ScriptStep.Trigger?) throws -> (any UNNotificationTrigger)? {
        switch trigger {
        case nil:
            return nil
        case .timeInterval(let duration, let repeats):
            return UNTimeIntervalNotificationTrigger(timeInterval: seconds(duration), repeats: repeats)
        case .calendar(let date, let recurrence):
            var kept: DateComponents
            switch recurrence {
            case nil: kept = components(date)
            case .hourly?: kept = DateComponents(minute: date.minute, second: date.second)
            case .daily?: kept = DateComponents(hour: date.hour, minute: date.minute, second: date.second)
            case .weekly?:
                kept = DateComponents(hour: date.hour, minute: date.minute, second: date.second)
                kept.weekday = date.weekday
            case .monthly?: kept = DateComponents(day: date.day, hour: date.hour, minute: date.minute, second: date.second)
            case .yearly?: kept = DateComponents(month: date.month, day: date.day, hour: date.hour, minute: date.minute, second: date.second)
            }
            return UNCalendarNotificationTrigger(dateMatching: kept, repeats: recurrence != nil)
        }
    }
}
