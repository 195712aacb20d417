// NagMe's app side: what the iOS app does when the person sets a reminder. It asks to send
// notifications, declares the reminder's category and its actions (those the extension answers,
// seeds 001 and 003), and schedules the reminder with seed 002's trigger: 30 seconds from now.
// Beside the import, nothing differs from the iOS code. Run it against
// `nagme serve --app NagMe.app.json` with NOTIPLAY_APP=NagMe: a program speaks for the app its
// name matches, and `nagme-app` is not "NagMe". Scripts/app-end-to-end.sh tests it.
import Notiplay

let center = UNUserNotificationCenter.current()
center.requestAuthorization(options: [.alert, .sound]) { authorized, error in
    guard authorized else {
        print("nagme-app: not allowed to send notifications: \(error.map { "\($0)" } ?? "denied")")
        return
    }
    let cancel = UNNotificationAction(identifier: "cancel", title: "Cancel reminder", options: [.destructive])
    let snooze = UNNotificationAction(identifier: "snooze", title: "Remind me later", options: [])
    let reply = UNTextInputNotificationAction(
        identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "Say why")
    let category = UNNotificationCategory(
        identifier: "reminder", actions: [cancel, snooze, reply], intentIdentifiers: [], options: [.customDismissAction])
    center.setNotificationCategories([category])

    let content = UNMutableNotificationContent()
    content.title = "NagMe"
    content.body = CommandLine.arguments.dropFirst().first ?? "Water the plants"
    content.categoryIdentifier = "reminder"
    content.sound = .default
    let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false)
    center.add(UNNotificationRequest(identifier: "nagme-reminder", content: content, trigger: trigger)) { error in
        if let error { print("nagme-app: the reminder was not scheduled: \(error)") } else { print("nagme-app: reminder in 30 s") }
    }
}
