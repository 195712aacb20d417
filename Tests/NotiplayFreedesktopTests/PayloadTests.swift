import NotiplayCore
import NotiplayFreedesktop
import NotiplayTestSupport
import Testing

@Suite struct PayloadTests {
    let mapping = FreedesktopMapping(options: .init(dataDirectories: []))

    func decode(_ mapped: FreedesktopMapped) throws -> APNsPayload {
        try PayloadDecoder(sizeLimit: nil).decode(Array(mapped.payloadJSON.utf8))
    }

    @Test func simpleNotificationDecodes() throws {
        let mapped = mapping.map(FreedesktopNotify(appName: "make", summary: "Build done", body: "all 42 targets"), id: 12)
        let payload = try decode(mapped)
        #expect(payload.warnings.isEmpty)
        #expect(payload.content.title == "Build done")
        #expect(payload.content.body == "all 42 targets")
        #expect(payload.content.interruptionLevel == .active)
        #expect(payload.content.sound == .default)
        #expect(payload.content.categoryIdentifier == "")
        #expect(mapped.identifier == "freedesktop-12")
        #expect(mapped.appName == "make")
        #expect(mapped.keepsInHistory)
        #expect(mapped.categoryIdentifier == nil)
        // expire_timeout -1 at normal urgency: the server's default, 10 s, kept with the notification.
        #expect(payload.content.jsonUserInfo["freedesktop"] == ["id": 12, "app": "make", "expire-timeout": 10_000])
    }

    @Test func everythingRoundTrips() throws {
        let notify = FreedesktopNotify(
            appName: "Thunderbird", replacesID: 0, appIcon: "thunderbird", summary: "Mail from Ann",
            body: "<b>Lunch?</b> see <a href=\"https://example.org\">menu</a> &amp; reply",
            actions: ["default", "Open", "archive", "Archive", "inline-reply", "Reply"],
            hints: [
                "urgency": .byte(2), "category": .string("email.arrived"), "desktop-entry": .string("thunderbird"),
                "resident": .bool(true), "transient": .bool(true), "image-path": .string("/tmp/ann.png"),
                "x-kde-reply-placeholder-text": .string("Your answer"),
            ],
            expireTimeout: 30_000)
        let mapped = mapping.map(notify, id: 77)
        #expect(mapped.warnings.isEmpty)
        let payload = try decode(mapped)
        let content = payload.content
        #expect(payload.warnings.isEmpty)
        #expect(content.title == "Mail from Ann")
        #expect(content.body == "Lunch? see menu & reply")
        #expect(content.interruptionLevel == .critical)
        #expect(content.categoryIdentifier == "freedesktop.77")
        #expect(content.sound == .default)

        let extras = try #require(FreedesktopExtras(payload: content.jsonUserInfo))
        #expect(extras == mapped.extras)
        #expect(extras.id == 77)
        #expect(extras.app == "Thunderbird")
        #expect(extras.icon == "thunderbird")
        #expect(extras.category == "email.arrived")
        #expect(extras.desktopEntry == "thunderbird")
        #expect(extras.image == "/tmp/ann.png")
        #expect(extras.resident && extras.transient)
        #expect(extras.expireTimeout == 30_000)
        #expect(extras.actions.defaultActionLabel == "Open")
        #expect(extras.markup?.runs.first == StyledRun("Lunch?", bold: true))
        #expect(extras.notificationCategory == mapped.category)
        #expect(mapped.category?.actions.map(\.identifier) == ["archive", "inline-reply"])
        #expect(mapped.category?.actions[1].textInput?.placeholder == "Your answer")
        #expect(!mapped.keepsInHistory)
        #expect(mapped.isResident)
        #expect(mapped.expiry == .after(milliseconds: 30_000))

        // Written again from what was read: the same payload.
        #expect(content.payloadJSON == mapped.payloadJSON)
    }

    @Test func soundAttachmentIsNamedInThePayload() throws {
        let chime = TestMedia.path("chime.wav")
        let mapped = mapping.map(FreedesktopNotify(summary: "Done", hints: ["sound-file": .string(chime)]), id: 5)
        let payload = try decode(mapped)
        #expect(payload.content.sound == nil)
        let extras = try #require(FreedesktopExtras(payload: payload.content.jsonUserInfo))
        #expect(extras.sound?.hint == "sound-file")
        #expect(extras.sound?.file == mapped.attachments.first?.audioFile?.path)
    }

    @Test func lowUrgencyIsPassiveAndSilent() throws {
        let payload = try decode(mapping.map(FreedesktopNotify(summary: "fyi", hints: ["urgency": .byte(0)]), id: 1))
        #expect(payload.content.interruptionLevel == .passive)
        #expect(payload.content.sound == nil)
    }

    @Test func hostileTextStaysInsideTheJSON() throws {
        let notify = FreedesktopNotify(
            appName: "\"},\"aps\":{}}", summary: "\u{1B}]52;c;AAAA\u{7}title\"\\", body: "<b>\u{0}\u{1B}[2J</b>\"\\n",
            actions: ["k\"ey", "L\u{1B}abel"])
        let mapped = mapping.map(notify, id: 3)
        let payload = try decode(mapped)
        #expect(payload.content.title == "title\"\\")
        #expect(payload.content.body == "\"\\n")
        #expect(FreedesktopExtras(payload: payload.content.jsonUserInfo)?.app == "\"},\"aps\":{}}")
        #expect(mapped.category?.actions.first?.identifier == "k\"ey")
        #expect(mapped.category?.actions.first?.title == "Lbel", "ESC a is a two-byte escape: both go")
    }

    @Test func bigBodyDecodes() throws {
        let body = String(repeating: "<i>word</i> ", count: 6_000)
        let mapped = mapping.map(FreedesktopNotify(summary: "big", body: body), id: 1)
        let payload = try decode(mapped)
        #expect(payload.content.body.hasPrefix("word word"))
        #expect(FreedesktopExtras(payload: payload.content.jsonUserInfo)?.markup?.runs.count ?? 0 > 1000)
    }

    @Test func extrasNeedAnID() {
        #expect(FreedesktopExtras(payload: ["freedesktop": ["app": "x"]]) == nil)
        #expect(FreedesktopExtras(payload: ["freedesktop": ["id": -1]]) == nil)
        #expect(FreedesktopExtras(payload: ["aps": [:]]) == nil)
        let minimal = FreedesktopExtras(payload: ["freedesktop": ["id": 5, "actions": [["label": "no key"], "junk"]]])
        #expect(minimal?.app == "notiplay")
        #expect(minimal?.actions.buttons.isEmpty == true)
    }
}
