import NotiplayCore
import Foundation
import NotiplayTestSupport
import Testing

@testable import Notiplay

@MainActor
@Suite("The built-in media-fetching service extension", .timeLimit(.minutes(5)))
struct MediaAttachmentServiceTests {
    let cache: URL

    init() throws {
        cache = try TestMedia.scratch().appendingPathComponent("media")
    }

    /// The stage's limits run on a clock that moves only when a test moves it: a fetch from the
    /// loopback server is never cut short by a slow machine.
    func configuration(
        timeLimit: Duration = .seconds(20), grace: Duration = .seconds(1), payloadDirectory: String? = nil,
        clock: ManualClock = ManualClock()
    ) -> ServiceExtensionStage.Configuration {
        var configuration = ServiceExtensionStage.Configuration(
            timeLimit: timeLimit, expiryGrace: grace, environment: HostEnvironment(mediaCacheDirectory: cache.path),
            payloadDirectory: payloadDirectory)
        configuration.clock = clock
        return configuration
    }

    /// A payload with an alert, `mutable-content` and `media-url` (a JSON value, as written).
    func payload(mediaURL: String, mutable: Int = 1) throws -> APNsPayload {
        let json = #"{"aps": {"alert": {"title": "Voice memo", "body": "From Sam"}, "mutable-content": \#(mutable)}, "media-url": \#(mediaURL)}"#
        return try PayloadDecoder().decode(Array(json.utf8))
    }

    func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    func deliver(
        _ payload: APNsPayload, configuration: ServiceExtensionStage.Configuration? = nil
    ) async -> (UNNotificationRequest, EventLog) {
        let log = EventLog()
        let result = await ServiceExtensionStage.run(
            request: payload.request(identifier: "memo"), payloadIsMutable: payload.mutableContent, registry: .empty,
            types: ExtensionTypes(), log: log, configuration: configuration ?? self.configuration())
        return (result, log)
    }

    func outcome(_ log: EventLog) -> String? {
        let events = log.events(named: "service")
        #expect(events.count == 1)
        #expect(events.first?.string("extension") == "MediaAttachmentService")
        return events.first?.string("outcome")
    }

    func errors(_ log: EventLog) -> [String] {
        log.events(named: "error").compactMap { $0.string("message") }
    }

    /// Checks that the one attachment of `request` is a cached copy of `original`.
    func expectCachedCopy(_ request: UNNotificationRequest, of original: String, identifier: String, suffix: String) throws {
        let attachment = try #require(request.content.attachments.first)
        #expect(request.content.attachments.count == 1)
        #expect(attachment.identifier == identifier)
        let path = attachment.url.path
        #expect(path.hasPrefix(cache.resolvingSymlinksInPath().path + "/") || path.hasPrefix(cache.path + "/"))
        let name = attachment.url.lastPathComponent
        #expect(name.hasSuffix(suffix))
        #expect(name.count == 16 + suffix.count)
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: original))
        // Nothing half-written is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test("file:// media are copied into the cache and attached")
    func fileURL() async throws {
        let tone = TestMedia.path("tone-1s.wav")
        // From the payload's folder (Media/, as if the payload were there).
        let folder = URL(fileURLWithPath: tone).deletingLastPathComponent().path
        let (result, log) = await deliver(
            try payload(mediaURL: quoted(URL(fileURLWithPath: tone).absoluteString)), configuration: configuration(payloadDirectory: folder))
        try expectCachedCopy(result, of: tone, identifier: "tone-1s.wav", suffix: ".wav")
        #expect(result.content.attachments.first?.audioFile?.format == .wav)
        #expect(result.content.title == "Voice memo")
        #expect(outcome(log) == "modified")
        #expect(errors(log).isEmpty)
    }

    @Test("A path relative to the payload's folder, as Media/voice-memo.apns has it")
    func relativeToPayload() async throws {
        let payload = try PayloadDecoder().decodeFile(TestMedia.path("voice-memo.apns"))
        let folder = URL(fileURLWithPath: TestMedia.path("voice-memo.apns")).deletingLastPathComponent().path
        let (result, log) = await deliver(payload, configuration: configuration(payloadDirectory: folder))
        try expectCachedCopy(result, of: TestMedia.path("voice-memo.m4a"), identifier: "voice-memo.m4a", suffix: ".m4a")
        #expect(outcome(log) == "modified")

        // Without the payload's folder, a relative path is refused.
        let (unchanged, log2) = await deliver(payload)
        #expect(unchanged.content == payload.content)
        #expect(outcome(log2) == "unchanged")
        #expect(errors(log2).first?.contains("voice-memo.m4a: is not a URL") == true)
    }

    @Test("http:// media are downloaded with curl; the extension comes from the path or the content")
    func httpURL() async throws {
        let tone = TestMedia.path("tone-1s.wav")
        let server = try LoopbackHTTPServer(serving: Array(try Data(contentsOf: URL(fileURLWithPath: tone))))
        defer { server.stop() }

        let (result, log) = await deliver(try payload(mediaURL: quoted(server.url("/tone.wav"))))
        try expectCachedCopy(result, of: tone, identifier: "tone.wav", suffix: ".wav")
        #expect(outcome(log) == "modified")
        #expect(errors(log).isEmpty)

        let (sniffed, _) = await deliver(try payload(mediaURL: quoted(server.url("/download"))))
        let cached = try #require(sniffed.content.attachments.first)
        #expect(cached.identifier == "download")
        #expect(cached.url.pathExtension == "wav")

        let (redirected, _) = await deliver(try payload(mediaURL: quoted(server.url("/moved"))))
        #expect(redirected.content.attachments.first?.byteCount == 88244)
    }

    @Test("A download that fails or is not media: no attachment, an error naming the URL, the content unchanged")
    func httpFailures() async throws {
        let server = try LoopbackHTTPServer(serving: Array(try Data(contentsOf: URL(fileURLWithPath: TestMedia.path("tone-1s.wav")))))
        defer { server.stop() }
        for (path, reason) in [("/missing.wav", "404"), ("/text.wav", "fetched, but")] {
            let payload = try payload(mediaURL: quoted(server.url(path)))
            let (result, log) = await deliver(payload)
            #expect(result.content == payload.content)
            #expect(result.content.attachments.isEmpty)
            #expect(outcome(log) == "unchanged")
            let message = try #require(errors(log).first)
            #expect(message.hasPrefix(server.url(path) + ": "), "\(message)")
            #expect(message.contains(reason), "\(message)")
        }
    }

    @Test("At the time limit curl is killed and the original content is shown")
    func timeLimitKillsCurl() async throws {
        let server = try LoopbackHTTPServer(serving: Array(try Data(contentsOf: URL(fileURLWithPath: TestMedia.path("tone-1s.wav")))))
        defer { server.stop() }
        let payload = try payload(mediaURL: quoted(server.url("/slow")))
        // The stage's limit runs on a clock the test moves; curl's own --max-time is the limit
        // plus the grace (ten minutes of real time): only a kill ends it within the wait below.
        let clock = ManualClock()
        let configuration = configuration(timeLimit: .milliseconds(300), grace: .seconds(600), clock: clock)
        let came = server.slowClientCame
        let delivery = Task { await deliver(payload, configuration: configuration) }
        // curl is fetching (the server sent it the first bytes), and the stage waits on its limit.
        let fetching = try await withTimeout(120) {
            for await _ in came { return true }
            return false
        }
        #expect(fetching)
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        let (result, log) = await delivery.value
        #expect(result.content == payload.content)
        #expect(outcome(log) == "unchanged")
        #expect(log.events(named: "service").first?.fields.contains { $0.0 == "timeWillExpire" } == true)
        #expect(errors(log).first?.contains("stopped at the time limit") == true)
        let gone = server.slowClientGone
        // A hang guard far above a kill (milliseconds) and far below curl's own limit.
        let disconnected = try await withTimeout(120) {
            for await _ in gone { return true }
            return false
        }
        #expect(disconnected)
    }

    @Test("Unsupported references and missing files: an error, the content unchanged", arguments: [
        ("\"ftp://127.0.0.1/memo.wav\"", "uses the ftp: scheme"),
        ("\"data:audio/wav;base64,UklGRg==\"", "uses the data: scheme"),
        ("\"memo.wav\"", "is not a URL"),
        ("\"file:///nonexistent-notiplay-folder/memo.wav\"", "media-url \"file:///nonexistent-notiplay-folder/memo.wav\" is refused"),
        ("\"file://example.com/memo.wav\"", "names the host"),
        ("\"http://\"", "names no host"),
        ("\"http://127.0.0.1/a b.wav\"", "spaces or control characters"),
        ("\"\"", "is empty"),
        ("42", "expected a string"),
    ])
    func refused(mediaURL: String, reason: String) async throws {
        let payload = try payload(mediaURL: mediaURL)
        let (result, log) = await deliver(payload)
        #expect(result.content == payload.content)
        #expect(outcome(log) == "unchanged")
        #expect(errors(log).count == 1)
        #expect(errors(log).first?.contains(reason) == true, "\(errors(log))")
    }

    @Test("Not run without mutable-content: 1")
    func notMutable() async throws {
        let payload = try payload(mediaURL: quoted(URL(fileURLWithPath: TestMedia.path("tone-1s.wav")).absoluteString), mutable: 0)
        let (result, log) = await deliver(payload)
        #expect(result.content.attachments.isEmpty)
        #expect(log.events.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cache.path))
    }

    @Test("Without curl on PATH: a clear error")
    func noCurl() async throws {
        let fetcher = MediaFetcher(cacheDirectory: cache.path, environment: ["PATH": "/nonexistent-notiplay-folder"])
        await #expect {
            try await fetcher.fetch("http://127.0.0.1:1/memo.wav")
        } throws: { error in
            "\(error)" == "http://127.0.0.1:1/memo.wav: fetching http(s) media needs curl on PATH"
        }
    }

    @Test("Cache names: a hash of the reference, the path's extension when the content agrees")
    func names() {
        #expect(MediaFetcher.hashName("a") != MediaFetcher.hashName("b"))
        #expect(MediaFetcher.hashName("") == "cbf29ce484222325")
        #expect(MediaFetcher.seconds(.milliseconds(300)) == "0.300")
        #expect(MediaFetcher.seconds(.seconds(31)) == "31.000")
        #expect(MediaFetcher.seconds(.zero) == "0.001")
        #expect(MediaFetcher.Source.scheme(of: "HTTPS://x") == "https")
        #expect(MediaFetcher.Source.scheme(of: "memo.wav") == nil)
        #expect(MediaFetcher.Source.scheme(of: "dir/a:b.wav") == nil)
    }
}
