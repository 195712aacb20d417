import CoreData
import Foundation
@testable import ReminderContent
import Testing

/// The Core Data stand-in does what seed 000 needs of Core Data, under Core Data's names.
@MainActor
@Suite("The Core Data stand-in")
struct CoreDataStandInTests {
    /// A container of its own, not the app's.
    let container = NSPersistentContainer(name: "Test")

    func reminder(_ identifier: String, _ title: String, in context: NSManagedObjectContext) -> Reminder {
        let reminder = Reminder(context: context)
        reminder.identifier = identifier
        reminder.title = title
        return reminder
    }

    @Test("NSPredicate(format:) is the stand-in's where Foundation is imported too: Foundation's traps on Linux")
    func predicateIsTheStandIns() {
        let predicate = NSPredicate(format: "identifier == %@", "a")
        #expect(type(of: predicate) == CoreData.NSPredicate.self)
        #expect(predicate.isSupported)
        #expect(predicate.predicateFormat == "identifier == %@")
    }

    @Test("KEY == %@ compares the key's value; other formats match nothing and make a fetch throw")
    func predicateFormats() throws {
        let context = container.viewContext
        let a = reminder("a", "First", in: context)
        _ = reminder("b", "Second", in: context)
        #expect(NSPredicate(format: "identifier == %@", "a").evaluate(with: a))
        #expect(!NSPredicate(format: "identifier == %@", "b").evaluate(with: a))
        #expect(NSPredicate(format: "title == %@", "First").evaluate(with: a))
        for format in ["identifier = %@", "identifier == 'a'", "identifier == %@ AND title == %@", "identifier CONTAINS %@"] {
            let predicate = NSPredicate(format: format, "a")
            #expect(!predicate.isSupported, "\(format)")
            #expect(!predicate.evaluate(with: a), "\(format)")
            let request = Reminder.fetchRequest()
            request.predicate = predicate
            #expect(throws: CoreDataError.self, "\(format)") { try context.fetch(request) }
        }
        #expect(!NSPredicate(format: "identifier == %@").isSupported, "no argument")
        #expect(!NSPredicate(format: "identifier == %@", "a", "b").isSupported, "two arguments")
    }

    @Test("A fetch finds inserted objects before and after save, the same instance each time; save keeps them in the store")
    func fetchAndSave() throws {
        let context = container.viewContext
        let first = reminder("a", "First", in: context)
        #expect(first.managedObjectContext === context)
        #expect(context.hasChanges)
        let request = Reminder.fetchRequest()
        request.predicate = NSPredicate(format: "identifier == %@", "a")
        #expect(try context.fetch(request).first === first, "pending inserts are fetched")
        try context.save()
        #expect(!context.hasChanges)
        #expect(try context.fetch(request).count == 1)
        #expect(try context.fetch(request).first === first, "one instance per object and context")

        // Another context on the same store sees what was saved, not what was changed since.
        first.isCompleted = true
        let other = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        other.persistentStoreCoordinator = container.persistentStoreCoordinator
        let read = try #require(try other.fetch(request).first)
        #expect(read !== first && read.objectID == first.objectID)
        #expect(read.title == "First" && !read.isCompleted)
        try context.save()
        #expect(try other.fetch(request).first?.isCompleted == true, "an unchanged object is refreshed by a fetch")
        #expect(try other.fetch(Reminder.fetchRequest()).count == 1)
    }

    @Test("Attributes: strings, dates and Booleans round-trip; nil removes a value")
    func attributes() throws {
        let reminder = reminder("a", "First", in: container.viewContext)
        let date = Date(timeIntervalSince1970: 1_000_000)
        reminder.dueDate = date
        #expect(reminder.dueDate == date)
        #expect(!reminder.isCompleted)
        reminder.isCompleted = true
        #expect(reminder.isCompleted)
        reminder.title = nil
        #expect(reminder.title == nil)
        #expect(Reminder.entityName == "Reminder")
    }

    @Test("perform runs its block later, on the main actor, in the order given")
    func perform() async {
        let context = container.viewContext
        var ran: [Int] = []
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            context.perform { ran.append(1) }
            context.perform {
                ran.append(2)
                done.resume()
            }
            #expect(ran.isEmpty, "not before perform returns")
        }
        #expect(ran == [1, 2])
    }

    @Test("A fetch without a store, or of an entity that is not a managed object class, throws")
    func fetchErrors() {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        #expect(throws: CoreDataError.self) { try context.fetch(Reminder.fetchRequest()) }
        #expect(throws: CoreDataError.self) { try context.save() }
    }
}
