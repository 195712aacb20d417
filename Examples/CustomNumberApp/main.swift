// Seed 002's app code (its `application(_:didFinishLaunchingWithOptions:)`) with two changes:
// `import Notiplay` for `import UserNotifications`, and `var content` for `let content` —
// notification content is a value here, not a class, so a constant's properties cannot be set.
//
// Run it against `notiplay serve --app Samples/CustomNumber/CustomNumber.app.json`: the program
// is named `custom-number`, so it speaks for the app "Custom Number", and its request shows 30
// seconds later, the number 33 drawn large by the CustomNumber extension. Each call with a
// completion handler calls it before returning, so the request is stored when the program ends.
import Notiplay

let center = UNUserNotificationCenter.current()
let options: UNAuthorizationOptions = [.alert]

center.requestAuthorization(options: options) { (authorized, error) in
    if authorized {
        let categoryId = "category"

        let category = UNNotificationCategory(identifier: categoryId, actions: []
        ,intentIdentifiers: [], options: [])
        center.setNotificationCategories([category])

        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false)
        let content = UNMutableNotificationContent()
        content.categoryIdentifier = categoryId
        content.title = "Notification Title"
        content.subtitle = "Notification Subtitle"
        content.body = "Notification body text"
        content.userInfo = ["customNumber": 33]

        let request = UNNotificationRequest(identifier: "extensionNotification"
        ,content: content, trigger: trigger)
        center.add(request, withCompletionHandler: nil)
    }
}
