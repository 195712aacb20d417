import Foundation
import NagMe
import NotiplayTesting
import Testing

/// The extension presented by notiplay's runtime, headless, with its real Info.plist and app
/// file: what a playback script checks, from Swift.
@MainActor
@Suite("NagMe presented by the test host")
struct NagMeHostTests {
    /// notiplay's Media folder (NagMe.app.json, Extensions/NagMe.appex, nagme.apns, chime.wav).
    static let media = "/" + #filePath.split(separator: "/").dropLast(5).joined(separator: "/") + "/Media"

    func host(audio: TestAudio = .untimed) throws -> NotificationTestHost {
        var types = ExtensionTypes()
        NagMeExtensions.register(in: &types)
        return try NotificationTestHost(app: "\(Self.media)/NagMe.app.json", types: types, audio: audio)
    }

    @Test("cancel keeps the card and mutes the speaker; snooze closes it")
    func cancelThenSnooze() async throws {
        let host = try host()
        try await host.deliver(payload: "\(Self.media)/nagme.apns")
        #expect(host.extensionName == "NagMe")
        #expect(host.screen().contains("Reminder: Water the plants  🔊"))
        try host.action("cancel")
        try await host.wait(until: "response")
        #expect(host.events(named: "response").last?.string("option") == "doNotDismiss")
        #expect(host.screen().contains("🔇"))
        try host.action("snooze")
        try await host.wait(until: "dismissed")
        #expect(host.isDismissed)
        await host.close()
    }

    @Test("NagMe has no media button: an attached chime is never played, nothing is heard")
    func chimeIsHeard() async throws {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("nagme-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let host = try host(audio: .capture(path: capture))
        try await host.deliver(payload: "\(Self.media)/nagme.apns", attachments: ["\(Self.media)/chime.wav"])
        // NagMe has no media button: the runtime's button is not drawn, the card ignores it.
        #expect(host.buttonState == .none)
        #expect(try await host.heardSeconds() == 0)
    }
}
