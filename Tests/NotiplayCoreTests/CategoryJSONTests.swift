import Testing

@testable import NotiplayCore

/// Categories written in the app file's form (what an app's `setNotificationCategories` sends)
/// and read back by the app file's reader; JSON written as Swift literals.
@Suite struct CategoryJSONTests {
    /// `categories` encoded, then read as an app file's `categories` by ``AppDefinition``.
    func roundTrip(_ categories: Set<UNNotificationCategory>) throws -> [UNNotificationCategory] {
        let list = try JSONParser.parse(Array(CategoryJSON.encode(categories).utf8))
        let file = JSONValue.object(JSONObject([("name", .string("App")), ("categories", list)]))
        let app = try AppDefinition.decode(file, path: "categories")
        #expect(app.warnings.isEmpty, "\(app.warnings)")
        return app.categories
    }

    @Test("Seed 002's category: an identifier, no actions, nothing else")
    func seedCategory() throws {
        let category = UNNotificationCategory(identifier: "category", actions: [], intentIdentifiers: [], options: [])
        #expect(CategoryJSON.encode([category]) == #"[{"identifier":"category","actions":[]}]"#)
        #expect(try roundTrip([category]) == [category])
    }

    @Test("Every action option, text input, category option, intent and placeholder survives the round trip")
    func everything() throws {
        let reminder = UNNotificationCategory(
            identifier: "reminder",
            actions: [
                UNNotificationAction(identifier: "cancel", title: "Cancel reminder", options: [.destructive, .authenticationRequired]),
                UNNotificationAction(identifier: "open", title: "Open", options: .foreground),
                UNTextInputNotificationAction(
                    identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "Message"),
                UNNotificationAction(identifier: "quiet", title: ""),
            ],
            intentIdentifiers: ["INSendMessageIntent"], hiddenPreviewsBodyPlaceholder: "%u reminders",
            options: [.customDismissAction, .allowInCarPlay, .hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle, .allowAnnouncement])
        let plain = UNNotificationCategory(identifier: "a-plain-one", actions: [])
        let decoded = try roundTrip([reminder, plain])
        #expect(decoded == [plain, reminder], "in identifier order")
        let text = CategoryJSON.encode([reminder])
        #expect(text.contains(#""options":["authenticationRequired","destructive"]"#), "\(text)")
        #expect(text.contains(#""textInput":{"buttonTitle":"Send","placeholder":"Message"}"#), "\(text)")
    }

    @Test("Titles and identifiers with quotes, backslashes, control characters and emoji are escaped")
    func escaping() throws {
        let category = UNNotificationCategory(
            identifier: "q\"uote\\d", actions: [UNNotificationAction(identifier: "a\nb", title: "Tab\there 🎉")])
        #expect(try roundTrip([category]) == [category])
    }

    @Test("userInfo is written as Apple's dictionary literal: integers stay integers, members keep their order")
    func literals() {
        let content = UNMutableNotificationContent()
        content.jsonUserInfo = ["customNumber": 33, "ratio": 0.5, "urgent": true, "tags": ["a", "b"], "nested": ["k": "v"]]
        #expect(content.jsonUserInfo["customNumber"] == .integer(33))
        #expect(content.jsonUserInfo["customNumber"]?.intValue == 33)
        #expect(content.jsonUserInfo["ratio"] == .number(0.5))
        #expect(content.jsonUserInfo["urgent"] == .bool(true))
        #expect(content.jsonUserInfo["tags"] == .array([.string("a"), .string("b")]))
        #expect(content.jsonUserInfo["nested"]?["k"] == .string("v"))
        #expect(content.jsonUserInfo.memberNames == ["customNumber", "ratio", "urgent", "tags", "nested"])
        #expect(content.content.payloadJSON.hasPrefix(#"{"customNumber":33,"ratio":0.5"#))
    }
}
