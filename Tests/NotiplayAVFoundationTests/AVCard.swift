import Foundation
import Notiplay
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

/// How many engines these tests run at once, so that a 2-core machine keeps up with real-time
/// output.
@MainActor
enum AVEngines {
    static let slots = EngineSlots(free: 4)
}

/// An awaited event did not come within the guard (a hang, not slowness: the guard is generous).
struct AVEventMissing: Error, CustomStringConvertible {
    let what: String
    let seen: [String]
    var description: String { "no \(what) within 60 s; seen: \(seen.joined(separator: " "))" }
}

/// Every event libmpv sent, in order, read by the test as they come.
@MainActor
final class EngineRecorder {
    private(set) var events: [PlaybackEvent] = []
    private var waiters: [Int: (matches: (PlaybackEvent) -> Bool, continuation: CheckedContinuation<Bool, Never>)] = [:]
    private var nextWaiter = 0
    private var listener: Task<Void, Never>?

    init(_ engine: any PlaybackEngine) {
        let stream = engine.events()
        listener = Task { @MainActor [weak self] in
            for await event in stream { self?.record(event) }
        }
    }

    func stop() { listener?.cancel() }

    private func record(_ event: PlaybackEvent) {
        events.append(event)
        for (id, waiter) in waiters where waiter.matches(event) {
            waiters[id] = nil
            waiter.continuation.resume(returning: true)
        }
    }

    /// Waits until an event that `matches` was recorded (at once if one was).
    func wait(_ what: String, for matches: @escaping (PlaybackEvent) -> Bool) async throws {
        if events.contains(where: matches) { return }
        let id = nextWaiter
        nextWaiter += 1
        let guardTimer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: .seconds(60))
            guard !Task.isCancelled, let waiter = self?.waiters.removeValue(forKey: id) else { return }
            waiter.continuation.resume(returning: false)
        }
        let came = await withCheckedContinuation { waiters[id] = (matches, $0) }
        guardTimer.cancel()
        guard came else { throw AVEventMissing(what: what, seen: events.map { "\($0.kind)" }) }
    }
}

/// One engine and one session presenting for a test app whose categories the ported extensions
/// claim: `memo` (``MemoExtension``) and `player` (``ItemPlayerExtension``).
@MainActor
final class AVCard {
    enum Output {
        /// libmpv's `null` output, as fast as it decodes.
        case untimed
        /// libmpv's `null` output in real time: a long file plays on through a test.
        case realTime
        /// libmpv's `pcm` output, as fast as it decodes: what was rendered.
        case capture
    }

    let engine: MPVEngine
    let session: PresentationSession
    let recorder: EngineRecorder
    private let capture: String?

    private init(output: Output) throws {
        switch output {
        case .untimed:
            capture = nil
            engine = try MPVEngine(output: .null(untimed: true))
        case .realTime:
            capture = nil
            engine = try MPVEngine(output: .null(untimed: false))
        case .capture:
            let path = try TestMedia.scratch().appendingPathComponent("heard.wav").path
            capture = path
            engine = try MPVEngine(output: .pcm(path: path))
        }
        recorder = EngineRecorder(engine)
        var types = ExtensionTypes()
        types.register(MemoExtension.self, as: "Ported.MemoExtension")
        types.register(ItemPlayerExtension.self, as: "Ported.ItemPlayerExtension")
        let registry = try ExtensionRegistry([
            Self.manifest("MemoExtension", category: "memo"),
            Self.manifest("ItemPlayerExtension", category: "player"),
        ])
        let categories = ["memo", "player"].map { UNNotificationCategory(identifier: $0, actions: [], options: []) }
        let app = AppDefinition(name: "Ported", categories: categories, extensionsDirectory: nil, forwardedActions: .printOnly)
        session = PresentationSession(app: app, registry: registry, types: types, engine: engine)
    }

    private static func manifest(_ type: String, category: String) -> ExtensionManifest {
        ExtensionManifest(
            bundleName: type, path: "\(type).appex/Info.plist", point: .content, principalClass: "Ported.\(type)",
            mainStoryboard: nil, typeName: "Ported.\(type)", bundleIdentifier: nil, displayName: nil,
            categories: [category], initialContentSizeRatio: 0.5, defaultContentHidden: false,
            overridesDefaultTitle: false, userInteractionEnabled: true, warnings: [])
    }

    /// Runs `body` with a new card, then closes the session and shuts the engine down whatever
    /// happened. Returns what was rendered, for `.capture` (`nil` when nothing was).
    @discardableResult
    static func run(_ output: Output, _ body: (AVCard) async throws -> Void) async throws -> WAVFile? {
        await AVEngines.slots.acquire()
        defer { AVEngines.slots.release() }
        let card = try AVCard(output: output)
        var failure: (any Error)?
        do { try await body(card) } catch { failure = error }
        await card.session.settle()
        card.session.close()
        await card.engine.shutdown()  // the capture's header is written when the output closes
        card.recorder.stop()
        if let failure { throw failure }
        guard let capture = card.capture, FileManager.default.fileExists(atPath: capture) else { return nil }
        return try WAVFile(contentsOf: capture)
    }

    /// Presents a notification of `category` with the audio file at `attachment` attached, and
    /// `body` as its body (of `thread`: one of the thread shown goes to the extension shown);
    /// returns the extension presenting it.
    func present<Extension>(
        _ type: Extension.Type, category: String, attachment: String? = nil, body: String = "", thread: String = ""
    ) throws -> Extension {
        let content = UNMutableNotificationContent()
        content.title = "Ported"
        content.body = body
        content.categoryIdentifier = category
        content.threadIdentifier = thread
        if let attachment { content.attachments = [try AttachmentValidator().validate(attachment)] }
        let request = UNNotificationRequest(identifier: "n\(session.log.events.count)", content: content, trigger: nil)
        try session.present(UNNotification(request: request, date: Date()))
        return try #require(session.controller as? Extension)
    }

    /// Where the session's log stands now, to read what comes after.
    var mark: Int { session.log.events.count }

    /// The names of the session's events since `mark`.
    func names(since mark: Int) -> [String] {
        session.log.events[mark...].map(\.name)
    }

    /// The first session event since `mark` that `matches`, waiting for it if it has not come.
    @discardableResult
    func event(
        _ what: String, since mark: Int, where matches: @escaping @MainActor (LoggedEvent) -> Bool
    ) async throws -> LoggedEvent {
        if let logged = session.log.events[mark...].first(where: matches) { return logged }
        guard let logged = await session.log.next(timeout: .seconds(60), where: matches) else {
            throw AVEventMissing(what: what, seen: session.log.events[mark...].map(\.json))
        }
        return logged
    }

    /// The session's `playback` event with `state` since `mark`: what libmpv reported for the
    /// card's player.
    @discardableResult
    func playback(_ state: String, since mark: Int) async throws -> LoggedEvent {
        try await event("playback \(state)", since: mark) { $0.name == "playback" && $0.string("state") == state }
    }

    /// The session's `playback` events' states since `mark`.
    func playbackStates(since mark: Int) -> [String] {
        session.log.events[mark...].filter { $0.name == "playback" }.compactMap { $0.string("state") }
    }
}

extension LoggedEvent {
    /// The number value of the field `key`, if it has one.
    func number(_ key: String) -> Double? {
        for (k, v) in fields where k == key {
            switch v {
            case .number(let n): return n
            case .integer(let i): return Double(i)
            default: return nil
            }
        }
        return nil
    }
}
