import NotiplayCore
import Foundation
import Notiplay
import NotiplayTestSupport
import Testing

/// What the test service extensions saw, and what a test tells them.
@MainActor
enum ServiceScript {
    static var calls: [String] = []
    static var pendingHandler: ((UNNotificationContent) -> Void)?
    static var scratch = ""

    static func reset() {
        calls = []
        pendingHandler = nil
        scratch = ""
    }
}

/// An iOS service extension as Xcode's template writes it, ported: it keeps the handler and its
/// best attempt, edits the title, attaches a file, and answers later (as after a download).
final class TitleEditingService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        ServiceScript.calls.append("didReceive")
        self.contentHandler = contentHandler
        bestAttemptContent = request.content.mutableCopy() as? UNMutableNotificationContent
        bestAttemptContent?.title = "\(request.content.title) [modified]"
        if let tone = try? UNNotificationAttachment(identifier: "tone", url: URL(fileURLWithPath: TestMedia.path("tone-1s.wav"))) {
            bestAttemptContent?.attachments.append(tone)
        }
        Task {
            if let contentHandler = self.contentHandler, let bestAttemptContent = self.bestAttemptContent {
                contentHandler(bestAttemptContent)
            }
        }
    }

    override func serviceExtensionTimeWillExpire() {
        ServiceScript.calls.append("willExpire")
        if let contentHandler, let bestAttemptContent { contentHandler(bestAttemptContent.content) }
    }
}

/// Never calls its handler (keeps it for the test).
final class SilentService: UNNotificationServiceExtension {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        ServiceScript.calls.append("didReceive")
        ServiceScript.pendingHandler = contentHandler
    }

    override func serviceExtensionTimeWillExpire() {
        ServiceScript.calls.append("willExpire")
    }
}

/// Answers only when told its time will expire.
final class LateAnswerService: UNNotificationServiceExtension {
    var handler: ((UNNotificationContent) -> Void)?
    var best: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        ServiceScript.calls.append("didReceive")
        handler = contentHandler
        best = request.content.mutableCopy() as? UNMutableNotificationContent
        best?.title = "Best attempt"
    }

    override func serviceExtensionTimeWillExpire() {
        ServiceScript.calls.append("willExpire")
        if let handler, let best { handler(best.content) }
    }
}

/// Takes the title and body away (keeps a subtitle).
final class AlertRemovingService: UNNotificationServiceExtension {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let content = UNMutableNotificationContent(request.content)
        content.title = ""
        content.body = ""
        content.subtitle = "only a subtitle"
        contentHandler(content.content)
    }
}

/// Calls its handler twice.
final class TwiceCallingService: UNNotificationServiceExtension {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let first = UNMutableNotificationContent(request.content)
        first.title = "First"
        let second = UNMutableNotificationContent(first)
        second.title = "Second"
        contentHandler(first.content)
        contentHandler(second.content)
    }
}

/// Counts its runs and changes nothing.
final class CountingService: UNNotificationServiceExtension {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        ServiceScript.calls.append("didReceive")
        super.didReceive(request, withContentHandler: contentHandler)
    }
}

/// Attaches a good file and one that was valid when attached but is text by the time the
/// runtime looks (`bad.wav`).
final class ReplacedFileService: UNNotificationServiceExtension {
    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        let content = UNMutableNotificationContent(request.content)
        let bad = URL(fileURLWithPath: ServiceScript.scratch).appendingPathComponent("bad.wav")
        do {
            try FileManager.default.copyItem(at: URL(fileURLWithPath: TestMedia.path("tone-1s.wav")), to: bad)
            content.attachments.append(try UNNotificationAttachment(identifier: "good", url: URL(fileURLWithPath: TestMedia.path("chime.wav"))))
            content.attachments.append(try UNNotificationAttachment(identifier: "bad", url: bad))
            try Data("this is not audio\n".utf8).write(to: bad)
        } catch {
            ServiceScript.calls.append("setup failed: \(error)")
        }
        content.body = "with attachments"
        contentHandler(content.content)
    }
}

@MainActor
@Suite("Service extensions: time limit, handler rules, attachments", .serialized, .timeLimit(.minutes(1)))
struct ServiceExtensionStageTests {
    init() {
        ServiceScript.reset()
    }

    /// 200 ms and a 100 ms grace, on a clock that moves only when a test moves it: an extension
    /// that answers by itself is never overtaken by its limit, however slow the machine.
    static var fast: ServiceExtensionStage.Configuration {
        var configuration = ServiceExtensionStage.Configuration(timeLimit: .milliseconds(200), expiryGrace: .milliseconds(100))
        configuration.clock = ManualClock()
        return configuration
    }

    /// A registry whose service extension `Service.appex` names `typeName`.
    func registry(_ typeName: String) throws -> ExtensionRegistry {
        let manifest = ExtensionManifest(
            bundleName: "Service", path: "Service.appex/Info.plist", point: .service, principalClass: typeName,
            mainStoryboard: nil, typeName: typeName, bundleIdentifier: nil, displayName: nil, categories: [],
            initialContentSizeRatio: 0, defaultContentHidden: false, overridesDefaultTitle: false,
            userInteractionEnabled: false, warnings: [])
        return try ExtensionRegistry([manifest])
    }

    var types: ExtensionTypes {
        var types = ExtensionTypes()
        types.registerService(TitleEditingService.self, as: "Test.TitleEditingService")
        types.registerService(SilentService.self, as: "Test.SilentService")
        types.registerService(LateAnswerService.self, as: "Test.LateAnswerService")
        types.registerService(AlertRemovingService.self, as: "Test.AlertRemovingService")
        types.registerService(TwiceCallingService.self, as: "Test.TwiceCallingService")
        types.registerService(CountingService.self, as: "Test.CountingService")
        types.registerService(ReplacedFileService.self, as: "Test.ReplacedFileService")
        types.registerService(UNNotificationServiceExtension.self, as: "Test.Base")
        return types
    }

    func request(title: String = "Lunch", body: String = "Soup is ready") -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body
        content.categoryIdentifier = "meal"
        return UNNotificationRequest(identifier: "lunch", content: content, trigger: UNPushNotificationTrigger())
    }

    func run(
        _ typeName: String, request: UNNotificationRequest? = nil, mutable: Bool = true,
        configuration: ServiceExtensionStage.Configuration = fast
    ) async throws -> (UNNotificationRequest, EventLog) {
        let log = EventLog()
        let result = await ServiceExtensionStage.run(
            request: request ?? self.request(), payloadIsMutable: mutable, registry: try registry(typeName), types: types,
            log: log, configuration: configuration)
        return (result, log)
    }

    func service(_ log: EventLog) -> LoggedEvent? {
        let events = log.events(named: "service")
        #expect(events.count == 1)
        return events.first
    }

    func errors(_ log: EventLog) -> [String] {
        log.events(named: "error").compactMap { $0.string("message") }
    }

    @Test("The template's pattern: edit the title, attach a file, answer later")
    func editsTitleAndAttaches() async throws {
        let (result, log) = try await run("Test.TitleEditingService")
        #expect(result.identifier == "lunch")
        #expect(result.trigger is UNPushNotificationTrigger)
        #expect(result.content.title == "Lunch [modified]")
        #expect(result.content.body == "Soup is ready")
        #expect(result.content.attachments.map(\.identifier) == ["tone"])
        #expect(result.content.attachments.first?.audioFile?.format == .wav)
        #expect(ServiceScript.calls == ["didReceive"])
        #expect(service(log)?.string("outcome") == "modified")
        #expect(service(log)?.string("extension") == "Service")
        #expect(errors(log).isEmpty)
    }

    /// Runs `typeName` with the `fast` limits on `clock`, in a task of its own.
    func start(_ typeName: String, clock: ManualClock) throws -> (Task<UNNotificationRequest, Never>, EventLog) {
        var configuration = Self.fast
        configuration.clock = clock
        let log = EventLog()
        let registry = try registry(typeName)
        let (request, types) = (request(), types)
        let run = Task { @MainActor in
            await ServiceExtensionStage.run(
                request: request, payloadIsMutable: true, registry: registry, types: types, log: log, configuration: configuration)
        }
        return (run, log)
    }

    @Test("A handler never called: willExpire at the limit, then the original content and an error after the grace")
    func neverCalled() async throws {
        let clock = ManualClock()
        let (run, log) = try start("Test.SilentService", clock: clock)
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(199))
        #expect(clock.sleepers == 1, "the limit is not due before 200 ms")
        #expect(ServiceScript.calls == ["didReceive"], "not told before its time is up")
        clock.advance(by: .milliseconds(1))
        await clock.waitForSleepers(1)  // the grace
        #expect(ServiceScript.calls == ["didReceive", "willExpire"])
        clock.advance(by: .milliseconds(99))
        #expect(clock.sleepers == 1, "the grace is not over before 100 ms")
        #expect(log.events(named: "service").isEmpty, "still waiting within the grace")
        clock.advance(by: .milliseconds(1))
        let result = await run.value
        #expect(result == request())
        let event = service(log)
        #expect(event?.string("outcome") == "expired")
        #expect(event?.fields.contains { $0.0 == "timeWillExpire" && $0.1 == .bool(true) } == true)
        #expect(errors(log).count == 1)
        #expect(errors(log).first?.contains("did not call its content handler") == true)

        // A call after the time was up changes nothing and is logged.
        let late = UNMutableNotificationContent(request().content)
        late.title = "Too late"
        ServiceScript.pendingHandler?(late.content)
        #expect(errors(log).count == 2)
        #expect(errors(log).last?.contains("after its time was up") == true)
    }

    @Test("An answer given in serviceExtensionTimeWillExpire is used")
    func answersInWillExpire() async throws {
        let clock = ManualClock()
        let (run, log) = try start("Test.LateAnswerService", clock: clock)
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(200))
        let result = await run.value
        #expect(ServiceScript.calls == ["didReceive", "willExpire"])
        #expect(result.content.title == "Best attempt")
        #expect(service(log)?.string("outcome") == "modified")
        #expect(service(log)?.fields.contains { $0.0 == "timeWillExpire" } == true)
        #expect(errors(log).isEmpty)
    }

    @Test("Content that removes the alert text is ignored")
    func removesAlertText() async throws {
        let (result, log) = try await run("Test.AlertRemovingService")
        #expect(result == request())
        #expect(service(log)?.string("outcome") == "ignored")
        #expect(errors(log).count == 1)
        #expect(errors(log).first?.contains("removed the alert text") == true)
    }

    @Test("Only the first call of the handler counts; the second is logged")
    func calledTwice() async throws {
        let (result, log) = try await run("Test.TwiceCallingService")
        #expect(result.content.title == "First")
        #expect(service(log)?.string("outcome") == "modified")
        #expect(errors(log).count == 1)
        #expect(errors(log).first?.contains("called its content handler again") == true)
    }

    @Test("Not run without mutable-content: 1 or without alert text")
    func notEligible() async throws {
        let (result, log) = try await run("Test.CountingService", mutable: false)
        #expect(ServiceScript.calls.isEmpty)
        #expect(result == request())
        #expect(service(log)?.string("outcome") == "skipped")
        #expect(service(log)?.string("reason")?.contains("mutable-content") == true)

        let silent = request(title: "", body: "")
        let (same, log2) = try await run("Test.CountingService", request: silent, mutable: true)
        #expect(ServiceScript.calls.isEmpty)
        #expect(same == silent)
        #expect(service(log2)?.string("reason")?.contains("alert text") == true)

        // No service extension and no media-url: nothing runs, nothing is logged.
        let log3 = EventLog()
        let untouched = await ServiceExtensionStage.run(
            request: request(), payloadIsMutable: true, registry: .empty, types: types, log: log3, configuration: Self.fast)
        #expect(untouched == request())
        #expect(log3.events.isEmpty)
    }

    @Test("The base class hands the content over unchanged")
    func baseClass() async throws {
        let (result, log) = try await run("Test.Base")
        #expect(result == request())
        #expect(service(log)?.string("outcome") == "unchanged")
        #expect(errors(log).isEmpty)
    }

    @Test("An added attachment that is no longer valid is dropped; the rest is kept")
    func invalidAttachmentDropped() async throws {
        ServiceScript.scratch = try TestMedia.scratch().path
        let (result, log) = try await run("Test.ReplacedFileService")
        #expect(ServiceScript.calls.isEmpty)
        #expect(result.content.body == "with attachments")
        #expect(result.content.attachments.map(\.identifier) == ["good"])
        #expect(service(log)?.string("outcome") == "modified")
        #expect(service(log)?.fields.contains { $0.0 == "attachments" && $0.1 == .integer(1) } == true)
        let messages = errors(log)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("bad.wav") == true)
        #expect(messages.first?.contains("dropped") == true)
    }

    @Test("Attachments are validated with the stage's limits")
    func attachmentLimits() async throws {
        var configuration = Self.fast
        configuration.attachmentLimits = AttachmentLimits(audio: 1000, image: 1000)
        let (result, log) = try await run("Test.TitleEditingService", configuration: configuration)
        #expect(result.content.title == "Lunch [modified]")
        #expect(result.content.attachments.isEmpty)
        #expect(errors(log).first?.contains("tone-1s.wav") == true)
        #expect(errors(log).first?.contains("limit") == true)
    }

    @Test("A service type that is not registered: an error at check time, the original content at run time")
    func unregistered() async throws {
        let registry = try registry("Test.Missing")
        #expect {
            try types.check(registry)
        } throws: { error in
            let text = "\(error)"
            return text.contains("NSExtension.NSExtensionPrincipalClass")
                && text.contains("names Test.Missing, which is not a registered service extension type")
                && text.contains("Test.SilentService")
        }
        #expect(throws: Never.self) { try types.check(try self.registry("Test.SilentService")) }
        #expect(throws: RegistryError.self) { try ExtensionTypes().check(try self.registry("Test.SilentService")) }

        let (result, log) = try await run("Test.Missing")
        #expect(result == request())
        #expect(errors(log).first?.contains("not a registered service extension type") == true)
    }

    @Test("A content manifest naming a service type says so")
    func wrongKind() throws {
        let manifest = ExtensionManifest(
            bundleName: "Content", path: "Content.appex/Info.plist", point: .content, principalClass: "Test.SilentService",
            mainStoryboard: nil, typeName: "Test.SilentService", bundleIdentifier: nil, displayName: nil,
            categories: ["meal"], initialContentSizeRatio: 0.5, defaultContentHidden: false, overridesDefaultTitle: false,
            userInteractionEnabled: false, warnings: [])
        #expect {
            try types.check(try ExtensionRegistry([manifest]))
        } throws: { error in
            "\(error)".contains("registered as a service extension, not a content extension")
        }
        #expect(types.serviceNames.contains(MediaAttachmentService.typeName))
        #expect(types.names.contains(DefaultContentExtension.typeName))
    }
}
