import NotiplayCore
import NotiplayViews
import Notiplay
package import NotiplayPlayback

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a test host's audio goes.
public enum TestAudio: Sendable, Equatable {
    /// libmpv's `null` output, faster than real time: media plays to its end at once. For tests
    /// that do not depend on real time.
    case untimed
    /// libmpv's `null` output in real time.
    case realTime
    /// In real time, as through a sound card, with what a listener heard written to a WAV file at
    /// `path` (libmpv's `pcm` output paced by notiplay): ``NotificationTestHost/heardSeconds()``
    /// tells how much, pauses and waits included. The audio's pipe lives in a private folder made in
    /// `temporaryFolder`.
    case capture(path: String, temporaryFolder: String = "/tmp")
}

/// A test failure of a ``NotificationTestHost`` call: what was expected, and the last events.
public struct TestHostFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// The last events before the failure (at most ten), as JSON lines.
    public var lastEvents: [String]
    /// The card's rows as plain text, top to bottom, when the failure is about what it shows
    /// (``NotificationTestHost/expectScreen(contains:)``); empty otherwise.
    public var screen: [String]

    /// A failure saying `message`, with `lastEvents` and the `screen` shown.
    public init(_ message: String, lastEvents: [String] = [], screen: [String] = []) {
        self.message = message
        self.lastEvents = lastEvents
        self.screen = screen
    }

    /// The message; then the screen, a row a line, indented; then the last events.
    public var description: String {
        var text = message
        if !screen.isEmpty { text += "; it shows:\n" + screen.map { "    " + $0 }.joined(separator: "\n") }
        if !lastEvents.isEmpty { text += "\nlast events:\n" + lastEvents.map { "  " + $0 }.joined(separator: "\n") }
        return text
    }
}

/// Presents notifications to content extensions headless, on real libmpv, for tests: deliver a
/// payload, press the media button or an action, wait for events, and check what the extension
/// did, what the card shows and what audio was rendered.
///
/// Drive it from Swift Testing in an extension author's own package:
///
/// ```swift
/// @Test @MainActor func playsTheMemo() async throws {
///     var types = ExtensionTypes()
///     types.register(MemoViewController.self, as: "Memo.MemoViewController")
///     let host = try NotificationTestHost(app: "Tests/Fixtures/Memo.app.json", types: types)
///     defer { Task { await host.close() } }
///     try await host.deliver(payload: "Tests/Fixtures/memo.apns")
///     try host.press(.play)
///     try await host.waitEnd()
///     #expect(host.buttonState == .play)
///     #expect(host.events(named: "mediaPlayingPaused").count == 1)
/// }
/// ```
///
/// Each host has its own libmpv engine and session; hosts run side by side.
@MainActor
public final class NotificationTestHost {
    /// What a press of the media button expects to see first.
    public enum Press: Sendable {
        /// Whatever the button shows.
        case media
        /// The button must show ▶.
        case play
        /// The button must show ⏸.
        case pause
    }

    /// The event log of everything presented.
    package let log: EventLog
    /// The session presenting.
    package let session: PresentationSession
    /// Where audio goes.
    public let audio: TestAudio
    /// The card's width and height for ``screen()`` (a `resize`).
    public var columns = 60
    /// The height for ``screen()``.
    public var rows = 24
    /// How long ``wait(until:timeout:)`` waits by default: 30 s, a guard against a hang that a busy
    /// CI machine never reaches by being slow. An event that comes, comes at once; give a shorter
    /// `timeout` only to check that an event does not come.
    public var defaultTimeout: Duration = .seconds(30)

    let engine: MPVEngine
    private let types: ExtensionTypes
    private let registry: ExtensionRegistry
    private var cursor = 0
    private var closed = false
    /// Whether the host made its engine and session (and closes them), or only looks at a
    /// center's shown card.
    private var owns = true

    /// A host over the card a center shows: its steps act on `session`; closing it leaves the
    /// session and `engine` to the center.
    package init(showing session: PresentationSession, engine: MPVEngine, audio: TestAudio) {
        self.session = session
        self.engine = engine
        self.audio = audio
        log = session.log
        types = ExtensionTypes()
        registry = .empty
        owns = false
    }

    /// A host for the app described by the app file at `appFile` (or a plain app), with the
    /// extensions of `extensionsDirectory` (default: the app file's) implemented by `types`.
    /// - Throws: ``NotiplayError`` for a bad app file, an extension folder that cannot be loaded,
    ///   an extension whose type is not registered, or libmpv that cannot start.
    public convenience init(
        app appFile: String? = nil, extensions extensionsDirectory: String? = nil,
        types: ExtensionTypes = ExtensionTypes(), audio: TestAudio = .untimed
    ) throws(NotiplayError) {
        try self.init(app: appFile, extensions: extensionsDirectory, types: types, audio: audio, configuration: .init())
    }

    /// A host as ``init(app:extensions:types:audio:)`` makes it, with the session's limits, clock
    /// and environment given.
    package convenience init(
        app appFile: String? = nil, extensions extensionsDirectory: String? = nil,
        types: ExtensionTypes = ExtensionTypes(), audio: TestAudio = .untimed,
        configuration: PresentationSession.Configuration
    ) throws(NotiplayError) {
        var app = AppDefinition.standard
        if let appFile {
            do { app = try AppDefinition.decodeFile(appFile) } catch { throw error.notiplayError }
        }
        try self.init(app: app, extensions: extensionsDirectory, types: types, audio: audio, configuration: configuration)
    }

    /// A host for `app`, with the extensions of `extensionsDirectory` (default: the app's).
    package init(
        app: AppDefinition, extensions extensionsDirectory: String? = nil, types: ExtensionTypes = ExtensionTypes(),
        audio: TestAudio = .untimed, configuration: PresentationSession.Configuration = .init()
    ) throws(NotiplayError) {
        var registry = ExtensionRegistry.empty
        if let folder = extensionsDirectory ?? app.extensionsDirectory {
            do {
                registry = try ExtensionRegistry.load(folder: folder)
                try types.check(registry)
            } catch {
                throw error.failures.last?.notiplayError ?? NotiplayError(.badData, file: folder, "cannot be loaded")
            }
        }
        let output: AudioOutput =
            switch audio {
            case .untimed: .null(untimed: true)
            case .realTime: .null(untimed: false)
            case .capture(let path, let temporaryFolder): .pacedCapture(path: path, temporaryFolder: temporaryFolder)
            }
        do {
            engine = try MPVEngine(output: output)
        } catch let error as LibmpvUnavailable {
            throw NotiplayError(.unavailable, "\(error)")
        } catch {
            throw NotiplayError(.unavailable, "libmpv cannot start: \(error)")
        }
        self.audio = audio
        self.types = types
        self.registry = registry
        log = EventLog()
        session = PresentationSession(
            app: app, registry: registry, types: types, engine: engine, log: log, configuration: configuration)
    }

    /// Closes the session and shuts the engine down (a capture is complete after this).
    public func close() async {
        guard !closed else { return }
        closed = true
        guard owns else { return }
        await session.settle()
        session.close()
        await engine.shutdown()
    }

    // MARK: Delivering

    /// Delivers the APNs payload at `path` with `attachments` (local files, validated), through
    /// the service extension stage when the payload asks for it (media fetched into the session
    /// configuration's `HostEnvironment.mediaCacheDirectory`).
    /// - Throws: ``NotiplayError`` for a bad payload or attachment, or an unregistered extension.
    public func deliver(payload path: String, attachments: [String] = []) async throws(NotiplayError) {
        let arrived: NotificationDelivery
        do {
            arrived = try NotificationDelivery(
                file: path, sizeLimit: PayloadDecoder.apnsLimit, date: .now, attachments: .files(attachments))
        } catch {
            throw error.notiplayError
        }
        let delivery = await arrived.runningServiceStage(
            registry: registry, types: types, log: log,
            configuration: ServiceExtensionStage.Configuration(environment: session.configuration.environment),
            reportingSkip: true)
        session.layoutWidth = columns
        try delivery.dated(.now).present(in: session)
    }

    // MARK: Input

    /// Presses the media button; `.play` and `.pause` fail unless the button shows ▶ or ⏸.
    public func press(_ press: Press = .media) throws(TestHostFailure) {
        switch press {
        case .media: break
        case .play where session.buttonState != .play:
            throw failure("press play: the button shows \(session.buttonState.rawValue), not play")
        case .pause where session.buttonState != .pause:
            throw failure("press pause: the button shows \(session.buttonState.rawValue), not pause")
        default: break
        }
        session.handle(.media)
    }

    /// Touches the extension's content.
    public func tapContent() { session.handle(.tapContent) }

    /// Chooses the action `identifier`, answering a text-input action with `text`.
    public func action(_ identifier: String, text: String? = nil) throws(TestHostFailure) {
        guard session.actions.contains(where: { $0.identifier == identifier }) else {
            let shown = session.actions.map(\.identifier).joined(separator: ",")
            throw failure("action \(identifier): not on the card (actions: \(shown.isEmpty ? "none" : shown))")
        }
        session.handle(.actionNamed(identifier, text: text))
    }

    /// Opens the notification (the default action).
    public func defaultAction() { session.handle(.defaultAction) }

    /// Closes the card.
    public func dismiss() { session.handle(.dismiss) }

    /// Moves the card's media to `seconds` (when the card allows seeking).
    public func seek(to seconds: Double) throws(TestHostFailure) {
        guard session.canSeek else { throw failure("seek: the card's media cannot be moved (no media button, or nothing loaded)") }
        session.handle(.seek(to: seconds))
    }

    // MARK: Waiting

    /// Lets `duration` pass: in real time (on the session's `PresentationSession.Configuration.clock`),
    /// or — with ``TestAudio/untimed`` output, where nothing depends on real time — until every
    /// command given so far has reached the engine.
    public func wait(_ duration: Duration) async {
        await session.settle()
        if audio != .untimed { try? await session.configuration.clock.sleep(for: duration) }
        await session.settle()
    }

    /// Waits for an event named `name` recorded after the one the previous wait matched (or since
    /// the start); fails after `timeout` (default ``defaultTimeout``).
    @discardableResult
    public func wait(until name: String, timeout: Duration? = nil) async throws(TestHostFailure) -> LoggedEvent {
        try await wait(until: name, timeout: timeout) { _ in true }
    }

    private func wait(
        until name: String, timeout: Duration?, where accept: @escaping @MainActor (LoggedEvent) -> Bool
    ) async throws(TestHostFailure) -> LoggedEvent {
        if let index = log.events[cursor...].firstIndex(where: { $0.name == name && accept($0) }) {
            cursor = index + 1
            return log.events[index]
        }
        let limit = timeout ?? defaultTimeout
        guard let line = await log.next(timeout: limit, where: { $0.name == name && accept($0) }) else {
            throw failure("wait until \(name): no \(name) event within \(Self.format(limit))")
        }
        cursor = (log.events.lastIndex(of: line) ?? log.events.count - 1) + 1
        return line
    }

    /// Waits until the card's media stops playing: it ends, is paused or stopped, or fails, or the
    /// card is dismissed. Returns
    /// at once when nothing plays.
    public func waitEnd(timeout: Duration = .seconds(120)) async throws(TestHostFailure) {
        await session.settle()
        let ended: @MainActor (LoggedEvent) -> Bool = { $0.event.endsMedia }
        let lastPlay = log.events[cursor...].lastIndex { $0.event == .mediaPlay }
        if !session.isPlaying {
            // Nothing was started since the last wait, or what was started has stopped already.
            guard let lastPlay else { return }
            if log.events[(lastPlay + 1)...].contains(where: ended) { return }
        }
        guard await log.next(timeout: timeout, where: ended) != nil else {
            throw failure("wait end: the media did not end within \(Self.format(timeout))")
        }
        // What the extension does at the end (mediaPlayingPaused) happens in the same turn.
        await session.settle()
    }

    // MARK: What happened

    /// The events named `name`.
    public func events(named name: String) -> [LoggedEvent] { log.events(named: name) }

    /// The media button's state.
    public var buttonState: MediaButtonState { session.buttonState }

    /// Whether the card was closed (dismissed by the person, the extension or a response).
    public var isDismissed: Bool { session.isDismissed }

    /// The identifiers of the actions on the card.
    public var actionIdentifiers: [String] { session.actions.map(\.identifier) }

    /// The presenting extension's name, as `didReceive` names it.
    public var extensionName: String? {
        for logged in log.events.reversed() {
            if case .didReceive(_, _, let name, _) = logged.event { return name }
        }
        return nil
    }

    /// The card as plain text at ``columns`` (the default content, actions and button included).
    public func screen() -> String {
        session.layoutWidth = columns
        return FrameRenderer.plainText(CardLayout.render(session.card(), width: columns))
    }

    /// Checks that the card shows `text` (once what the extension started has settled).
    /// - Throws: ``TestHostFailure`` whose ``TestHostFailure/screen`` holds the card's rows.
    public func expectScreen(contains text: String) async throws(TestHostFailure) {
        try await expectScreen(text, shown: true)
    }

    /// Checks that the card does not show `text` (once what the extension started has settled).
    /// - Throws: ``TestHostFailure`` whose ``TestHostFailure/screen`` holds the card's rows.
    public func expectScreen(lacks text: String) async throws(TestHostFailure) {
        try await expectScreen(text, shown: false)
    }

    private func expectScreen(_ text: String, shown: Bool) async throws(TestHostFailure) {
        await session.settle()
        let screen = screen()
        guard screen.contains(text) != shown else { return }
        var failure = failure("expected the screen to \(shown ? "contain" : "lack") \"\(text)\"")
        failure.screen = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        throw failure
    }

    /// The media position now, in seconds: libmpv's while a file is loaded, else where the last
    /// playback event left it.
    public func position() async -> Double {
        if let position = await engine.position() { return position }
        for logged in log.events.reversed() {
            if case .playback(_, let position, _) = logged.event { return position }
        }
        return 0
    }

    /// The seconds of audio heard so far through the capture (``TestAudio/capture(path:temporaryFolder:)``):
    /// what a listener would have heard, given the waits and pauses. The WAV file is complete once
    /// the host is closed.
    public func heardSeconds() async throws(TestHostFailure) -> Double {
        guard case .capture = audio else {
            throw failure("expect heard: the host has no capture (audio: .capture(path:))")
        }
        await session.settle()
        return engine.heardSeconds ?? 0
    }

    /// A failure with the last ten events.
    public func failure(_ message: String) -> TestHostFailure {
        TestHostFailure(message, lastEvents: log.events.suffix(10).map(\.json))
    }

    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms"
    }
}
