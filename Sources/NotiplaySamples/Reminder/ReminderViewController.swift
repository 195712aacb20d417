public import Notiplay

/// The Core Data reminder of seed 000: the reminder's title, when it was due and whether it is
/// done, read from a store the app shares with its extension; the `complete-reminder` and
/// `pending-reminder` actions set the status, save it, and swap each other on the card.
///
/// Payload keys (`Samples/Reminder/reminder.apns`):
/// - `reminder-uuid` (string, required): which reminder. Without it the card says so, and every
///   action goes on to the app (`.dismissAndForwardAction`), as the seed does when it cannot find
///   the reminder.
/// - `reminder-title` (string) and `due-date` (ISO 8601 like `2025-03-14T09:30:00Z`, or seconds
///   since 1970): what the app stored when it scheduled the reminder. The first notification of a
///   reminder brings them; the status always comes from the store (see ``ReminderStore``).
///
/// Differences from the seed: the store is a JSON file in the folder the samples were registered
/// with (``Samples/Configuration/reminderStoreFolder``) instead of Core Data; the seed's `setCompleted` always stored `true`, here
/// `pending-reminder` really sets the reminder back to pending; an action it does not know goes on
/// to the app instead of being read as "pending".
public final class ReminderViewController: TerminalViewController, UNNotificationContentExtension {
    /// The action that marks the reminder done.
    public nonisolated static let completeIdentifier = "complete-reminder"
    /// The action that marks it pending again.
    public nonisolated static let pendingIdentifier = "pending-reminder"

    private let store: Result<ReminderStore, ReminderStoreError>
    private var reminder: ReminderRecord?
    /// Why no reminder is shown.
    private var problem = ""
    /// A note on the store (not readable, not saved).
    private var storeNote: String?
    /// A note on the due date as the payload gave it.
    private var dueNote: String?

    /// A controller with no store: the card says so, and the actions go on to the app.
    public required convenience init() {
        self.init(storeFolder: nil)
    }

    /// A controller keeping its reminders in `storeFolder` (`nil`: none).
    public init(storeFolder: String?) {
        store = ReminderStore.locate(storeFolder)
        super.init()
    }

    /// The reminder shown, as the store has it now.
    var shownReminder: ReminderRecord? { reminder }

    /// Shows the notification (called on presentation and for each new notification of the thread).
    public func didReceive(_ notification: UNNotification) {
        let content = notification.request.content
        storeNote = nil
        dueNote = nil
        switch PayloadField.string(content.jsonUserInfo, "reminder-uuid", limit: 128) {
        case .failure(.missing):
            reminder = nil
            problem = "This notification names no reminder (its reminder-uuid key is missing)."
        case .failure(.unusable(let found)):
            reminder = nil
            problem = "Its reminder-uuid is \(found), not a reminder's identifier."
        case .success(let identifier):
            var record = stored(identifier) ?? ReminderRecord(identifier: identifier, title: "", dueDate: nil, isCompleted: false)
            if case .success(let title) = PayloadField.string(content.jsonUserInfo, "reminder-title") {
                record.title = title
            } else if record.title.isEmpty {
                let fallback = content.body.isEmpty ? content.title : content.body
                record.title = fallback.isEmpty ? "Untitled reminder" : String(fallback.prefix(200))
            }
            switch Self.dueDate(content.jsonUserInfo) {
            case .success(let due): record.dueDate = due
            case .failure(.missing): break
            case .failure(.unusable(let found)): dueNote = "due-date is \(found), not a date"
            }
            reminder = record
            setNotificationActions(for: record)
        }
        redraw()
    }

    /// Handles an action and calls `completion` with what happens to the card.
    public func didReceive(
        _ response: any UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        guard let reminder = reminder(from: response) else {
            completion(.dismissAndForwardAction)
            return
        }
        switch response.actionIdentifier {
        case Self.completeIdentifier: setCompleted(true, for: reminder, completion: completion)
        case Self.pendingIdentifier: setCompleted(false, for: reminder, completion: completion)
        default: completion(.dismissAndForwardAction)
        }
    }

    // MARK: The seed's steps

    /// The reminder a response is about: the one on the card when the response names it.
    private func reminder(from response: any UNNotificationResponse) -> ReminderRecord? {
        let info = response.notification.request.content.jsonUserInfo
        guard case .success(let identifier) = PayloadField.string(info, "reminder-uuid", limit: 128),
            let reminder, reminder.identifier == identifier
        else { return nil }
        return reminder
    }

    private func setCompleted(
        _ completed: Bool, for record: ReminderRecord,
        completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        var record = record
        record.isCompleted = completed
        reminder = record
        do throws(ReminderStoreError) {
            try store.get().save(record)
            storeNote = nil
        } catch {
            storeNote = "Not saved: \(error.description)"
        }
        setNotificationActions(for: record)
        redraw()
        completion(.doNotDismiss)
    }

    /// One action: "Pending" for a done reminder, "Complete" for a pending one.
    private func setNotificationActions(for record: ReminderRecord) {
        let action =
            record.isCompleted
            ? UNNotificationAction(identifier: Self.pendingIdentifier, title: "Pending")
            : UNNotificationAction(identifier: Self.completeIdentifier, title: "Complete")
        extensionContext?.notificationActions = [action]
    }

    // MARK: Reading

    private func stored(_ identifier: String) -> ReminderRecord? {
        do throws(ReminderStoreError) {
            return try store.get().reminder(identifier)
        } catch {
            storeNote = "Store not read: \(error.description)"
            return nil
        }
    }

    /// `due-date`: an ISO 8601 string or seconds since 1970, within years 1–9999.
    static func dueDate(_ info: JSONObject) -> Result<Double, PayloadField.Problem> {
        guard let value = info["due-date"], value != .null else { return .failure(.missing) }
        if let text = value.stringValue, text.count <= 64, let seconds = DueDate.parse(text.trimmingWhitespace),
            DueDate.range.contains(seconds)
        {
            return .success(seconds)
        }
        if value.stringValue == nil, let seconds = value.doubleValue, seconds.isFinite, DueDate.range.contains(seconds) {
            return .success(seconds)
        }
        return .failure(.unusable(found: PayloadField.describe(value)))
    }

    // MARK: The view

    private func redraw() {
        var elements: [any ViewElement] = []
        if let reminder {
            elements.append(Label(reminder.title, style: .bold))
            if let due = reminder.dueDate {
                elements.append(Label("Due " + DueDate.format(due, utcOffset: DueDate.localOffset(at: due))))
            } else {
                elements.append(Label("No due date", style: .dim))
            }
            let status = reminder.isCompleted ? "Done" : "Pending"
            let color: TerminalColor = reminder.isCompleted ? .green : .yellow
            elements.append(Label(spans: [TextSpan("Status: "), TextSpan(status, style: CellStyle(foreground: color, bold: true))]))
            for note in [dueNote, storeNote].compactMap({ $0 }) {
                elements.append(Label(note, style: .dim))
            }
        } else {
            elements.append(Label("Reminder not found", style: .bold))
            elements.append(Paragraph(problem, style: .dim, maxLines: 2))
        }
        view.elements = elements
        preferredContentSize = CGSize(rows: elements.count + (reminder == nil ? 1 : 0))
    }
}
