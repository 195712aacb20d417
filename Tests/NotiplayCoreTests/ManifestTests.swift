import Foundation
import NotiplayTestSupport
import Testing

@testable import NotiplayCore

/// Info.plists as Xcode and real projects write them.
enum ManifestFixtures {
    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>
        """
    }

    static func content(attributes: String, principal: String = "<key>NSExtensionPrincipalClass</key>\n\t\t<string>$(PRODUCT_MODULE_NAME).NotificationViewController</string>") -> String {
        plist(
            """
            \t<key>CFBundleDisplayName</key>
            \t<string>NagMe Content</string>
            \t<key>CFBundleIdentifier</key>
            \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            \t<key>NSExtension</key>
            \t<dict>
            \t\t<key>NSExtensionAttributes</key>
            \t\t<dict>
            \(attributes)
            \t\t</dict>
            \t\t\(principal)
            \t\t<key>NSExtensionPointIdentifier</key>
            \t\t<string>com.apple.usernotifications.content-extension</string>
            \t</dict>
            """)
    }

    /// Xcode's Notification Content template: a storyboard, a string category, `<real>1</real>`.
    static let xcodeTemplate = content(
        attributes: """
            \t\t\t<key>UNNotificationExtensionCategory</key>
            \t\t\t<string>myNotificationCategory</string>
            \t\t\t<key>UNNotificationExtensionInitialContentSizeRatio</key>
            \t\t\t<real>1</real>
            """,
        principal: "<key>NSExtensionMainStoryboard</key>\n\t\t<string>MainInterface</string>")

    /// A hand-edited project: a principal class, an array of categories, an integer ratio, Booleans.
    static let nagMe = content(
        attributes: """
            \t\t\t<key>UNNotificationExtensionCategory</key>
            \t\t\t<array>
            \t\t\t\t<string>reminder</string>
            \t\t\t\t<string>nag</string>
            \t\t\t</array>
            \t\t\t<key>UNNotificationExtensionInitialContentSizeRatio</key>
            \t\t\t<integer>0</integer>
            \t\t\t<key>UNNotificationExtensionDefaultContentHidden</key>
            \t\t\t<true/>
            \t\t\t<key>UNNotificationExtensionOverridesDefaultTitle</key>
            \t\t\t<false/>
            \t\t\t<key>UNNotificationExtensionUserInteractionEnabled</key>
            \t\t\t<true/>
            """)

    static let service = plist(
        """
        \t<key>NSExtension</key>
        \t<dict>
        \t\t<key>NSExtensionPointIdentifier</key>
        \t\t<string>com.apple.usernotifications.service</string>
        \t\t<key>NSExtensionPrincipalClass</key>
        \t\t<string>$(PRODUCT_MODULE_NAME).NotificationService</string>
        \t</dict>
        """)

    static func attributes(category: String = "<string>c</string>", ratio: String = "<real>0.5</real>", extra: String = "") -> String {
        // An empty argument leaves the key out.
        let categoryEntry = category.isEmpty ? "" : "<key>UNNotificationExtensionCategory</key>\(category)"
        let ratioEntry = ratio.isEmpty ? "" : "<key>UNNotificationExtensionInitialContentSizeRatio</key>\(ratio)"
        return content(attributes: categoryEntry + "\n" + ratioEntry + "\n" + extra)
    }
}

@Suite struct ManifestTests {
    func manifest(_ xml: String, bundle: String? = "NagMe") throws -> ExtensionManifest {
        let value = try PropertyListParser.parse(Array(xml.utf8)).value
        return try ExtensionManifest.decode(value, bundleName: bundle, path: "Info.plist")
    }

    func errors(_ xml: String) -> [String] {
        do {
            _ = try manifest(xml)
            return []
        } catch let error as ManifestError {
            return error.errors.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test func readsXcodesTemplate() throws {
        let m = try manifest(ManifestFixtures.xcodeTemplate, bundle: "ContentExtension")
        #expect(m.point == .content)
        #expect(m.mainStoryboard == "MainInterface" && m.principalClass == nil)
        #expect(m.typeName == "ContentExtension")  // registered under the bundle's name
        #expect(m.categories == ["myNotificationCategory"])
        #expect(m.initialContentSizeRatio == 1)
        #expect(!m.defaultContentHidden && !m.overridesDefaultTitle && !m.userInteractionEnabled)
        #expect(m.displayName == "NagMe Content" && m.bundleIdentifier == "$(PRODUCT_BUNDLE_IDENTIFIER)")
        #expect(m.warnings.isEmpty)
        #expect(m.initialRows(forWidth: 60) == 30)
    }

    @Test func readsAPrincipalClassWithItsModulePrefix() throws {
        let m = try manifest(ManifestFixtures.nagMe, bundle: "NagMe Content")
        #expect(m.principalClass == "$(PRODUCT_MODULE_NAME).NotificationViewController")
        #expect(m.typeName == "NagMe_Content.NotificationViewController")
        #expect(m.categories == ["reminder", "nag"])
        #expect(m.initialContentSizeRatio == 0 && m.initialRows(forWidth: 80) == 0)
        #expect(m.defaultContentHidden && !m.overridesDefaultTitle && m.userInteractionEnabled)
    }

    @Test func readsAServiceExtension() throws {
        let m = try manifest(ManifestFixtures.service, bundle: "Fetcher")
        #expect(m.point == .service && m.typeName == "Fetcher.NotificationService" && m.categories.isEmpty)
    }

    @Test func readsTheBinaryForm() throws {
        let xml = try PropertyListParser.parse(Array(ManifestFixtures.nagMe.utf8)).value
        let binary = PropertyListWriter.binary(xml)
        let parsed = try PropertyListParser.parse(binary)
        #expect(parsed.format == .binary)
        let m = try ExtensionManifest.decode(parsed.value, bundleName: "NagMe", path: "Info.plist")
        #expect(m.categories == ["reminder", "nag"] && m.userInteractionEnabled)
    }

    @Test func aRatioWrittenAsAStringIsAcceptedWithAWarning() throws {
        let m = try manifest(ManifestFixtures.attributes(ratio: "<string>0.25</string>"))
        #expect(m.initialContentSizeRatio == 0.25)
        #expect(m.warnings.map(\.key) == ["NSExtension.NSExtensionAttributes.UNNotificationExtensionInitialContentSizeRatio"])
        #expect(m.warnings[0].message.contains("<string>"))
    }

    @Test func booleansWrittenAsYESAreAcceptedWithAWarning() throws {
        let m = try manifest(
            ManifestFixtures.attributes(extra: "<key>UNNotificationExtensionDefaultContentHidden</key><string>YES</string>"))
        #expect(m.defaultContentHidden)
        #expect(m.warnings.count == 1)
    }

    // MARK: Bad input: each error names its key

    @Test(arguments: [
        (ManifestFixtures.plist("<key>CFBundleName</key><string>x</string>"), "NSExtension: missing"),
        (
            ManifestFixtures.attributes(category: ""),
            "NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory: missing"
        ),
        (
            ManifestFixtures.attributes(ratio: ""),
            "NSExtension.NSExtensionAttributes.UNNotificationExtensionInitialContentSizeRatio: missing"
        ),
        (
            ManifestFixtures.attributes(ratio: "<true/>"),
            "NSExtension.NSExtensionAttributes.UNNotificationExtensionInitialContentSizeRatio: expected a <real> such as 0.5; found <true/>"
        ),
        (
            ManifestFixtures.attributes(ratio: "<string>half</string>"),
            "NSExtension.NSExtensionAttributes.UNNotificationExtensionInitialContentSizeRatio: expected a <real> such as 0.5; found <string>half</string>"
        ),
        (
            ManifestFixtures.attributes(ratio: "<real>-1</real>"),
            "NSExtension.NSExtensionAttributes.UNNotificationExtensionInitialContentSizeRatio: must be a number of 0 or more; found <real>-1.0</real>"
        ),
        (
            ManifestFixtures.attributes(category: "<array/>"),
            "NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory: is an empty <array>; expected at least one category identifier"
        ),
        (
            ManifestFixtures.attributes(category: "<array><string>a</string><integer>2</integer></array>"),
            "NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory[1]: expected a non-empty <string>; found <integer>2</integer>"
        ),
        (
            ManifestFixtures.attributes(category: "<dict/>"),
            "NSExtension.NSExtensionAttributes.UNNotificationExtensionCategory: expected a <string> or an <array> of <string>; found a <dict>"
        ),
        (
            ManifestFixtures.attributes(extra: "<key>UNNotificationExtensionUserInteractionEnabled</key><real>2</real>"),
            "NSExtension.NSExtensionAttributes.UNNotificationExtensionUserInteractionEnabled: expected <true/> or <false/>; found <real>2.0</real>"
        ),
        (
            ManifestFixtures.attributes().replacing("com.apple.usernotifications.content-extension", with: "com.apple.widgetkit-extension"),
            "NSExtension.NSExtensionPointIdentifier: unknown extension point \"com.apple.widgetkit-extension\""
        ),
        (
            ManifestFixtures.attributes().replacing("<key>NSExtensionPrincipalClass</key>", with: "<key>Principal</key>"),
            "NSExtension.NSExtensionPrincipalClass: missing"
        ),
        (
            ManifestFixtures.service.replacing("<key>NSExtensionPrincipalClass</key>", with: "<key>NSExtensionMainStoryboard</key>"),
            "NSExtension.NSExtensionPrincipalClass: missing: a service extension"
        ),
    ])
    func errorsNameTheKey(_ xml: String, _ expected: String) {
        let found = errors(xml)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix(expected) == true, "\(found)")
    }

    @Test func everyProblemIsReportedAtOnce() {
        let found = errors(ManifestFixtures.attributes(category: "<array/>", ratio: "<date>2020-01-01T00:00:00Z</date>"))
        #expect(found.count == 2)
    }

    @Test func aTopLevelArrayIsNotAManifest() {
        #expect(errors("<plist version=\"1.0\"><array/></plist>") == ["an Info.plist is a dictionary at the top; found an <array> of 0"])
    }

    // MARK: Property-based: random manifests written in both forms read back the same

    @Test func randomManifestsRoundTrip() throws {
        var random = SplitMix64(seed: 0x5EED)
        let alphabet = Array("abcXYZ09_-.é日🔊".unicodeScalars)
        func word() -> String {
            var s = ""
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                s.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)])
            }
            return s
        }
        for _ in 0..<500 {
            var categories: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let c = word()
                if !categories.contains(c) { categories.append(c) }
            }
            let ratio = Double(Int.random(in: 0...300, using: &random)) / 100
            let hidden = Bool.random(using: &random), title = Bool.random(using: &random)
            let interactive = Bool.random(using: &random)
            let asArray = categories.count > 1 || Bool.random(using: &random)
            let attributes = PropertyListDictionary([
                ("UNNotificationExtensionCategory", asArray ? .array(categories.map { .string($0) }) : .string(categories[0])),
                ("UNNotificationExtensionInitialContentSizeRatio", Bool.random(using: &random) ? .real(ratio) : .integer(Int64(ratio))),
                ("UNNotificationExtensionDefaultContentHidden", .bool(hidden)),
                ("UNNotificationExtensionOverridesDefaultTitle", .bool(title)),
                ("UNNotificationExtensionUserInteractionEnabled", .bool(interactive)),
            ])
            let className = "C" + String(Int.random(in: 0...999, using: &random))
            let root = PropertyListValue.dictionary(
                PropertyListDictionary([
                    (
                        "NSExtension",
                        .dictionary(
                            PropertyListDictionary([
                                ("NSExtensionAttributes", .dictionary(attributes)),
                                ("NSExtensionPointIdentifier", .string(ExtensionPoint.content.rawValue)),
                                ("NSExtensionPrincipalClass", .string("$(PRODUCT_MODULE_NAME).\(className)")),
                            ]))
                    )
                ]))
            for bytes in [Array(PropertyListWriter.xml(root).utf8), PropertyListWriter.binary(root)] {
                let value = try PropertyListParser.parse(bytes).value
                #expect(value == root)
                let m = try ExtensionManifest.decode(value, bundleName: "Ext", path: "Info.plist")
                #expect(m.categories == categories)
                let expectedRatio = attributes["UNNotificationExtensionInitialContentSizeRatio"]!.doubleValue!
                #expect(m.initialContentSizeRatio == expectedRatio)
                #expect(m.defaultContentHidden == hidden && m.overridesDefaultTitle == title && m.userInteractionEnabled == interactive)
                #expect(m.typeName == "Ext.\(className)")
            }
        }
    }
}
