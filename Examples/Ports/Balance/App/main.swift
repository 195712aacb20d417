// Seed 004's app side, as a program of its own (named so that it speaks for the app "Balance"):
// the category with its three actions, registered with the notification center, and a local
// notification of that category, which the article asks for without printing it ("fill in the
// appropriate field of the UNNotificationContent class"). The article's fragments are between
// the `seed-diff` markers, compared with `Seed.swift.txt` by Scripts/seed-diff.
import Notiplay

// seed-diff: begin category
let showMoreAction = UNNotificationAction(identifier: "showMore", title: "", options: [])
let addBalanceAction = UNNotificationAction(identifier: "addBalance", title: "  500 ₽", options: [])
let myPlanAction = UNNotificationAction(identifier: "myPlan", title: " ", options: [])
let balanceCategory = UNNotificationCategory(identifier: "balance", actions: [showMoreAction, addBalanceAction, myPlanAction], intentIdentifiers: [], options: [])
UNUserNotificationCenter.current().setNotificationCategories([balanceCategory])
// seed-diff: end

let content = UNMutableNotificationContent()
content.title = "Low balance"
content.body = "42.50 ₽ left"
// seed-diff: begin content
content.categoryIdentifier = "balance"
// seed-diff: end
UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "balance", content: content, trigger: nil)) { error in
    if let error { print("balance: the notification was not added: \(error)") } else { print("balance: added") }
}
