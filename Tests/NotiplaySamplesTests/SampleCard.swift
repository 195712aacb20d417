import NotiplayViews
import NotiplayCore
import Foundation
import Notiplay
import NotiplayPlayback
import NotiplayTestSupport
import Testing

@testable import NotiplaySamples

/// The samples' files: `Samples/<Name>/…` in the repository.
enum SampleFiles {
    static let root = TestMedia.root.appendingPathComponent("Samples").path

    /// `Samples/<path>`.
    static func path(_ path: String) -> String { root + "/" + path }

    /// The five samples, by folder name.
    static let names = ["Reminder", "Balance", "CustomNumber", "VoiceMemo", "Preview"]
}

/// An awaited event did not come.
struct EventMissing: Error, CustomStringConvertible {
    let what: String
    let seen: [String]
    var description: String { "no \(what) in time; events: \(seen.joined(separator: " "))" }
}

/// How many libmpv engines the sample tests run at once (the machine has two cores).
@MainActor
enum SampleEngines {
    static let slots = EngineSlots(free: 3)
}

/// One sample's app, read from its real files (`Samples/<Name>/<Name>.app.json` and its
/// `Extensions` folder), presented by a real ``PresentationSession`` on a real libmpv engine.
@MainActor
final class SampleCard {
    enum Output {
        /// Real-time null output: audio takes as long as it lasts.
        case realTime
        /// As fast as libmpv decodes.
        case untimed
        /// Captured to a WAV file, as fast as it decodes.
        case capture
        /// No audio: positions come when the test reports them to this engine.
        case driven(FakeEngine)
    }

    let name: String
    let app: AppDefinition
    let registry: ExtensionRegistry
    let types: ExtensionTypes
    let engine: any PlaybackEngine
    let session: PresentationSession
    /// Scratch space: the media cache, the capture, and the Reminder store unless one is given.
    let scratch: URL
    /// The Reminder sample's store folder for cards presented here.
    let storeFolder: String
    let capture: String?

    private init(_ name: String, output: Output, storeFolder: String?, responseTimeLimit: Duration) throws {
        self.name = name
        scratch = try TestMedia.scratch()
        self.storeFolder = storeFolder ?? scratch.appendingPathComponent("store").path
        app = try AppDefinition.decodeFile(SampleFiles.path("\(name)/\(name).app.json"))
        registry = try ExtensionRegistry.load(folder: try #require(app.extensionsDirectory))
        var types = ExtensionTypes()
        Samples.register(in: &types, configuration: Samples.Configuration(reminderStoreFolder: self.storeFolder))
        try types.check(registry)
        self.types = types
        switch output {
        case .realTime:
            capture = nil
            engine = try MPVEngine(output: .null(untimed: false))
        case .untimed:
            capture = nil
            engine = try MPVEngine(output: .null(untimed: true))
        case .capture:
            let path = scratch.appendingPathComponent("heard.wav").path
            capture = path
            engine = try MPVEngine(output: .pcm(path: path))
        case .driven(let driven):
            capture = nil
            engine = driven
        }
        session = PresentationSession(
            app: app, registry: registry, types: types, engine: engine,
            configuration: .init(responseTimeLimit: responseTimeLimit))
    }

    /// Runs `body` with a new card of sample `name`, then closes the session and shuts the engine
    /// down whatever happened. Returns the capture for `.capture`.
    @discardableResult
    static func run(
        _ name: String, output: Output = .untimed, storeFolder: String? = nil, responseTimeLimit: Duration = .seconds(10),
        _ body: (SampleCard) async throws -> Void
    ) async throws -> WAVFile? {
        await SampleEngines.slots.acquire()
        defer { SampleEngines.slots.release() }
        let card = try SampleCard(name, output: output, storeFolder: storeFolder, responseTimeLimit: responseTimeLimit)
        card.session.onChange = { [weak card] in card?.cardChanged() }
        var failure: (any Error)?
        do { try await body(card) } catch { failure = error }
        await card.session.settle()
        card.session.close()
        await card.engine.shutdown()
        defer { try? FileManager.default.removeItem(at: card.scratch) }
        if let failure { throw failure }
        guard let capture = card.capture, FileManager.default.fileExists(atPath: capture) else { return nil }
        return try WAVFile(contentsOf: capture)
    }

    // MARK: Presenting

    /// Presents `Samples/<name>/<payload>` as `notiplay deliver` does: the payload decoded, its
    /// service extension stage run (media fetched into scratch), then presented.
    @discardableResult
    func present(_ payload: String) async throws -> (any UNNotificationContentExtension & TerminalViewController)? {
        let path = SampleFiles.path("\(name)/\(payload)")
        let decoded = try PayloadDecoder().decodeFile(path)
        let identifier = String(payload.split(separator: ".").first ?? "")
        let request = await ServiceExtensionStage.run(
            request: decoded.request(identifier: identifier), payloadIsMutable: decoded.mutableContent,
            registry: registry, types: types, log: session.log,
            configuration: .init(
                environment: HostEnvironment(mediaCacheDirectory: scratch.appendingPathComponent("cache").path),
                payloadDirectory: SampleFiles.path(name)))
        try present(UNNotification(request: request, date: Date()))
        return session.controller
    }

    /// Presents content made in the test.
    @discardableResult
    func present(_ content: UNMutableNotificationContent, identifier: String = "made")
        throws -> (any UNNotificationContentExtension & TerminalViewController)?
    {
        try present(UNNotification(request: UNNotificationRequest(identifier: identifier, content: content.content, trigger: nil), date: Date()))
        return session.controller
    }

    private func present(_ notification: UNNotification) throws {
        try session.present(notification)
    }

    // MARK: Reading

    /// The card as plain text, 60 columns wide.
    var text: String { FrameRenderer.plainText(CardLayout.render(session.card(), width: 60)) }

    /// The card's text inside its borders, lines trimmed and joined by spaces: wrapped text reads
    /// as one line.
    var flatText: String {
        text.split(separator: "\n").map { line in
            line.dropFirst(2).dropLast(2).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The card's action identifiers.
    var actions: [String] { session.actions.map(\.identifier) }

    /// Where the log stands now.
    var mark: Int { session.log.events.count }

    /// The names of the events since `mark`.
    func names(since mark: Int = 0) -> [String] { session.log.events[mark...].map(\.name) }

    /// The events named `name` since `mark`.
    func events(_ name: String, since mark: Int = 0) -> [LoggedEvent] {
        session.log.events[mark...].filter { $0.name == name }
    }

    /// The first event since `mark` that matches, waiting for it if it has not come.
    @discardableResult
    func wait(
        for what: String, since mark: Int, timeout: Duration = .seconds(30),
        where matches: @escaping @MainActor (LoggedEvent) -> Bool
    ) async throws -> LoggedEvent {
        if let line = session.log.events[mark...].first(where: matches) { return line }
        guard let line = await session.log.next(timeout: timeout, where: matches) else {
            throw EventMissing(what: what, seen: session.log.events.map(\.json))
        }
        return line
    }

    /// The `playback` event with `state` since `mark`.
    @discardableResult
    func playback(_ state: String, since mark: Int) async throws -> LoggedEvent {
        try await wait(for: "playback \(state)", since: mark) { $0.name == "playback" && $0.string("state") == state }
    }

    /// The `response` event for `action` since `mark`.
    @discardableResult
    func response(to action: String, since mark: Int) async throws -> LoggedEvent {
        try await wait(for: "response to \(action)", since: mark) { $0.name == "response" && $0.string("identifier") == action }
    }

    /// Waits until the card's text satisfies `condition`: checked now and each time the session
    /// says the card changed (the view changes on position updates). The limit is a hang guard.
    func waitForText(
        _ what: String, timeout: Duration = .seconds(30), _ condition: @escaping @MainActor (String) -> Bool
    ) async throws {
        if condition(text) { return }
        let id = nextTextWaiter
        nextTextWaiter += 1
        let guardTask = Task { @MainActor [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled, let self, let waiter = self.textWaiters.removeValue(forKey: id) else { return }
            waiter.continuation.resume(returning: false)
        }
        let shown = await withCheckedContinuation { continuation in
            textWaiters[id] = TextWaiter(condition: condition, continuation: continuation)
        }
        guardTask.cancel()
        guard shown else {
            throw EventMissing(what: "card text: \(what)\n\(text)", seen: session.log.events.map(\.json))
        }
    }

    private struct TextWaiter {
        let condition: @MainActor (String) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private var textWaiters: [Int: TextWaiter] = [:]
    private var nextTextWaiter = 0

    /// The session's `onChange`: wakes the text waiters whose condition now holds.
    private func cardChanged() {
        guard !textWaiters.isEmpty else { return }
        let now = text
        for (id, waiter) in textWaiters where waiter.condition(now) {
            textWaiters[id] = nil
            waiter.continuation.resume(returning: true)
        }
    }
}

extension LoggedEvent {
    /// A numeric field.
    func number(_ key: String) -> Double? {
        for (k, v) in line.fields where k == key {
            switch v {
            case .number(let d): return d
            case .integer(let i): return Double(i)
            default: return nil
            }
        }
        return nil
    }
}
