/// The `Info.plist` of a content extension, as Xcode writes one, for tests that build `.appex`
/// folders.
public enum ExtensionPlist {
    /// A content extension's `Info.plist` claiming `category` for `$(PRODUCT_MODULE_NAME).CLASS`,
    /// with `UNNotificationExtensionUserInteractionEnabled` when `interaction` is given.
    public static func content(
        category: String, principalClass: String, ratio: Double = 0.1, interaction: Bool? = nil
    ) -> String {
        let key =
            interaction.map { "\t\t\t<key>UNNotificationExtensionUserInteractionEnabled</key>\n\t\t\t<\($0 ? "true" : "false")/>\n" }
            ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>NSExtension</key>
            \t<dict>
            \t\t<key>NSExtensionAttributes</key>
            \t\t<dict>
            \t\t\t<key>UNNotificationExtensionCategory</key>
            \t\t\t<string>\(category)</string>
            \t\t\t<key>UNNotificationExtensionInitialContentSizeRatio</key>
            \t\t\t<real>\(ratio)</real>
            \(key)\t\t</dict>
            \t\t<key>NSExtensionPointIdentifier</key>
            \t\t<string>com.apple.usernotifications.content-extension</string>
            \t\t<key>NSExtensionPrincipalClass</key>
            \t\t<string>$(PRODUCT_MODULE_NAME).\(principalClass)</string>
            \t</dict>
            </dict>
            </plist>

            """
    }
}
