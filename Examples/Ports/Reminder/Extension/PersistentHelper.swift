import CoreData

/// The chapter's helper around the app's Core Data stack, which the chapter adds to the
/// extension's target beside the model (its code is not in the seed's text). On iOS its store
/// is in the app group both share; here it is the stand-in's in-memory store, which an app or a
/// test fills through `Reminder(context:)` and `save()`.
enum PersistentHelper {
    /// The container of the `Reminders` model.
    @MainActor static let persistentContainer: NSPersistentContainer = {
        let container = NSPersistentContainer(name: "Reminders")
        container.loadPersistentStores { _, error in
            if let error { fatalError("Unresolved error \(error)") }
        }
        return container
    }()
}
