import Notiplay

/// Registers Photo's extension type for a tool (`ports`) or a test host, under the name its
/// `Info.plist` gives: the bundle's name, `PhotoContent`, as Xcode's template names a storyboard
/// and no principal class.
public enum PhotoExtensions {
    /// Adds the type to `types`.
    public static func register(in types: inout ExtensionTypes) {
        types.register(NotificationViewController.self, as: "PhotoContent")
    }
}
