import NagMe
import NotiplayCommandLine

// `nagme` behaves exactly like `notiplay`, with NagMe's extension type registered under the name
// its Info.plist gives (`$(PRODUCT_MODULE_NAME).NotificationViewController` in the NagMe bundle).
var types = ExtensionTypes()
types.register(NotificationViewController.self, as: "NagMe.NotificationViewController")
await NotiplayCLI.main(types: types)
