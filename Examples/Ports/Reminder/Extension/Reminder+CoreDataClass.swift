import CoreData

/// The chapter's `Reminder` entity, as Xcode generates its class for the model that the app and
/// its extension share (`Reminder+CoreDataClass.swift` and `Reminder+CoreDataProperties.swift`;
/// the chapter adds the model to the extension's target): each attribute a property over the
/// object's values, as `@NSManaged` makes it. The app's model, not part of the seed's text.
public class Reminder: NSManagedObject {
    /// A request for reminders.
    public class func fetchRequest() -> NSFetchRequest<Reminder> {
        NSFetchRequest<Reminder>(entityName: "Reminder")
    }

    /// The reminder's UUID, which its notification carries as `reminder-uuid`.
    public var identifier: String? {
        get { value(forKey: "identifier") as? String }
        set { setValue(newValue, forKey: "identifier") }
    }

    /// What to do.
    public var title: String? {
        get { value(forKey: "title") as? String }
        set { setValue(newValue, forKey: "title") }
    }

    /// When.
    public var dueDate: Date? {
        get { value(forKey: "dueDate") as? Date }
        set { setValue(newValue, forKey: "dueDate") }
    }

    /// Whether it is done.
    public var isCompleted: Bool {
        get { value(forKey: "isCompleted") as? Bool ?? false }
        set { setValue(newValue, forKey: "isCompleted") }
    }
}
