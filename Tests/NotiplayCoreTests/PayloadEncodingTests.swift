import Testing

@testable import NotiplayCore

/// Content written back as a payload reads back into the same content.
@Suite struct PayloadEncodingTests {
    func decode(_ json: String) throws -> APNsPayload {
        try PayloadDecoder(sizeLimit: nil).decode(Array(json.utf8))
    }

    @Test("every field survives payloadJSON and a decoding; mutable-content goes, custom keys stay")
    func roundTrip() throws {
        let original = try decode(
            """
            {"aps": {"alert": {"title": "T", "subtitle": "S", "body": "B", "launch-image": "L"}, "badge": 3,
             "sound": {"critical": 1, "name": "alarm.caf", "volume": 0.5}, "category": "c", "thread-id": "t",
             "interruption-level": "time-sensitive", "relevance-score": 0.25, "target-content-id": "x",
             "filter-criteria": "f", "mutable-content": 1},
             "custom": {"n": [1, 2.5, "three", null, true]}}
            """)
        let edited = UNMutableNotificationContent(original.content)
        edited.title = "Edited \u{1F3B5} \"quoted\""
        edited.sound = UNNotificationSound(named: "ping.wav")
        let content = edited.content
        let again = try decode(content.payloadJSON)
        #expect(again.content.title == "Edited \u{1F3B5} \"quoted\"")
        #expect(again.content.sound == UNNotificationSound(named: "ping.wav"))
        #expect(again.mutableContent == false)
        let expected = UNMutableNotificationContent(content)
        expected.jsonUserInfo = again.content.jsonUserInfo
        #expect(again.content == expected.content)
        #expect(again.content.jsonUserInfo["custom"] == original.content.jsonUserInfo["custom"])
        #expect(again.content.jsonUserInfo["aps"]?["mutable-content"] == nil)
    }

    @Test("a critical sound and the defaults: an empty alert stays absent, active is not written")
    func defaults() throws {
        let content = UNMutableNotificationContent()
        content.body = "only a body"
        content.sound = .defaultCritical
        let json = content.content.payloadJSON
        #expect(json.contains("\"sound\":{\"critical\":1,\"name\":\"default\"}"), "\(json)")
        #expect(!json.contains("interruption-level"))
        let again = try decode(json)
        #expect(again.content.body == "only a body" && again.content.sound == .defaultCritical)
    }
}
