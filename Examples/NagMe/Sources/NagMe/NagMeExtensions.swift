import Notiplay

/// NagMe's extension types, for the tools and tests that present NagMe's notifications.
///
/// The module registers its own types: its view controller could be `internal` (only this module
/// names it), and a tool needs one line, whatever the module holds.
///
/// ```swift
/// var types = ExtensionTypes()
/// NagMeExtensions.register(in: &types)
/// await NotiplayCLI.main(types: types)
/// ```
public enum NagMeExtensions {
    /// Registers NagMe's content extension under the name its `Info.plist` gives,
    /// `$(PRODUCT_MODULE_NAME).NotificationViewController` in the `NagMe.appex` bundle:
    /// `NagMe.NotificationViewController`.
    public static func register(in types: inout ExtensionTypes) {
        types.register(NotificationViewController.self, as: "NagMe.NotificationViewController")
    }
}
