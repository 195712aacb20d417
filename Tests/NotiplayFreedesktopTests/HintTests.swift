import NotiplayCore
import NotiplayFreedesktop
import Testing

@Suite struct HintTests {
    let mapping = FreedesktopMapping(options: .init(dataDirectories: []))

    func content(_ hints: [String: HintValue], summary: String = "Hello", body: String = "") -> FreedesktopMapped {
        mapping.content(for: FreedesktopNotify(summary: summary, body: body, hints: hints), id: 1)
    }

    @Test(arguments: [
        (UInt8(0), UNNotificationInterruptionLevel.passive), (1, .active), (2, .critical),
    ])
    func urgencyByteSetsTheLevel(byte: UInt8, level: UNNotificationInterruptionLevel) {
        let mapped = content(["urgency": .byte(byte)])
        #expect(mapped.interruptionLevel == level)
        #expect(mapped.warnings.isEmpty)
    }

    @Test func noUrgencyIsActive() {
        #expect(content([:]).interruptionLevel == .active)
    }

    @Test func urgencyOutOfRangeIsActiveWithAWarning() {
        let mapped = content(["urgency": .byte(7)])
        #expect(mapped.interruptionLevel == .active)
        #expect(mapped.warnings.map(\.key) == ["hints.urgency"])
    }

    @Test func urgencyAsAStringIsIgnoredWithAWarning() {
        let mapped = content(["urgency": .string("critical")])
        #expect(mapped.interruptionLevel == .active)
        #expect(mapped.warnings.count == 1)
        #expect(mapped.warnings[0].key == "hints.urgency")
        #expect(mapped.warnings[0].message.contains("expected a byte (y)"))
        #expect(mapped.warnings[0].message.contains("found a string (s)"))
    }

    @Test func urgencyAsAnotherIntegerIsReadWithAWarning() {
        let mapped = content(["urgency": .int(2)])
        #expect(mapped.interruptionLevel == .critical)
        #expect(mapped.warnings.map(\.key) == ["hints.urgency"])
        #expect(content(["urgency": .uint(UInt64.max)]).interruptionLevel == .active)
    }

    @Test func stringHints() {
        let mapped = content([
            "category": .string("email.arrived"), "desktop-entry": .string("thunderbird"),
            "image-path": .string("/tmp/photo.png"),
        ])
        #expect(mapped.extras.category == "email.arrived")
        #expect(mapped.extras.desktopEntry == "thunderbird")
        #expect(mapped.extras.image == "/tmp/photo.png")
        #expect(mapped.warnings.isEmpty)
    }

    @Test func olderImagePathSpellingAndDesktopSuffix() {
        let mapped = content(["image_path": .string("file:///a.png"), "desktop-entry": .string("org.gnome.Evolution.desktop")])
        #expect(mapped.extras.image == "file:///a.png")
        #expect(mapped.extras.desktopEntry == "org.gnome.Evolution")
    }

    @Test(arguments: ["category", "desktop-entry", "image-path", "sound-file", "sound-name"])
    func stringHintOfWrongTypeIsIgnored(name: String) {
        let mapped = content([name: .int(5)])
        #expect(mapped.warnings.count == 1)
        #expect(mapped.warnings[0].key == "hints.\(name)")
        #expect(mapped.warnings[0].message.contains("expected a string (s)"))
        #expect(mapped.extras.category == nil && mapped.extras.desktopEntry == nil && mapped.extras.image == nil)
        #expect(mapped.soundRequest == SoundRequest())
    }

    @Test func flags() {
        let mapped = content(["resident": .bool(true), "transient": .int(1), "suppress-sound": .byte(1)])
        #expect(mapped.extras.resident)
        #expect(mapped.extras.transient)
        #expect(mapped.soundRequest.suppressed)
        #expect(mapped.warnings.isEmpty)
        let off = content(["resident": .bool(false), "transient": .uint(0)])
        #expect(!off.extras.resident && !off.extras.transient)
    }

    @Test(arguments: ["resident", "transient", "suppress-sound"])
    func flagOfWrongTypeIsIgnored(name: String) {
        let mapped = content([name: .string("true")])
        #expect(mapped.warnings.map(\.key) == ["hints.\(name)"])
        #expect(mapped.warnings[0].message.contains("expected a boolean (b)"))
        #expect(!mapped.extras.resident && !mapped.extras.transient && !mapped.soundRequest.suppressed)
    }

    @Test func unknownHintsAndImageDataAreIgnoredQuietly() {
        let mapped = content([
            "x-vendor-thing": .string("?"), "image-data": .unsupported("(iiibiiay)"), "x": .int(10), "y": .int(20),
        ])
        #expect(mapped.warnings.isEmpty)
    }

    @Test func unsupportedTypeIsNamedInTheWarning() {
        let mapped = content(["category": .unsupported("as")])
        #expect(mapped.warnings[0].message.contains("a value of type as"))
    }

    @Test func kdeReplyHints() {
        let notify = FreedesktopNotify(
            summary: "Chat", actions: ["inline-reply", "Answer"],
            hints: ["x-kde-reply-placeholder-text": .string("Type…"), "x-kde-reply-submit-button-text": .string("Post")])
        let mapped = mapping.content(for: notify, id: 3)
        #expect(mapped.extras.actions.buttons[0].reply == ReplyPrompt(buttonTitle: "Post", placeholder: "Type…"))
        #expect(mapped.extras.notificationCategory?.actions[0].textInput?.buttonTitle == "Post")
    }

    @Test func appNameIconAndSummary() {
        let notify = FreedesktopNotify(appName: "  Mail\u{1B}[2J ", appIcon: "mail-unread", summary: "New\nmail")
        let mapped = mapping.content(for: notify, id: 2)
        #expect(mapped.extras.app == "Mail")
        #expect(mapped.extras.icon == "mail-unread")
        #expect(mapped.title == "New mail")
        #expect(mapping.content(for: FreedesktopNotify(summary: "x"), id: 2).extras.app == "notiplay")
        #expect(mapping.content(for: FreedesktopNotify(appName: "tool", summary: ""), id: 2).title == "tool")
    }

    @Test func bodyPastTheLimitIsCut() {
        let small = FreedesktopMapping(options: .init(dataDirectories: [], bodyLimit: 10))
        let mapped = small.content(for: FreedesktopNotify(summary: "s", body: "0123456789é-more"), id: 1)
        #expect(mapped.body.plainText == "0123456789")
        #expect(mapped.warnings.map(\.key) == ["body"])
    }

    @Test(arguments: [
        (Int32(-1), FreedesktopExpiry.after(milliseconds: 10_000)), (0, .never), (1, .after(milliseconds: 1)), (5000, .after(milliseconds: 5000)),
        (Int32.max, .after(milliseconds: Int(Int32.max))),
    ])
    func expireTimeout(timeout: Int32, expiry: FreedesktopExpiry) {
        let mapped = mapping.content(for: FreedesktopNotify(summary: "s", expireTimeout: timeout), id: 1)
        #expect(mapped.expiry == expiry)
        #expect(mapped.extras.expireTimeout == expiry.milliseconds)
        #expect(mapped.warnings.isEmpty)
    }

    @Test("-1 is the server's default by urgency: low and normal 10 s, critical never")
    func defaultByUrgency() {
        for (urgency, expiry) in [(UInt8(0), FreedesktopExpiry.after(milliseconds: 10_000)), (1, .after(milliseconds: 10_000)), (2, .never)] {
            let notify = FreedesktopNotify(summary: "s", hints: ["urgency": .byte(urgency)], expireTimeout: -1)
            #expect(mapping.content(for: notify, id: 1).expiry == expiry, "urgency \(urgency)")
        }
        let custom = FreedesktopMapping(options: .init(
            dataDirectories: [], defaultExpiry: .init(low: .after(milliseconds: 1), normal: .never, critical: .after(milliseconds: 3))))
        #expect(custom.content(for: FreedesktopNotify(summary: "s", hints: ["urgency": .byte(0)]), id: 1).expiry == .after(milliseconds: 1))
        #expect(custom.content(for: FreedesktopNotify(summary: "s"), id: 1).expiry == .never)
        #expect(custom.content(for: FreedesktopNotify(summary: "s", hints: ["urgency": .byte(2)]), id: 1).expiry == .after(milliseconds: 3))
    }

    @Test func otherNegativeTimeoutIsTheDefaultWithAWarning() {
        let expiring = FreedesktopMapping(options: .init(dataDirectories: [], defaultExpiry: .always(.after(milliseconds: 8000))))
        let mapped = expiring.content(for: FreedesktopNotify(summary: "s", expireTimeout: -5), id: 1)
        #expect(mapped.expiry == .after(milliseconds: 8000))
        #expect(mapped.warnings.map(\.key) == ["expire_timeout"])
        #expect(expiring.content(for: FreedesktopNotify(summary: "s"), id: 1).expiry.duration == .seconds(8))
    }

    @Test("Strings the D-Bus layer cut: the body shown cut, the summary and a label kept cut, a hint and an action whose key was cut left out; each with a warning")
    func cutStrings() {
        var notify = FreedesktopNotify(
            summary: "S", body: "B", actions: ["cutkey", "Cut", "yes", "Yes…"],
            hints: ["sound-file": .string("/tmp/x"), "urgency": .byte(2)])
        notify.cutStrings = [
            "summary": 70_000, "body": 65_537, "actions[0]": 65_600, "actions[3]": 66_000, "hints.sound-file": 80_000,
            "hints": 65_537,
        ]
        let mapped = mapping.content(for: notify, id: 1)
        #expect(mapped.extras.actions.buttons.map(\.key) == ["yes"])
        #expect(mapped.soundRequest.file == nil && mapped.interruptionLevel == .critical)
        #expect(mapped.title == "S")
        let warnings = Dictionary(mapped.warnings.map { ($0.key ?? "", $0.message) }, uniquingKeysWith: { $0 + " | " + $1 })
        #expect(warnings["summary"] == "is 70000 bytes; the first 1 are kept")
        #expect(warnings["body"] == "is 65537 bytes; the first 1 are shown")
        #expect(warnings["actions[0]"] == "a key of 65600 bytes was cut, so the action is not offered")
        #expect(warnings["actions[3]"] == "is 66000 bytes; the first 6 are kept")
        #expect(warnings["hints.sound-file"] == "is 80000 bytes, too long to read, and is ignored")
        #expect(warnings["hints"] == "a hint named with 65537 bytes is ignored")
    }
}
