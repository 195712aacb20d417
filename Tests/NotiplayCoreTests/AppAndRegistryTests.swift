import Foundation
import NotiplayTestSupport
import Testing

@testable import NotiplayCore

@Suite struct AppDefinitionTests {
    func app(_ json: String, at path: String = "/tmp/app.json") throws -> AppDefinition {
        try AppDefinition.decode(JSONParser.parse(json), path: path)
    }

    func errors(_ json: String) -> [String] {
        do {
            _ = try app(json)
            return []
        } catch let error as InvalidFileError {
            return error.errors.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test func readsTheExampleInMedia() throws {
        let app = try AppDefinition.decodeFile(Fixtures.media("NagMe.app.json"))
        #expect(app.name == "NagMe")
        let reminder = try #require(app.category("reminder"))
        #expect(reminder.actions.map(\.identifier) == ["cancel", "snooze", "reply"])
        #expect(reminder.actions[0].options == [.destructive])
        #expect(reminder.actions[2].textInput == .init(buttonTitle: "Send", placeholder: "Say why"))
        #expect(reminder.options.contains(.customDismissAction))
        #expect(app.extensionsDirectory?.hasSuffix("Media/Extensions") == true)
        #expect(app.forwardedActions.print)
        #expect(app.warnings.isEmpty)
    }

    @Test func appliesDefaultsAndResolvesTheCommand() throws {
        let a = try app(#"{"name": "Balance", "forwardedActions": {"command": ["./handle.sh", "--json"]}}"#, at: "/srv/app/app.json")
        #expect(a.categories.isEmpty && a.extensionsDirectory == nil)
        #expect(a.forwardedActions == .init(print: true, command: ["/srv/app/./handle.sh", "--json"]))
        #expect(try app(#"{"name": "X", "forwardedActions": {"command": ["notify-send"]}}"#).forwardedActions.command == ["notify-send"])
    }

    @Test(arguments: [
        (#"{"categories": []}"#, "name: missing"),
        (#"{"name": ""}"#, #"name: expected a non-empty string; found string """#),
        (#"[]"#, "an app file is a JSON object"),
        (#"{"name": "A", "categories": [{"actions": []}]}"#, "categories[0].identifier: missing"),
        (
            #"{"name": "A", "categories": [{"identifier": "c"}, {"identifier": "c"}]}"#,
            #"categories[1].identifier: "c" is already the identifier of categories[0]"#
        ),
        (
            #"{"name": "A", "categories": [{"identifier": "c", "actions": [{"identifier": "a", "title": "A", "options": ["loud"]}]}]}"#,
            "categories[0].actions[0].options[0]: expected one of authenticationRequired, destructive, foreground"
        ),
        (
            #"{"name": "A", "categories": [{"identifier": "c", "actions": [{"identifier": "a"}]}]}"#,
            "categories[0].actions[0].title: missing"
        ),
        (
            #"{"name": "A", "categories": [{"identifier": "c", "actions": [{"identifier": "a", "title": "A"}, {"identifier": "a", "title": "B"}]}]}"#,
            "categories[0].actions[1].identifier: \"a\" is already"
        ),
        (
            #"{"name": "A", "categories": [{"identifier": "c", "options": ["customDismiss"]}]}"#,
            "categories[0].options[0]: expected one of customDismissAction"
        ),
        (#"{"name": "A", "extensions": "no/such/folder"}"#, #"extensions: "no/such/folder" is not a folder"#),
        (#"{"name": "A", "forwardedActions": {"command": []}}"#, "forwardedActions.command: expected a non-empty array"),
        (
            #"{"name": "A", "categories": [{"identifier": "c", "actions": [{"identifier": "com.apple.UNNotificationDefaultActionIdentifier", "title": "x"}]}]}"#,
            "categories[0].actions[0].identifier: \"com.apple.UNNotificationDefaultActionIdentifier\" is reserved"
        ),
    ])
    func errorsNameTheKey(_ json: String, _ expected: String) {
        let found = errors(json)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix(expected) == true, "\(found)")
    }

    @Test func unknownKeysAreWarnings() throws {
        let a = try app(#"{"name": "A", "colour": "red", "categories": [{"identifier": "c", "actons": []}]}"#)
        #expect(a.warnings.map(\.key) == ["categories[0].actons", "colour"])
    }
}

@Suite struct ExtensionRegistryTests {
    /// A folder of bundles: name → Info.plist text (or nil for a bundle without one).
    func folder(_ bundles: [String: String?]) throws -> String {
        let root = try Fixtures.scratch()
        for (name, plist) in bundles {
            let bundle = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            if let plist { try plist.write(to: bundle.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8) }
        }
        try "not an extension".write(to: root.appendingPathComponent("README.txt"), atomically: true, encoding: .utf8)
        return root.path
    }

    static let meal = ManifestFixtures.attributes(category: "<string>meal</string>")
    static let mealAndSnack = ManifestFixtures.attributes(category: "<array><string>snack</string><string>meal</string></array>")

    @Test func loadsEveryBundleAndRoutesByCategory() throws {
        let binary = PropertyListWriter.binary(try PropertyListParser.parse(Array(ManifestFixtures.nagMe.utf8)).value)
        let dir = try folder(["Lunch.appex": Self.meal, "Fetcher.appex": ManifestFixtures.service])
        try Data(binary).write(to: URL(fileURLWithPath: dir).appendingPathComponent("NagMe.appex/Info.plist").creatingFolder())
        let registry = try ExtensionRegistry.load(folder: dir)
        #expect(registry.extensions.map(\.bundleName) == ["Fetcher", "Lunch", "NagMe"])
        #expect(registry.contentExtension(for: "meal")?.bundleName == "Lunch")
        #expect(registry.contentExtension(for: "nag")?.typeName == "NagMe.NotificationViewController")
        #expect(registry.contentExtension(for: "unknown") == nil)  // the default card
        #expect(registry.contentExtension(for: "") == nil)
        #expect(registry.serviceExtension?.bundleName == "Fetcher")
    }

    @Test func twoExtensionsClaimingOneCategoryIsAnErrorNamingBoth() throws {
        let dir = try folder(["Lunch.appex": Self.meal, "Kitchen.appex": Self.mealAndSnack])
        #expect {
            try ExtensionRegistry.load(folder: dir)
        } throws: { error in
            let text = "\(error)"
            return text.contains(#"category "meal" is claimed by both Kitchen.appex and Lunch.appex"#)
        }
    }

    @Test func twoServiceExtensionsIsAnError() throws {
        let dir = try folder(["A.appex": ManifestFixtures.service, "B.appex": ManifestFixtures.service])
        #expect(throws: RegistryError.self) { try ExtensionRegistry.load(folder: dir) }
    }

    @Test func everyBrokenBundleIsReported() throws {
        let dir = try folder([
            "Good.appex": Self.meal, "Empty.appex": nil,
            "Broken.appex": "<plist><dict><key>NSExtension</key></dict></plist>",
        ])
        do {
            _ = try ExtensionRegistry.load(folder: dir)
            Issue.record("loaded a folder with broken bundles")
        } catch {
            #expect(error.failures.count == 2)
            #expect(error.failures[0].file.hasSuffix("Broken.appex/Info.plist"))
            #expect(error.failures[0].errors.first?.line == 1)
            #expect(error.failures[1].description.hasSuffix("Empty.appex: has no Info.plist; an extension bundle holds one"))
        }
    }

    @Test func aMissingFolderIsMissingInput() {
        do {
            _ = try ExtensionRegistry.load(folder: "/no/such/folder")
        } catch {
            #expect(error.failures.first?.isMissing == true)
            #expect(error.failures.first?.notiplayError.kind == .missingInput)
        }
    }
}

@Suite struct AttachmentTests {
    @Test func audioAttachmentsAreRecognisedByContent() throws {
        let dir = try Fixtures.scratch()
        let renamed = dir.appendingPathComponent("memo.txt")
        try FileManager.default.copyItem(atPath: Fixtures.media("chime.mp3"), toPath: renamed.path)
        let attachment = try UNNotificationAttachment(identifier: "", url: renamed)
        #expect(attachment.identifier == "memo.txt")
        #expect(attachment.type == "public.mp3" && attachment.audioFile?.format == .mp3)
        let m4a = try AttachmentValidator().validate(Fixtures.media("voice-memo.m4a"), identifier: "memo")
        #expect(m4a.identifier == "memo" && m4a.type == "com.apple.m4a-audio")
        #expect(m4a.url.path.hasSuffix("Media/voice-memo.m4a"))
    }

    @Test func imagesAreAttachmentsButNotAudio() throws {
        let dir = try Fixtures.scratch()
        let png = dir.appendingPathComponent("cover.png")
        try Fixtures.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 100), to: png)
        let attachment = try AttachmentValidator().validate(png.path)
        #expect(attachment.kind == .image(.png) && attachment.audioFile == nil && attachment.type == "public.png")
    }

    @Test func limitsAreByType() throws {
        let limits = AttachmentLimits(audio: 1000, image: 200_000)
        let validator = AttachmentValidator(limits: limits)
        #expect {
            try validator.validate(Fixtures.media("chime.wav"))
        } throws: { error in
            "\(error)".contains("the limit for audio attachments is 0.0 MB")
        }
        let dir = try Fixtures.scratch()
        let jpeg = dir.appendingPathComponent("photo.jpg")
        try Fixtures.write([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 150_000), to: jpeg)
        #expect(try validator.validate(jpeg.path).kind == .image(.jpeg))
        #expect(AttachmentLimits.default.audio == 5 * 1_048_576)
    }

    @Test func badAttachmentsAreRefused() throws {
        let dir = try Fixtures.scratch()
        let text = dir.appendingPathComponent("notes.wav")
        try Fixtures.write(Array("just some text, not audio at all".utf8), to: text)
        #expect(throws: NotiplayError.self) { try AttachmentValidator().validate(text.path) }
        #expect(throws: NotiplayError.self) { try AttachmentValidator().validate(dir.path) }
        #expect(throws: NotiplayError.self) {
            try UNNotificationAttachment(identifier: "x", url: URL(string: "https://example.com/a.mp3")!)
        }
        do {
            _ = try AttachmentValidator().validate(dir.appendingPathComponent("gone.mp3").path)
        } catch {
            #expect(error.kind == .missingInput)
        }
    }
}

extension URL {
    /// The URL, after creating its folder.
    func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}
