import NotiplayCore
import NotiplayFreedesktop
import NotiplayTestSupport
import Testing

/// The bridge hands the center a mapped notification's payload twice: as the text it stores and
/// decoded, made at once. What the center shows on arrival must be what it shows after a restart,
/// when it decodes the text.
@Suite struct EncodedPayloadTests {
    let mapping = FreedesktopMapping(options: .init(dataDirectories: []))

    static let notifications: [FreedesktopNotify] = [
        FreedesktopNotify(appName: "make", summary: "Build done", body: "all 42 targets"),
        FreedesktopNotify(summary: "", body: ""),
        FreedesktopNotify(
            appName: "Thunderbird", appIcon: "thunderbird", summary: "Mail from Ann",
            body: "<b>Lunch?</b> see <a href=\"https://example.org\">menu</a> &amp; reply",
            actions: ["default", "Open", "archive", "Archive", "inline-reply", "Reply"],
            hints: [
                "urgency": .byte(2), "category": .string("email.arrived"), "desktop-entry": .string("thunderbird"),
                "resident": .bool(true), "transient": .bool(true), "image-path": .string("/tmp/ann.png"),
            ],
            expireTimeout: 30_000),
        FreedesktopNotify(summary: "quiet", hints: ["urgency": .byte(0), "suppress-sound": .bool(true)], expireTimeout: 0),
        FreedesktopNotify(summary: "Done", hints: ["sound-file": .string(TestMedia.path("chime.wav"))]),
        FreedesktopNotify(summary: "\u{202E}evil\u{1B}[2J", body: "line\none\ttab", actions: ["yes", "Yes", "no", "No"]),
    ]

    @Test(arguments: notifications.indices)
    func decodedEqualsTheStoredText(_ index: Int) throws {
        var mapped = mapping.map(Self.notifications[index], id: UInt32(index + 1))
        try check(mapped)
        // Presented under a category an app's content extension claims.
        mapped.present(under: "voice-memo")
        #expect(mapped.categoryIdentifier == "voice-memo")
        try check(mapped)
    }

    func check(_ mapped: FreedesktopMapped) throws {
        let (json, payload) = mapped.encodedPayload
        let decoded = try PayloadDecoder(sizeLimit: nil).decode(Array(json.utf8))
        #expect(json == mapped.payloadJSON)
        #expect(payload == decoded)
        #expect(payload.content.attachments.isEmpty)
    }
}
