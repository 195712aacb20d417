public import Notiplay

/// The sample content extensions that come with notiplay, each a port of a seed article's
/// extension (or a media example) to this API, with its app file, manifest and payloads in
/// `Samples/<Name>/`:
///
/// | Sample | Type | Registered as (`Info.plist`) |
/// |---|---|---|
/// | Reminder (seed 000) | ``ReminderViewController`` | `$(PRODUCT_MODULE_NAME).ReminderViewController` in `Reminder.appex` |
/// | Balance (seed 004) | ``BalanceViewController`` | `$(PRODUCT_MODULE_NAME).BalanceViewController` in `Balance.appex` |
/// | CustomNumber (seed 002) | ``CustomNumberViewController`` | `NSExtensionMainStoryboard` in `CustomNumber.appex` |
/// | VoiceMemo | ``VoiceMemoViewController`` | `$(PRODUCT_MODULE_NAME).VoiceMemoViewController` in `VoiceMemo.appex` |
/// | Preview | ``PreviewViewController`` | `$(PRODUCT_MODULE_NAME).PreviewViewController` in `Preview.appex` |
///
/// The `notiplay` executable registers them (an author's own tool built on the command line does
/// not), so `notiplay deliver Samples/Reminder/reminder.apns --app Samples/Reminder/Reminder.app.json`
/// presents with the Reminder extension.
public enum Samples {
    /// What the samples take from the tool that registers them.
    public struct Configuration: Sendable {
        /// The folder the Reminder sample keeps its store in (`reminders.json`); `nil` means
        /// none, and its card says so. The `notiplay` executable gives `$NOTIPLAY_SAMPLES_STORE`,
        /// else `$XDG_CACHE_HOME/notiplay/samples`, else `~/.cache/notiplay/samples`.
        public var reminderStoreFolder: String?

        /// A configuration.
        public init(reminderStoreFolder: String? = nil) {
            self.reminderStoreFolder = reminderStoreFolder
        }
    }

    /// The name each sample type is registered under: the one its bundle's `Info.plist` gives
    /// (`$(PRODUCT_MODULE_NAME).` reads as the bundle's name; a storyboard-based bundle is
    /// registered under its own name).
    public static let typeNames: [String] = entries.map(\.name)

    /// Registers every sample type in `types`, under ``typeNames``, made with `configuration`. A
    /// name already registered in `types` keeps the type it has: an author's own type wins over a
    /// sample of the same name.
    public static func register(in types: inout ExtensionTypes, configuration: Configuration = Configuration()) {
        let taken = Set(types.names)
        for entry in entries where !taken.contains(entry.name) {
            entry.register(&types, configuration)
        }
    }

    private struct Entry: Sendable {
        let name: String
        let register: @Sendable (inout ExtensionTypes, Configuration) -> Void
    }

    private static let entries: [Entry] = [
        Entry(name: "Reminder.ReminderViewController") { types, configuration in
            let folder = configuration.reminderStoreFolder
            types.register(as: "Reminder.ReminderViewController") { ReminderViewController(storeFolder: folder) }
        },
        entry(BalanceViewController.self, "Balance.BalanceViewController"),
        entry(CustomNumberViewController.self, "CustomNumber"),
        entry(VoiceMemoViewController.self, "VoiceMemo.VoiceMemoViewController"),
        entry(PreviewViewController.self, "Preview.PreviewViewController"),
    ]

    private static func entry<T: TerminalViewController & UNNotificationContentExtension>(_ type: T.Type, _ name: String) -> Entry {
        Entry(name: name) { types, _ in types.register(T.self, as: name) }
    }
}
