import NotiplayCore
import Foundation
import Notiplay
import NotiplayTestSupport
import Testing

/// Puts " [changed]" after the title and hands the content over at once.
final class RetitlingService: UNNotificationServiceExtension {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let content = UNMutableNotificationContent(request.content)
        content.title += " [changed]"
        contentHandler(content.content)
    }
}

@MainActor
@Suite("Delivering a notification: decode once, the service extension stage, present", .timeLimit(.minutes(1)))
struct NotificationDeliveryTests {
    let date = Date(timeIntervalSince1970: 1_800_000_000)

    /// A payload with an alert (unless `title` is empty), `mutable-content` and the category `test`;
    /// `extra` is more top-level JSON, a leading comma included.
    func json(title: String = "Lunch", mutable: Int = 1, extra: String = "") -> [UInt8] {
        let alert = title.isEmpty ? "" : #""alert": {"title": "\#(title)", "body": "Soup is ready"}, "#
        return Array(#"{"aps": {\#(alert)"category": "test", "mutable-content": \#(mutable)}\#(extra)}"#.utf8)
    }

    func delivery(title: String = "Lunch", mutable: Int = 1, extra: String = "") throws -> NotificationDelivery {
        try NotificationDelivery(
            bytes: json(title: title, mutable: mutable, extra: extra), sizeLimit: PayloadDecoder.apnsLimit,
            identifier: "lunch", date: date)
    }

    /// A payload file named `name` in a new scratch folder.
    func file(_ name: String = "lunch.apns", bytes: [UInt8]) throws -> String {
        let url = try TestMedia.scratch().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A registry whose service extension `Service.appex` names `Test.RetitlingService`, or no
    /// service extension at all.
    func registry(service: Bool = true, content typeName: String? = nil) throws -> ExtensionRegistry {
        var manifests: [ExtensionManifest] = []
        if service {
            manifests.append(manifest("Service", point: .service, typeName: "Test.RetitlingService", categories: []))
        }
        if let typeName { manifests.append(manifest("Content", point: .content, typeName: typeName, categories: ["test"])) }
        return try ExtensionRegistry(manifests)
    }

    func manifest(_ name: String, point: ExtensionPoint, typeName: String, categories: [String]) -> ExtensionManifest {
        ExtensionManifest(
            bundleName: name, path: "\(name).appex/Info.plist", point: point, principalClass: typeName,
            mainStoryboard: nil, typeName: typeName, bundleIdentifier: nil, displayName: nil, categories: categories,
            initialContentSizeRatio: 0, defaultContentHidden: false, overridesDefaultTitle: false,
            userInteractionEnabled: false, warnings: [])
    }

    var types: ExtensionTypes {
        var types = ExtensionTypes()
        types.registerService(RetitlingService.self, as: "Test.RetitlingService")
        return types
    }

    /// Limits on a clock that moves only when a test moves it, media fetched into `cache`.
    func configuration(cache: String = "/nonexistent", payloadDirectory: String? = nil) -> ServiceExtensionStage.Configuration {
        var configuration = ServiceExtensionStage.Configuration(
            environment: HostEnvironment(mediaCacheDirectory: cache), payloadDirectory: payloadDirectory)
        configuration.clock = ManualClock()
        return configuration
    }

    func errors(_ log: EventLog) -> [String] {
        log.events(named: "error").compactMap { $0.string("message") }
    }

    // MARK: Decoding

    @Test("Bytes decode once into the payload and the notification: identifier, date, push trigger")
    func decodesBytes() throws {
        let delivery = try delivery()
        #expect(delivery.payload.content.title == "Lunch")
        #expect(delivery.mutableContent)
        #expect(delivery.payloadFile == nil)
        let request = delivery.notification.request
        #expect(request.identifier == "lunch")
        #expect(request.trigger is UNPushNotificationTrigger)
        #expect(request.content == delivery.payload.content)
        #expect(delivery.notification.date == date)
    }

    @Test("A file's notification is named after the file unless an identifier is given")
    func decodesFile() throws {
        let path = try file("memo.apns", bytes: json())
        let delivery = try NotificationDelivery(file: path, sizeLimit: PayloadDecoder.apnsLimit, date: date)
        #expect(delivery.notification.request.identifier == "memo")
        #expect(delivery.payloadFile == path)
        #expect(delivery.notification.request.content.categoryIdentifier == "test")
        let named = try NotificationDelivery(file: path, sizeLimit: nil, identifier: "other", date: date)
        #expect(named.notification.request.identifier == "other")
    }

    @Test("APNs' size limit refuses a large payload; nil lifts it")
    func sizeLimit() throws {
        let large = json(extra: #", "padding": "\#(String(repeating: "x", count: 5000))""#)
        let path = try file(bytes: large)
        #expect {
            try NotificationDelivery(file: path, sizeLimit: PayloadDecoder.apnsLimit, date: date)
        } throws: { error in
            guard case .payloadFile(let invalid) = error as? NotificationDelivery.Failure else { return false }
            let tooLarge = invalid.errors.contains { if case .payloadTooLarge = $0.cause { true } else { false } }
            return invalid.file == path && tooLarge
        }
        #expect {
            try NotificationDelivery(bytes: large, sizeLimit: PayloadDecoder.apnsLimit, identifier: "big", date: date)
        } throws: { error in
            guard case .payload = error as? NotificationDelivery.Failure else { return false }
            return true
        }
        #expect(try NotificationDelivery(file: path, sizeLimit: nil, date: date).payload.content.title == "Lunch")
        let unlimited = try NotificationDelivery(bytes: large, sizeLimit: nil, identifier: "big", date: date)
        #expect(unlimited.payload.content.title == "Lunch")
    }

    @Test("The payload is checked before the attachments; errors read as the decoder's and the validator's")
    func failures() throws {
        let missing = TestMedia.path("no-such-file.wav")
        let bad = try file(bytes: Array(#"{"aps": 3}"#.utf8))
        var failure: NotificationDelivery.Failure?
        do {
            _ = try NotificationDelivery(file: bad, sizeLimit: nil, date: date, attachments: .files([missing]))
        } catch { failure = error }
        guard case .payloadFile(let invalid) = failure else {
            Issue.record("expected the payload's error, got \(String(describing: failure))")
            return
        }
        #expect(failure?.notiplayError == invalid.notiplayError)
        #expect(failure?.description == invalid.notiplayError.description)

        let good = try file(bytes: json())
        failure = nil
        do {
            _ = try NotificationDelivery(
                file: good, sizeLimit: nil, date: date, attachments: .files([TestMedia.path("chime.wav"), missing]))
        } catch { failure = error }
        var expected: NotiplayError?
        do { _ = try AttachmentValidator().validate(missing) } catch { expected = error }
        #expect(failure == .attachment(try #require(expected)))
        #expect(failure?.notiplayError == expected)

        failure = nil
        do {
            _ = try NotificationDelivery(bytes: Array("[]".utf8), sizeLimit: nil, identifier: "x", date: date)
        } catch { failure = error }
        #expect(failure?.notiplayError.kind == .badData)
        #expect(failure?.description.contains("a payload is a JSON object") == true)
    }

    @Test("Attachments: files validated in order and named after the file; stored ones kept under their name unless no longer valid")
    func attachments() throws {
        let bytes = json()
        let chime = TestMedia.path("chime.wav")
        let tone = TestMedia.path("tone-1s.wav")
        let files = try NotificationDelivery(
            bytes: bytes, sizeLimit: nil, identifier: "a", date: date, attachments: .files([tone, chime]))
        #expect(files.notification.request.content.attachments.map(\.identifier) == ["tone-1s.wav", "chime.wav"])
        #expect(files.payload.content.attachments.isEmpty)

        let stored = try NotificationDelivery(
            bytes: bytes, sizeLimit: nil, identifier: "b", date: date,
            attachments: .stored([(path: chime, identifier: "kept"), (path: TestMedia.path("gone.wav"), identifier: "gone")]))
        #expect(stored.notification.request.content.attachments.map(\.identifier) == ["kept"])
        #expect(stored.notification.request.content.attachments.first?.audioFile?.format == .wav)

        let attachment = try AttachmentValidator().validate(chime, identifier: "given")
        let validated = try NotificationDelivery(
            bytes: bytes, sizeLimit: nil, identifier: "c", date: date, attachments: .validated([attachment]))
        #expect(validated.notification.request.content.attachments == [attachment])
    }

    @Test("A service extension is wanted for mutable content with alert text, from the app's extension or a media-url")
    func wantsServiceExtension() throws {
        let service = try registry()
        let none = try registry(service: false)
        let media = #", "media-url": "voice-memo.m4a""#
        #expect(try delivery().wantsServiceExtension(in: service))
        #expect(try !delivery().wantsServiceExtension(in: none))
        #expect(try delivery(extra: media).wantsServiceExtension(in: none))
        #expect(try !delivery(mutable: 0).wantsServiceExtension(in: service))
        #expect(try !delivery(mutable: 0, extra: media).wantsServiceExtension(in: none))
        #expect(try !delivery(title: "").wantsServiceExtension(in: service))

        // The stage still has something to say when the app's extension is skipped.
        #expect(try delivery(mutable: 0).concernsServiceStage(in: service))
        #expect(try delivery(title: "").concernsServiceStage(in: service))
        #expect(try !delivery(mutable: 0, extra: media).concernsServiceStage(in: none))
        #expect(try delivery(extra: media).concernsServiceStage(in: none))
    }

    // MARK: The service extension stage

    @Test("The stage changes the notification, keeps its payload, identifier and date")
    func serviceStage() async throws {
        let arrived = try delivery()
        let log = EventLog()
        let delivered = await arrived.runningServiceStage(
            registry: try registry(), types: types, log: log, configuration: configuration(), reportingSkip: false)
        #expect(delivered.notification.request.content.title == "Lunch [changed]")
        #expect(delivered.notification.request.identifier == "lunch")
        #expect(delivered.notification.date == date)
        #expect(delivered.payload == arrived.payload)
        #expect(delivered.payload.content.title == "Lunch")
        let service = log.events(named: "service")
        #expect(service.count == 1)
        #expect(service.first?.string("outcome") == "modified")
        #expect(errors(log).isEmpty)
    }

    @Test("A skipped service extension is reported only when the host asks")
    func skipReporting() async throws {
        let arrived = try delivery(mutable: 0)
        let reported = EventLog()
        let same = await arrived.runningServiceStage(
            registry: try registry(), types: types, log: reported, configuration: configuration(), reportingSkip: true)
        #expect(same.notification == arrived.notification)
        #expect(reported.events(named: "service").first?.string("outcome") == "skipped")
        #expect(reported.events(named: "service").first?.string("reason")?.contains("mutable-content") == true)

        let silent = EventLog()
        let untouched = await arrived.runningServiceStage(
            registry: try registry(), types: types, log: silent, configuration: configuration(), reportingSkip: false)
        #expect(untouched.notification == arrived.notification)
        #expect(silent.events.isEmpty)

        // Neither an app's extension nor a media-url: nothing runs, nothing is recorded.
        let nothing = EventLog()
        _ = try await delivery().runningServiceStage(
            registry: try registry(service: false), types: types, log: nothing, configuration: configuration(),
            reportingSkip: true)
        #expect(nothing.events.isEmpty)
    }

    @Test("A payload file's folder is where a relative media-url is found, unless the configuration names one")
    func payloadFolder() async throws {
        let path = TestMedia.path("voice-memo.apns")
        let cache = try TestMedia.scratch().appendingPathComponent("media").path
        let arrived = try NotificationDelivery(file: path, sizeLimit: PayloadDecoder.apnsLimit, date: date)
        let log = EventLog()
        let fetched = await arrived.runningServiceStage(
            registry: .empty, types: ExtensionTypes(), log: log, configuration: configuration(cache: cache), reportingSkip: true)
        #expect(fetched.notification.request.content.attachments.map(\.identifier) == ["voice-memo.m4a"])
        #expect(errors(log).isEmpty)

        // A folder given is kept: the relative path is refused there, and named with the file.
        let elsewhere = try TestMedia.scratch().path
        let refusedLog = EventLog()
        let refused = await arrived.runningServiceStage(
            registry: .empty, types: ExtensionTypes(), log: refusedLog,
            configuration: configuration(cache: cache, payloadDirectory: elsewhere), reportingSkip: true)
        #expect(refused.notification == arrived.notification)
        #expect(errors(refusedLog).first?.hasPrefix("\(path): media-url") == true)

        // Bytes have no folder: a relative path is refused.
        let bytes = try NotificationDelivery(
            bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), sizeLimit: nil, identifier: "memo", date: date)
        let bytesLog = EventLog()
        let unchanged = await bytes.runningServiceStage(
            registry: .empty, types: ExtensionTypes(), log: bytesLog, configuration: configuration(cache: cache), reportingSkip: true)
        #expect(unchanged.notification == bytes.notification)
        #expect(errors(bytesLog).first?.contains("voice-memo.m4a: is not a URL") == true)
    }

    @Test("Dating changes only the date")
    func dated() throws {
        let delivery = try delivery()
        let later = date.addingTimeInterval(90)
        let dated = delivery.dated(later)
        #expect(dated.notification.date == later)
        #expect(dated.notification.request == delivery.notification.request)
        #expect(dated.payload == delivery.payload)
    }

    // MARK: Presenting

    @Test("Presented into a session given, or into a new one")
    func presents() throws {
        let delivery = try delivery()
        let given = PresentationSession(app: .standard, registry: .empty, types: ExtensionTypes(), engine: FakeEngine.scripted())
        defer { given.close() }
        try delivery.present(in: given)
        #expect(given.notification == delivery.notification)

        let log = EventLog()
        let made = try delivery.present(
            app: .standard, registry: .empty, types: ExtensionTypes(), engine: FakeEngine.scripted(), log: log,
            configuration: .init())
        defer { made.close() }
        #expect(made.notification == delivery.notification)
        #expect(made.log === log)
        #expect(log.events(named: "didReceive").count == 1)
    }

    @Test("An extension whose type is not registered: the runtime's error")
    func unregisteredExtension() throws {
        let delivery = try delivery()
        let registry = try registry(service: false, content: "Test.Missing")
        #expect {
            try delivery.present(
                app: .standard, registry: registry, types: ExtensionTypes(), engine: FakeEngine.scripted(), log: EventLog(),
                configuration: .init())
        } throws: { error in
            (error as? NotiplayError)?.reason.contains("Test.Missing, which is not a registered extension type") == true
        }
    }
}
