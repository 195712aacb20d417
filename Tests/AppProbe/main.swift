// An app's program for the end-to-end tests: adds one request to be delivered now and says how
// it went — `added` on standard output, or the error on standard error and exit status 1.
import Notiplay

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

let content = UNMutableNotificationContent()
content.title = "Probe"
let request = UNNotificationRequest(identifier: "probe", content: content, trigger: nil)
UNUserNotificationCenter.current().add(request) { error in
    guard let error else {
        print("added")
        return
    }
    fputs("\(error)\n", stderr)
    exit(1)
}
