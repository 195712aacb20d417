// Seed 002's app code as a program of its own, `custom-number`, named so that it speaks for the
// app "Custom Number". It launches the app delegate as UIKit would: the delegate asks to send
// notifications, declares its category and adds its request, which the notification center
// (`notiplay serve --app Samples/CustomNumber/CustomNumber.app.json`, or this folder's
// CustomNumber.app.json with the port's extension) shows 30 seconds later, the number 33 drawn
// by the CustomNumber extension. Each call with a completion handler calls it before returning,
// so the request is stored when the program ends.
let delegate = AppDelegate()
_ = delegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil)
