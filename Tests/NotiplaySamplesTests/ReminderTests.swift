import NotiplayCore
import Foundation
import Notiplay
import NotiplayTestSupport
import Testing

@testable import NotiplaySamples

extension RealEngine {
    @MainActor
    @Suite("Reminder (seed 000): title, due date and status from a store that persists")
    struct ReminderTests {
        static let uuid = "7B0E3C52-9A1D-4F6B-8E27-3D5C9A41F0B8"
        static let due = "Due " + DueDate.format(1_741_944_600, utcOffset: DueDate.localOffset(at: 1_741_944_600))

        func storeFile(_ card: SampleCard) -> String { card.storeFolder + "/reminders.json" }

        @Test("didReceive shows the title, the due date and Pending, and offers Complete")
        func showsTheReminder() async throws {
            try await SampleCard.run("Reminder") { card in
                let controller = try await card.present("reminder.apns")
                #expect(controller is ReminderViewController)
                #expect(card.names() == ["didReceive", "actions", "buttonState"])
                #expect(card.events("didReceive").first?.string("extension") == "Reminder")
                let text = card.text
                #expect(text.contains("│ Water the plants"), "\(text)")
                #expect(text.contains(Self.due), "\(text)")
                #expect(text.contains("Status: Pending"), "\(text)")
                #expect(text.contains("1 Complete"), "\(text)")
                #expect(card.actions == ["complete-reminder"])
                #expect(card.session.buttonState == .none)
                // The default content is hidden (the manifest says so): the alert's title is not shown.
                #expect(!text.contains("│ Reminder "), "\(text)")
                // Nothing is written until the status changes.
                #expect(!FileManager.default.fileExists(atPath: storeFile(card)))
            }
        }

        @Test("complete-reminder: Done, saved, the card stays, Pending replaces Complete; pending-reminder undoes it")
        func completeAndPendingSwap() async throws {
            try await SampleCard.run("Reminder") { card in
                try await card.present("reminder.apns")
                var mark = card.mark
                card.session.handle(.actionNamed("complete-reminder"))
                let response = try await card.response(to: "complete-reminder", since: mark)
                #expect(response.string("option") == "doNotDismiss")
                #expect(card.names(since: mark) == ["action", "actions", "response"])
                #expect(card.events("actions", since: mark).first?.string("identifiers") == "pending-reminder")
                #expect(card.actions == ["pending-reminder"])
                #expect(!card.session.isDismissed)
                #expect(card.text.contains("Status: Done") && card.text.contains("1 Pending"), "\(card.text)")
                let store = ReminderStore(folder: card.storeFolder)
                #expect(try store.reminder(Self.uuid)?.isCompleted == true)

                mark = card.mark
                card.session.handle(.action(1))
                #expect(try await card.response(to: "pending-reminder", since: mark).string("option") == "doNotDismiss")
                #expect(card.actions == ["complete-reminder"])
                #expect(card.text.contains("Status: Pending") && card.text.contains("1 Complete"), "\(card.text)")
                #expect(try store.reminder(Self.uuid)?.isCompleted == false)
                #expect(try store.reminder(Self.uuid)?.title == "Water the plants")
                #expect(try store.reminder(Self.uuid)?.dueDate == 1_741_944_600)
            }
        }

        @Test("The status persists: a second session on the same store shows Done and offers Pending")
        func persistsAcrossSessions() async throws {
            let scratch = try TestMedia.scratch()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let folder = scratch.appendingPathComponent("shared-store").path
            try await SampleCard.run("Reminder", storeFolder: folder) { card in
                try await card.present("reminder.apns")
                let mark = card.mark
                card.session.handle(.actionNamed("complete-reminder"))
                try await card.response(to: "complete-reminder", since: mark)
            }
            try await SampleCard.run("Reminder", storeFolder: folder) { card in
                try await card.present("reminder.apns")
                #expect(card.text.contains("Status: Done"), "\(card.text)")
                #expect(card.actions == ["pending-reminder"])
                #expect(card.events("actions").first?.string("identifiers") == "pending-reminder")
            }
            // Another reminder in the same store is kept beside it.
            try await SampleCard.run("Reminder", storeFolder: folder) { card in
                let content = UNMutableNotificationContent()
                content.categoryIdentifier = "reminder"
                content.jsonUserInfo = JSONObject([("reminder-uuid", .string("second")), ("reminder-title", .string("Feed the cat"))])
                try card.present(content)
                let mark = card.mark
                card.session.handle(.action(1))
                try await card.response(to: "complete-reminder", since: mark)
            }
            let all = try ReminderStore(folder: folder).load()
            #expect(Set(all.keys) == [Self.uuid, "second"])
            #expect(all.values.allSatisfy { $0.isCompleted })
        }

        @Test("No reminder-uuid: the card says so, keeps the app's action, and forwards it to the app")
        func missingIdentifier() async throws {
            try await SampleCard.run("Reminder") { card in
                try await card.present("reminder-unknown.apns")
                #expect(card.flatText.contains("Reminder not found This notification names no reminder (its reminder-uuid key is missing)."), "\(card.text)")
                #expect(card.actions == ["complete-reminder"])
                #expect(card.events("actions").isEmpty)
                let mark = card.mark
                card.session.handle(.action(1))
                #expect(try await card.response(to: "complete-reminder", since: mark).string("option") == "dismissAndForwardAction")
                #expect(card.names(since: mark) == ["action", "response", "forwarded", "dismissed"])
                #expect(!FileManager.default.fileExists(atPath: storeFile(card)))
            }
        }

        @Test("Wrong types in the payload: a title from the alert, a note on the due date, no trap")
        func badPayload() async throws {
            try await SampleCard.run("Reminder") { card in
                try await card.present("reminder-bad.apns")
                let text = card.text
                #expect(text.contains("│ Renew the passport"), "\(text)")
                #expect(text.contains("No due date") && text.contains("due-date is the string \"next Tuesday-ish\""), "\(text)")
                #expect(text.contains("Status: Pending"))
                for (key, value) in [
                    ("reminder-uuid", JSONValue.integer(42)), ("reminder-uuid", .string("")), ("reminder-uuid", .array([])),
                    ("due-date", .number(1e300)), ("due-date", .string("2025-02-30T10:00:00Z")), ("due-date", .bool(true)),
                    ("reminder-title", .string(String(repeating: "x", count: 10_000))),
                ] {
                    let content = UNMutableNotificationContent()
                    content.categoryIdentifier = "reminder"
                    content.jsonUserInfo = JSONObject(key == "reminder-uuid" ? [(key, value)] : [("reminder-uuid", .string("u-\(key)")), (key, value)])
                    try card.present(content)
                    #expect(card.text.split(separator: "\n").count < 12, "\(key): \(card.text)")
                }
            }
        }

        @Test("A store that cannot be written or read: the card says so and still answers .doNotDismiss")
        func storeProblems() async throws {
            let scratch = try TestMedia.scratch()
            defer { try? FileManager.default.removeItem(at: scratch) }
            // A file where the store's folder should be.
            let blocked = scratch.appendingPathComponent("blocked").path
            try Data("x".utf8).write(to: URL(fileURLWithPath: blocked))
            try await SampleCard.run("Reminder", storeFolder: blocked) { card in
                try await card.present("reminder.apns")
                let mark = card.mark
                card.session.handle(.action(1))
                #expect(try await card.response(to: "complete-reminder", since: mark).string("option") == "doNotDismiss")
                #expect(card.text.contains("Status: Done") && card.text.contains("Not saved"), "\(card.text)")
                #expect(card.actions == ["pending-reminder"])
            }
            // A store file that is not JSON is reported and left as it is.
            let corrupt = scratch.appendingPathComponent("corrupt").path
            try FileManager.default.createDirectory(atPath: corrupt, withIntermediateDirectories: true)
            try Data("{not json".utf8).write(to: URL(fileURLWithPath: corrupt + "/reminders.json"))
            try await SampleCard.run("Reminder", storeFolder: corrupt) { card in
                try await card.present("reminder.apns")
                #expect(card.text.contains("Store not read"), "\(card.text)")
                let mark = card.mark
                card.session.handle(.action(1))
                try await card.response(to: "complete-reminder", since: mark)
                #expect(card.text.contains("Not saved"), "\(card.text)")
            }
            #expect(try String(contentsOfFile: corrupt + "/reminders.json", encoding: .utf8) == "{not json")
            // A store file over 1 MB is not read (nor overwritten).
            let big = scratch.appendingPathComponent("big").path
            try FileManager.default.createDirectory(atPath: big, withIntermediateDirectories: true)
            // Valid JSON, only too large.
            let padded = Data(#"{"version": 1, "reminders": {}}"#.utf8) + Data(repeating: 0x20, count: ReminderStore.sizeLimit)
            try padded.write(to: URL(fileURLWithPath: big + "/reminders.json"))
            #expect(throws: ReminderStoreError.self) { try ReminderStore(folder: big).load() }
            do {
                _ = try ReminderStore(folder: big).load()
            } catch {
                #expect(error.description.contains("is larger than 1048576 bytes"), "\(error)")
            }
            #expect(throws: ReminderStoreError.self) {
                try ReminderStore(folder: big).save(ReminderRecord(identifier: "x", title: "", dueDate: nil, isCompleted: true))
            }
        }

        @Test("Due dates: ISO 8601 forms and seconds read; impossible dates refused; written as the seed's formatter does")
        func dueDates() {
            #expect(DueDate.parse("2025-03-14T09:30:00Z") == 1_741_944_600)
            #expect(DueDate.parse("2025-03-14T09:30Z") == 1_741_944_600)
            #expect(DueDate.parse("2025-03-14T10:30:00+01:00") == 1_741_944_600)
            #expect(DueDate.parse("2025-03-14T04:30:00.250-0500") == 1_741_944_600)
            #expect(DueDate.parse("2025-03-14") == 1_741_910_400)
            #expect(DueDate.parse("1970-01-01T00:00:00Z") == 0)
            #expect(DueDate.parse("1969-12-31T23:59:59Z") == -1)
            #expect(DueDate.parse("2024-02-29") != nil)
            for bad in ["", "2025", "2025-13-01", "2023-02-29", "2025-03-14T24:00", "2025-03-14T09:30:00+25:00", "2025-03-14X", "tomorrow", "２０２５-03-14"] {
                #expect(DueDate.parse(bad) == nil, "\(bad)")
            }
            #expect(DueDate.format(1_741_944_600, utcOffset: 0) == "March 14, 2025 at 9:30:00 AM")
            #expect(DueDate.format(1_741_944_600, utcOffset: 3_600 * 5) == "March 14, 2025 at 2:30:00 PM")
            #expect(DueDate.format(0, utcOffset: 0) == "January 1, 1970 at 12:00:00 AM")
            #expect(DueDate.format(-1, utcOffset: 0) == "December 31, 1969 at 11:59:59 PM")
            #expect(DueDate.format(.nan, utcOffset: 0) == "an unreadable date")
            #expect(DueDate.format(1e18, utcOffset: 0) == "an unreadable date")
            // The day arithmetic round-trips over the whole range.
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<2_000 {
                let days = Int64.random(in: -719_162...2_932_896, using: &generator)
                let (y, m, d) = DueDate.civil(fromDays: days)
                #expect(DueDate.daysSince1970(year: y, month: m, day: d) == days)
                #expect((1...12).contains(m) && d >= 1 && d <= DueDate.daysIn(month: m, year: y))
            }
        }
    }
}
