import CoreData
import Foundation
import Notiplay

/// Seed 000's content extension: a reminder's title, due date and status, read from the app's
/// Core Data store by the UUID its notification carries; the Complete action marks it done,
/// keeps the card and puts a Pending action in its place.
///
/// The chapter's code is between the `seed-diff` markers, compared with `Seed.swift.txt` by
/// `Scripts/seed-diff` (README.md holds the diff). Around it: the class of Xcode's template (the
/// chapter removes its generated code and keeps the class), and the storyboard's three labels
/// drawn in the terminal. Lines marked `// view` are the port's view code; lines marked
/// `// prose` are the calls the chapter's text asks for without printing them.
final class NotificationViewController: TerminalViewController, UNNotificationContentExtension {
    // seed-diff: begin outlets
    var reminderTitleLabel: String? { didSet { layOutLabels() } } // view
    var reminderDueDateLabel: String? { didSet { layOutLabels() } } // view
    var reminderStatusLabel: String? { didSet { layOutLabels() } } // view
    // seed-diff: end

    // seed-diff: begin didReceive-notification
    func didReceive(_ notification: UNNotification) {
        guard let identifier = notification.request.content.userInfo["reminder-uuid"] as? String else { return }
        let predicate = NSPredicate(format: "identifier == %@", identifier)
        let fetchRequest: NSFetchRequest<Reminder> = Reminder.fetchRequest()
        fetchRequest.predicate = predicate
        let moc = PersistentHelper.persistentContainer.viewContext
        guard let results = try? moc.fetch(fetchRequest), let reminder = results.first else { return }
        let dateFormatter = DateFormatter()
        dateFormatter.dateStyle = .long
        dateFormatter.timeStyle = .medium
        reminderTitleLabel = reminder.title // view
        reminderDueDateLabel = dateFormatter.string(from: reminder.dueDate!) // view
        reminderStatusLabel = reminder.isCompleted ? "Done" : "Pending" // view
        setNotificationForReminder(reminder) // prose
    }
    // seed-diff: end

    // seed-diff: begin didReceive-response
    func didReceive(_ response: UNNotificationResponse, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void) {
        guard let reminder = extractReminderFromResponse(response) else {
            completion(.dismissAndForwardAction)
            return
        }
        if response.actionIdentifier == "complete-reminder" {
            setCompleted(true, forReminder: reminder, completionHandler: completion)
        } else {
            setCompleted(false, forReminder: reminder, completionHandler: completion)
        }
    }
    func setCompleted(_ completed: Bool, forReminder reminder: Reminder, completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void) {
        reminder.managedObjectContext!.perform {
            reminder.isCompleted = true
            self.setNotificationForReminder(reminder) // prose
            self.reminderStatusLabel = reminder.isCompleted ? "Done" : "Pending" // view
            try! reminder.managedObjectContext!.save()
            completion(.doNotDismiss)
        }
    }
    func extractReminderFromResponse(_ response: UNNotificationResponse) -> Reminder? {
        let userInfo = response.notification.request.content.userInfo
        guard let identifier = userInfo["reminder-uuid"] as? String else { return nil }
        let fetchRequest: NSFetchRequest<Reminder> = Reminder.fetchRequest()
        fetchRequest.predicate = NSPredicate(format: "identifier == %@", identifier)
        let moc = PersistentHelper.persistentContainer.viewContext
        guard let results = try? moc.fetch(fetchRequest), let reminder = results.first else { return nil }
        return reminder
    }
    // seed-diff: end

    // seed-diff: begin setNotificationForReminder
    func setNotificationForReminder(_ reminder: Reminder) {
        let identifier = reminder.isCompleted ? "pending-reminder": "complete-reminder"
        let label = reminder.isCompleted ? "Pending" : "Complete"
        let action = UNNotificationAction(identifier: identifier, title: label, options: [])
        extensionContext?.notificationActions = [action]
    }
    // seed-diff: end

    /// The storyboard's stack of three labels: the title in bold, the due date dimmed, the
    /// status in green once done.
    private func layOutLabels() {
        let status = reminderStatusLabel ?? ""
        view.elements = [
            Label(reminderTitleLabel ?? "", style: .bold),
            Label(reminderDueDateLabel ?? "", style: .dim),
            Label(status, style: CellStyle(foreground: status == "Done" ? .green : .yellow)),
        ]
    }
}
