import Notiplay

/// Registers Ringtone's extension type for a tool (`ports`) or a test host, under the name its
/// `Info.plist` gives: the bundle's name, `RingtoneContent`, as Xcode's template names a storyboard
/// and no principal class.
public enum RingtoneExtensions {
    /// Adds the type to `types`.
    public static func register(in types: inout ExtensionTypes) {
        types.register(NotificationViewController.self, as: "RingtoneContent")
    }
}
