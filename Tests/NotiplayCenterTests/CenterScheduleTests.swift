import Foundation
import Notiplay
@testable import NotiplayCenter
import NotiplayCenterClient
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// Scheduled requests on a virtual time: each fires at its date, exactly; the store keeps
    /// them across a restart, and one missed while the server was down is delivered late.
    @MainActor
    @Suite(.serialized) struct CenterScheduleTests {
        static let payload = "{\"aps\":{\"alert\":{\"title\":\"Nag\"}}}"
        /// 2026-03-28 09:00 in Berlin: the spring-forward night (29 March) follows.
        static let start = Date(timeIntervalSince1970: 1_774_684_800)

        struct Center {
            let service: CenterService
            let time: CenterTime
            let folder: String
            var events: EventBox
        }

        @MainActor final class EventBox {
            var events: [CenterService.Event] = []
            var fired: [(String, Bool, Date)] = []
        }

        func open(_ folder: String, time: CenterTime, engine: MPVEngine) throws -> (CenterService, EventBox) {
            let app = CenterService.App(
                definition: AppDefinition(name: "Nag Me", categories: [], extensionsDirectory: nil, forwardedActions: .printOnly),
                registry: try ExtensionRegistry([]))
            let store = try CenterStore.open(folder: folder, now: { time.now })
            let service = CenterService(store: store, apps: [app], types: ExtensionTypes(), engine: engine, time: time)
            let box = EventBox()
            service.observe { event in
                box.events.append(event)
                if case .fired(let identifier, let late) = event { box.fired.append((identifier, late, time.now)) }
            }
            try service.restore()
            return (service, box)
        }

        func withCenter(_ body: @MainActor (CenterService, CenterTime, EventBox, String, MPVEngine) async throws -> Void) async throws {
            let folder = try TestMedia.scratch().appendingPathComponent("store").path
            let time = CenterTime.virtual(startingAt: Self.start)
            let engine = try MPVEngine(output: .null(untimed: true))
            let (service, box) = try open(folder, time: time, engine: engine)
            try await body(service, time, box, folder, engine)
            await service.close()
            await engine.shutdown()
        }

        func incoming(_ id: String, app: String = "Nag Me", trigger: any UNNotificationTrigger) -> IncomingNotification {
            IncomingNotification(identifier: id, app: app, payload: Self.payload, trigger: TriggerJSON.encode(trigger))
        }

        @Test("A 30 s request fires at 30 s, not at 29: pending until then, delivered after")
        func interval() async throws {
            try await withCenter { service, time, box, _, _ in
                let stored = try service.receive(incoming("nag", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false)))
                #expect(stored.state == .pending)
                #expect(stored.nextDate == Self.start.addingTimeInterval(30))
                #expect(service.pendingCount == 1)
                _ = service.advance(by: 29)
                #expect(box.fired.isEmpty)
                #expect(try service.store.pending().map(\.identifier) == ["nag"])
                _ = service.advance(by: 1)
                #expect(box.fired.map(\.0) == ["nag"] && box.fired.map(\.2) == [Self.start.addingTimeInterval(30)])
                #expect(try service.store.pending().isEmpty)
                let delivered = try #require(try service.store.delivered().first)
                #expect(delivered.identifier == "nag" && delivered.dueAt == Self.start.addingTimeInterval(30) && !delivered.isLate)
                #expect(service.shownSession != nil)
            }
        }

        @Test("A repeating 60 s request fires every minute and stays pending; each delivery replaces the last")
        func repeatingInterval() async throws {
            try await withCenter { service, _, box, _, _ in
                _ = try service.receive(incoming("tick", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))
                _ = service.advance(by: 185)
                #expect(box.fired.map(\.2) == [60, 120, 180].map { Self.start.addingTimeInterval($0) })
                #expect(try service.store.pending().map(\.identifier) == ["tick"])
                #expect(try service.store.delivered().map(\.identifier) == ["tick"])
                #expect(try service.store.history(limit: 10).filter { $0.state == .replaced }.count == 2)
            }
        }

        @Test("A daily 09:30 calendar request in Berlin across the spring-forward night: 09:30 local each day")
        func calendarAcrossDST() async throws {
            try await withCenter { service, _, box, _, _ in
                var components = DateComponents(hour: 9, minute: 30)
                components.timeZone = TimeZone(identifier: "Europe/Berlin")
                _ = try service.receive(incoming("daily", trigger: UNCalendarNotificationTrigger(dateMatching: components, repeats: true)))
                _ = service.advance(by: 3 * 86_400)
                // 28 March 09:30 CET is 08:30 UTC; from 29 March, 09:30 CEST is 07:30 UTC.
                let utc = box.fired.map { Int($0.2.timeIntervalSince1970) }
                #expect(utc == [1_774_686_600, 1_774_769_400, 1_774_855_800, 1_774_942_200])
            }
        }

        @Test("Pending requests survive a restart; one missed while the server was down fires once, late")
        func restartAndMissed() async throws {
            let folder = try TestMedia.scratch().appendingPathComponent("store").path
            let time = CenterTime.virtual(startingAt: Self.start)
            let engine = try MPVEngine(output: .null(untimed: true))
            do {
                let (service, _) = try open(folder, time: time, engine: engine)
                _ = try service.receive(incoming("soon", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false)))
                _ = try service.receive(incoming("later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3_600, repeats: false)))
                _ = try service.receive(incoming("tick", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))
                await service.close()
            }
            // Down for ten minutes.
            time.move(to: Self.start.addingTimeInterval(600))
            let (service, box) = try open(folder, time: time, engine: engine)
            #expect(Set(box.fired.map(\.0)) == ["soon", "tick"], "each missed request fires once")
            #expect(box.fired.allSatisfy { $0.1 }, "late")
            let soon = try #require(try service.store.delivered().first { $0.identifier == "soon" })
            #expect(soon.isLate && soon.dueAt == Self.start.addingTimeInterval(30))
            #expect(Set(try service.store.pending().map(\.identifier)) == ["later", "tick"])
            box.fired.removeAll()
            _ = service.advance(by: 60)
            #expect(box.fired.map(\.0) == ["tick"] && box.fired.allSatisfy { !$0.1 }, "then on time, from now on")
            await service.close()
            await engine.shutdown()
        }

        @Test("A day's advance on a 60 s repeat: a bounded number fire at their dates, the rest once, late; history kept to its limit")
        func longAdvanceCoalesces() async throws {
            try await withCenter { service, time, box, _, _ in
                service.retention = (count: 20, age: nil)
                _ = try service.receive(incoming("m", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))
                let after = service.advance(by: 86_400)
                #expect(after == Self.start.addingTimeInterval(86_400) && time.now == after)
                // 100 at their own dates, then the 1,340 a jump skipped coalesce into one, late.
                #expect(box.fired.count == 101, "fired \(box.fired.count) times")
                #expect(box.fired.prefix(100).allSatisfy { !$0.1 } && box.fired.last?.1 == true)
                #expect(box.fired.last?.2 == after)
                let delivered = try #require(try service.store.delivered().first)
                #expect(delivered.isLate && delivered.dueAt == Self.start.addingTimeInterval(101 * 60))
                #expect(try service.store.pending().first?.nextDate == after.addingTimeInterval(60))
                let history = try service.store.history(limit: 1_000)
                #expect(history.count <= 22, "\(history.count) rows of history")
                box.fired.removeAll()
                _ = service.advance(by: 60)
                #expect(box.fired.count == 1 && box.fired.allSatisfy { !$0.1 }, "then on time again")
            }
        }

        @Test("An advance past the horizon (3650 days) is refused, the clock stays; one up to it is answered")
        func advanceHorizon() async throws {
            try await withCenter { service, time, _, _, _ in
                let refused = service.answer(CenterRequest(id: 1, operation: .clock(ClockOperation(advance: 3_651 * 86_400)))) { _, _ in }
                guard case .failure(let failure) = refused else {
                    Issue.record("accepted: \(refused)")
                    return
                }
                #expect(failure.code == .badRequest && failure.message.contains("3650 days"), "\(failure)")
                #expect(time.now == Self.start)
                let far = service.answer(CenterRequest(id: 2, operation: .clock(ClockOperation(advance: 1e18)))) { _, _ in }
                if case .clock = far { Issue.record("1e18 s accepted") }
                let answered = service.answer(CenterRequest(id: 3, operation: .clock(ClockOperation(advance: 3_650 * 86_400)))) { _, _ in }
                #expect(answered == .clock(ClockReply(now: Self.start.addingTimeInterval(3_650 * 86_400), virtual: true)))
            }
        }

        @Test("A trigger whose first date is past the horizon (3650 days) is refused, nothing stored")
        func triggerHorizon() async throws {
            try await withCenter { service, _, _, _, _ in
                for trigger in [
                    UNTimeIntervalNotificationTrigger(timeInterval: 1e18, repeats: false) as any UNNotificationTrigger,
                    UNTimeIntervalNotificationTrigger(timeInterval: 3_651 * 86_400, repeats: true),
                    UNCalendarNotificationTrigger(dateMatching: DateComponents(year: 2040, month: 1, day: 1, hour: 9), repeats: false),
                ] {
                    #expect {
                        _ = try service.receive(incoming("far", trigger: trigger))
                    } throws: { error in
                        "\(error)".contains("3650 days")
                    }
                }
                #expect(try service.store.history(limit: 10).isEmpty)
                let edge = try service.receive(incoming("edge", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3_650 * 86_400, repeats: false)))
                #expect(edge.state == .pending)
            }
        }

        @Test("Bad triggers are refused before anything is stored: Apple's messages, a date in the past")
        func refusals() async throws {
            try await withCenter { service, _, _, _, _ in
                for (trigger, message) in [
                    (UNTimeIntervalNotificationTrigger(timeInterval: 0, repeats: false) as any UNNotificationTrigger, "time interval must be greater than 0"),
                    (UNTimeIntervalNotificationTrigger(timeInterval: -5, repeats: false), "time interval must be greater than 0"),
                    (UNTimeIntervalNotificationTrigger(timeInterval: 59, repeats: true), "time interval must be at least 60 if repeating"),
                    (UNCalendarNotificationTrigger(dateMatching: DateComponents(year: 2025, month: 1, day: 1, hour: 9), repeats: false), "no date in the future"),
                ] {
                    do {
                        _ = try service.receive(incoming("bad", trigger: trigger))
                        Issue.record("\(message): accepted")
                    } catch {
                        #expect("\(error)".contains(message), "\(error)")
                    }
                }
                let history = try service.store.history(limit: 10)
                #expect(history.isEmpty)
            }
        }

        @Test("Sent now with the identifier of a pending request: it replaces it; removing pending leaves delivered")
        func replaceAndRemove() async throws {
            try await withCenter { service, _, box, _, _ in
                _ = try service.receive(incoming("x", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))
                _ = service.advance(by: 60)
                #expect(try service.store.delivered().map(\.identifier) == ["x"])
                let removed = try service.remove(identifiers: ["x"], states: [.pending])
                #expect(removed.count == 1 && service.pendingCount == 0)
                #expect(try service.store.delivered().map(\.identifier) == ["x"])
                _ = service.advance(by: 600)
                #expect(box.fired.count == 1)
                _ = try service.receive(incoming("y", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
                _ = try service.receive(IncomingNotification(identifier: "y", app: "nag me", payload: Self.payload))
                #expect(service.pendingCount == 0)
                #expect(try service.store.pending().isEmpty)
                #expect(try service.store.delivered().contains { $0.identifier == "y" && $0.app == "Nag Me" })
            }
        }

        @Test("Focus is kept in the store; a denied app is refused")
        func focusAndDenied() async throws {
            try await withCenter { service, time, _, folder, engine in
                #expect(!service.focus)
                service.setFocus(true)
                await service.close()
                let (again, _) = try open(folder, time: time, engine: engine)
                #expect(again.focus)
                again.deniedApps = ["nag-me"]
                #expect(throws: CenterServiceError.self) {
                    try again.receive(IncomingNotification(identifier: "z", app: "Nag Me", payload: Self.payload))
                }
                await again.close()
            }
        }
    }
}
