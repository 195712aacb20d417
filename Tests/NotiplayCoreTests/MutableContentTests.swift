import NotiplayCore
import Testing

@Suite("Notification content as iOS has it: classes, mutableCopy() as Any, userInfo as [AnyHashable: Any]")
struct MutableContentTests {
    @Test("A constant mutable content is edited in place; a request keeps a copy")
    func constantContent() {
        let content = UNMutableNotificationContent()
        content.title = "Notification Title"
        content.userInfo = ["customNumber": 33, "tags": ["a", "b"], "nested": ["k": true], "ratio": 0.5]
        let request = UNNotificationRequest(identifier: "a", content: content, trigger: nil)
        content.title = "changed"
        #expect(request.content.title == "Notification Title")
        #expect(!(request.content is UNMutableNotificationContent))
        #expect(request.content.userInfo["customNumber"] as? Int == 33)
        #expect(request.content.userInfo["tags"] as? [String] == ["a", "b"])
        #expect((request.content.userInfo["nested"] as? [String: Any])?["k"] as? Bool == true)
        #expect(request.content.userInfo["ratio"] as? Double == 0.5)
        #expect(request.content.jsonUserInfo["customNumber"]?.intValue == 33)
    }

    @Test("mutableCopy() returns Any, as Apple's does, and the cast gives an independent copy")
    func mutableCopy() throws {
        let original = UNMutableNotificationContent()
        original.body = "body"
        let frozen = original.content
        let copy = try #require(frozen.mutableCopy() as? UNMutableNotificationContent)
        copy.body = "edited"
        #expect(frozen.body == "body")
        #expect(copy.body == "edited")
        #expect((copy.copy() as? UNNotificationContent)?.body == "edited")
        #expect(copy != frozen)
        #expect(UNMutableNotificationContent(frozen) == frozen)
    }

    @Test("Values with no JSON form are left out of userInfo; JSON null reads as nil")
    func userInfoConversion() {
        struct Opaque {}
        let content = UNMutableNotificationContent()
        content.userInfo = ["kept": "yes", "dropped": Opaque(), 7: "not a string key", "none": Optional<Int>.none as Any]
        #expect(content.jsonUserInfo.map(\.0) == ["kept", "none"])
        #expect(content.jsonUserInfo["none"] == JSONValue.null)
        #expect(content.userInfo["kept"] as? String == "yes")
        #expect(content.userInfo["dropped"] == nil)
    }
}
