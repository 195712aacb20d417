import CoreData
import Foundation
import NotiplayTesting
@testable import ReminderContent
import Testing

/// Seed 000's extension presented by the test host, with its Info.plist and app file, over the
/// stand-in Core Data store the app would have filled. One at a time: they share the payload's
/// reminder in the process's store.
@MainActor
@Suite("Seed 000: the Core Data reminder", .serialized)
struct ReminderTests {
    static let folder = Ports.folder("Reminder")
    /// The reminder's UUID in reminder.apns.
    static let uuid = "3F2A9C4E-7B1D-4E8A-9C55-1D0B6E2F8A73"
    /// 14 March 2025, 09:30 UTC.
    static let due = Date(timeIntervalSince1970: 1_741_944_600)

    /// Puts reminder.apns's reminder in the app's store, as the app does when it schedules it.
    @discardableResult
    func storeReminder(completed: Bool = false) throws -> Reminder {
        let context = PersistentHelper.persistentContainer.viewContext
        let request = Reminder.fetchRequest()
        request.predicate = NSPredicate(format: "identifier == %@", Self.uuid)
        let reminder = try context.fetch(request).first ?? Reminder(context: context)
        reminder.identifier = Self.uuid
        reminder.title = "Water the plants"
        reminder.dueDate = Self.due
        reminder.isCompleted = completed
        try context.save()
        return reminder
    }

    /// The reminder as saved in the store, read through a context of its own.
    func savedReminder() throws -> Reminder? {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = PersistentHelper.persistentContainer.persistentStoreCoordinator
        let request = Reminder.fetchRequest()
        request.predicate = NSPredicate(format: "identifier == %@", Self.uuid)
        return try context.fetch(request).first
    }

    func host() throws -> NotificationTestHost {
        var types = ExtensionTypes()
        types.register(NotificationViewController.self, as: "ReminderContent")
        return try NotificationTestHost(app: "\(Self.folder)/Reminder.app.json", types: types)
    }

    /// The due date as the chapter's formatter writes it (long date, medium time, in this
    /// machine's locale and time zone).
    var dueText: String {
        let formatter = DateFormatter()
        formatter.dateStyle = .long
        formatter.timeStyle = .medium
        return formatter.string(from: Self.due)
    }

    @Test("The labels show the stored reminder's title, due date and status; Complete marks it done, keeps the card and becomes Pending")
    func completeKeepsTheCard() async throws {
        let reminder = try storeReminder()
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/reminder.apns")
        #expect(host.extensionName == "ReminderContent")
        #expect(Array(Ports.lines(host.screen()).prefix(4).dropFirst()) == ["Water the plants", dueText, "Pending"])
        // setNotificationForReminder put the action in place of the app file's.
        #expect(host.actionIdentifiers == ["complete-reminder"])

        try host.action("complete-reminder")
        let response = try await host.wait(until: "response")
        #expect(response.string("option") == "doNotDismiss")
        #expect(!host.isDismissed)
        #expect(Ports.lines(host.screen())[3] == "Done")
        #expect(host.actionIdentifiers == ["pending-reminder"])
        #expect(host.screen().contains("Pending"), "the action's title")
        // Saved: the store has it done, and the context nothing left to save.
        #expect(try savedReminder()?.isCompleted == true)
        #expect(!reminder.hasChanges)
        #expect(host.events(named: "forwarded").isEmpty)
        await host.close()
    }

    @Test("Pending, as the chapter prints setCompleted, marks the reminder done again (it sets isCompleted = true whatever it is given)")
    func pendingAsPrinted() async throws {
        try storeReminder(completed: true)
        let host = try host()
        try await host.deliver(payload: "\(Self.folder)/reminder.apns")
        #expect(Ports.lines(host.screen())[3] == "Done")
        #expect(host.actionIdentifiers == ["pending-reminder"])
        try host.action("pending-reminder")
        #expect(try await host.wait(until: "response").string("option") == "doNotDismiss")
        #expect(Ports.lines(host.screen())[3] == "Done")
        #expect(host.actionIdentifiers == ["pending-reminder"])
        #expect(try savedReminder()?.isCompleted == true)
        await host.close()
    }

    @Test("A reminder that is not in the store: the labels stay empty, and the action goes on to the app")
    func unknownReminder() async throws {
        try storeReminder()
        let payload = #"{"aps": {"alert": "Reminder", "category": "reminder"}, "reminder-uuid": "not-in-the-store"}"#
        try await Ports.withPayload(payload, named: "unknown.apns") { path in
            let host = try host()
            try await host.deliver(payload: path)
            #expect(!host.screen().contains("Water the plants"))
            #expect(host.actionIdentifiers == ["complete-reminder"], "the app file's action")
            try host.action("complete-reminder")
            try await host.wait(until: "dismissed")
            #expect(host.events(named: "response").last?.string("option") == "dismissAndForwardAction")
            #expect(host.events(named: "forwarded").map { $0.string("action") } == ["complete-reminder"])
            await host.close()
        }
        #expect(try savedReminder()?.isCompleted == false, "the stored reminder was left alone")
    }
}
