import Notiplay

// Seed 002's app delegate. The article prints its application(_:didFinishLaunchingWithOptions:),
// between the `seed-diff` markers, compared with `Seed.swift.txt` by Scripts/seed-diff; the class
// around it is Xcode's template, and UIKitStandIn.swift gives the UIKit names it uses. main.swift
// calls the method as UIKit would at launch.
class AppDelegate: UIResponder, UIApplicationDelegate {
    // seed-diff: begin app-delegate
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions:
        [UIApplicationLaunchOptionsKey: Any]?) -> Bool {
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
        return true
    }
    // seed-diff: end
}
