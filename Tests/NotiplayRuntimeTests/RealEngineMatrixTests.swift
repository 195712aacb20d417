import NotiplayCore
import Foundation
import Notiplay
import NotiplayPlayback
import NotiplayTestSupport
import Testing

// The runtime with libmpv behind it: every input in every state of the card, for each kind of
// media button, and the response options, completion handlers and thread re-delivery while audio
// really plays. Each test has its own engine; real-time `null` output keeps a long file playing
// while an input is applied, `pcm` output tells what was heard when a file plays to its end.

// MARK: Extensions, written the way an author writes them

/// Plays its audio attachment with ``MediaPlayer`` and reports what the player does. Its button type
/// is the first component of the category ("overlay.plain" → `.overlay`), so one registered type
/// serves every button.
class MatrixPlayerExtension: TerminalViewController, UNNotificationContentExtension {
    /// `didReceive:ID`, `mediaPlay` and `mediaPause`, in the order the runtime called them.
    var calls: [String] = []
    private(set) var player: MediaPlayer?
    private(set) var mediaPlayPauseButtonType = UNNotificationContentExtensionMediaPlayPauseButtonType.none
    let mediaPlayPauseButtonFrame = CGRect(cells: Rect(x: 0, y: 0, width: 3, height: 1))

    func didReceive(_ notification: UNNotification) {
        calls.append("didReceive:\(notification.request.identifier)")
        let kind = notification.request.content.categoryIdentifier.split(separator: ".").first.map(String.init) ?? ""
        mediaPlayPauseButtonType = UNNotificationContentExtensionMediaPlayPauseButtonType(rawValue: kind) ?? .none
        guard player == nil, let attachment = notification.request.content.attachments.first,
            let player = MediaPlayer(attachment: attachment)
        else { return }
        player.onStart = { [weak self] in self?.extensionContext?.mediaPlayingStarted() }
        player.onFinish = { [weak self] in self?.extensionContext?.mediaPlayingPaused() }
        self.player = player
    }

    func mediaPlay() {
        calls.append("mediaPlay")
        player?.play()
    }

    func mediaPause() {
        calls.append("mediaPause")
        player?.pause()
    }

    /// The media calls the runtime made.
    var mediaCalls: [String] { calls.filter { $0 == "mediaPlay" || $0 == "mediaPause" } }

    /// What the protocol's default does — the `async` form's default answer: forwarded, as for an
    /// extension without a handler. Declared here so that the responding subclass can override it
    /// (a subclass cannot override what its base class takes from a protocol extension).
    func didReceive(
        _ response: any UNNotificationResponse,
        completionHandler completion: @escaping (UNNotificationContentExtensionResponseOption) -> Void
    ) {
        Task.immediate { completion(await self.didReceive(response)) }
    }
}

/// The same, handling responses as the test says.
final class MatrixRespondingExtension: MatrixPlayerExtension {
    typealias Option = UNNotificationContentExtensionResponseOption
    enum Answer {
        case now(Option)
        case never
        case twice(Option, Option)
    }

    var answer = Answer.now(.doNotDismiss)
    private(set) var responses: [String] = []
    /// The completion handler of the last response.
    private(set) var completion: ((Option) -> Void)?

    override func didReceive(_ response: any UNNotificationResponse, completionHandler completion: @escaping (Option) -> Void) {
        if let text = response as? UNTextInputNotificationResponse {
            responses.append("\(text.actionIdentifier):\(text.userText)")
        } else {
            responses.append(response.actionIdentifier)
        }
        self.completion = completion
        switch answer {
        case .now(let option): completion(option)
        case .never: break
        case .twice(let first, let second):
            completion(first)
            completion(second)
        }
    }
}

/// Makes its player on the first `mediaPlay()`, as `MediaPlayer`'s documentation shows
/// (`lazy var player = MediaPlayer(attachment:)`).
final class MatrixLazyPlayerExtension: TerminalViewController, UNNotificationContentExtension {
    private var attachment: UNNotificationAttachment?
    private(set) lazy var player: MediaPlayer? = attachment.flatMap { MediaPlayer(attachment: $0) }
    let mediaPlayPauseButtonType = UNNotificationContentExtensionMediaPlayPauseButtonType.default
    let mediaPlayPauseButtonFrame = CGRect(cells: Rect(x: 0, y: 0, width: 3, height: 1))

    func didReceive(_ notification: UNNotification) {
        attachment = notification.request.content.attachments.first
    }

    func mediaPlay() {
        player?.onStart = { [weak self] in self?.extensionContext?.mediaPlayingStarted() }
        player?.play()
    }

    func mediaPause() { player?.pause() }
}

// MARK: The card under test

/// Media made for these tests.
@MainActor
enum MatrixMedia {
    /// A 30 s, 8 kHz tone: on real-time output it plays on through any one test.
    static func longTone() throws -> String { try TestMedia.longTone() }

    /// `Media/tone-1s.wav`: 44,100 frames, for cases that play to the end.
    static let shortTone = TestMedia.path("tone-1s.wav")
    static let shortToneFrames = 44_100
}

/// How many engines the parallel tests run at once, so that a 2-core machine keeps up with
/// real-time output.
@MainActor
enum MatrixEngines {
    static let slots = EngineSlots(free: 6)
}

/// An awaited event did not come.
struct MatrixEventMissing: Error, CustomStringConvertible {
    let what: String
    let seen: [String]
    var description: String { "no \(what) within the time limit; since the mark: \(seen.joined(separator: " "))" }
}

/// One engine, one session presenting for a test app, and a second log of everything libmpv
/// reported (the session passes on only what belongs to the card's current player).
@MainActor
final class MatrixCard {
    enum Output { case realTime, capture }

    nonisolated static let plainCategories = ["none.plain", "default.plain", "overlay.plain"]
    nonisolated static let respondingCategories = ["none.responding", "default.responding", "overlay.responding"]
    /// Claimed by no extension: the default card.
    nonisolated static let defaultCardCategory = "card"
    /// Claimed by ``MatrixLazyPlayerExtension``.
    nonisolated static let lazyCategory = "lazy"

    let engine: MPVEngine
    let session: PresentationSession
    /// libmpv's events for every file: `loaded`, `started`, `paused`, `position`, `ended` (with
    /// `reason`), `error`.
    let engineLog: MatrixEngineLog
    /// The pcm capture, for `.capture`.
    let capture: String?
    private var listener: Task<Void, Never>?

    /// The clock the session's limits run on: it moves only when a test moves it.
    let clock = ManualClock()

    private init(output: Output, responseTimeLimit: Duration) throws {
        switch output {
        case .realTime:
            capture = nil
            engine = try MPVEngine(output: .null(untimed: false))
        case .capture:
            let path = try TestMedia.scratch().appendingPathComponent("heard.wav").path
            capture = path
            engine = try MPVEngine(output: .pcm(path: path))
        }
        let stream = engine.events()
        // One clock, so that the times of the two logs compare.
        let clock = EventClock()
        engineLog = MatrixEngineLog(clock: clock)
        var types = ExtensionTypes()
        types.register(MatrixPlayerExtension.self, as: "Matrix.MatrixPlayerExtension")
        types.register(MatrixRespondingExtension.self, as: "Matrix.MatrixRespondingExtension")
        types.register(MatrixLazyPlayerExtension.self, as: "Matrix.MatrixLazyPlayerExtension")
        let registry = try ExtensionRegistry([
            Self.manifest("MatrixPlayerExtension", Self.plainCategories),
            Self.manifest("MatrixRespondingExtension", Self.respondingCategories),
            Self.manifest("MatrixLazyPlayerExtension", [Self.lazyCategory]),
        ])
        let actions = [
            UNNotificationAction(identifier: "done", title: "Done"),
            UNTextInputNotificationAction(
                identifier: "reply", title: "Reply", textInputButtonTitle: "Send", textInputPlaceholder: ""),
        ]
        let categories = (Self.plainCategories + Self.respondingCategories + [Self.defaultCardCategory, Self.lazyCategory]).map {
            UNNotificationCategory(identifier: $0, actions: actions, options: [.customDismissAction])
        }
        let app = AppDefinition(name: "Matrix", categories: categories, extensionsDirectory: nil, forwardedActions: .printOnly)
        session = PresentationSession(
            app: app, registry: registry, types: types, engine: engine, log: EventLog(clock: clock),
            configuration: .init(responseTimeLimit: responseTimeLimit, clock: self.clock))
        listener = Task { [engineLog] in
            for await event in stream { Self.record(event, in: engineLog) }
        }
    }

    private static func manifest(_ type: String, _ categories: [String]) -> ExtensionManifest {
        ExtensionManifest(
            bundleName: type, path: "\(type).appex/Info.plist", point: .content, principalClass: "Matrix.\(type)",
            mainStoryboard: nil, typeName: "Matrix.\(type)", bundleIdentifier: nil, displayName: nil,
            categories: categories, initialContentSizeRatio: 0.5, defaultContentHidden: false,
            overridesDefaultTitle: false, userInteractionEnabled: true, warnings: [])
    }

    private static func record(_ event: PlaybackEvent, in log: MatrixEngineLog) {
        let item = ("item", JSONScalar.integer(Int(event.item?.rawValue ?? 0)))
        switch event.kind {
        case .loaded(let duration): log.record("loaded", [item, ("duration", .number(duration ?? -1))])
        case .started(let position): log.record("started", [item, ("position", .number(position))])
        case .paused(let position): log.record("paused", [item, ("position", .number(position))])
        case .position(let position): log.record("position", [item, ("position", .number(position))])
        case .duration(let duration): log.record("duration", [item, ("duration", .number(duration))])
        case .ended(let reason):
            let name =
                switch reason {
                case .endOfFile: "endOfFile"
                case .stopped: "stopped"
                case .failed(let failure): "failed: \(failure)"
                case .truncated(let position): "truncated at \(position)"
                }
            log.record("ended", [item, ("reason", .string(name))])
        case .error(let failure): log.record("error", [item, ("message", .string("\(failure)"))])
        case .outputFallback(let output): log.record("fallback", [("output", .string(output))])
        }
    }

    /// Runs `body` with a new card, then closes the session and shuts the engine down whatever
    /// happened. Returns the pcm capture for `.capture`.
    @discardableResult
    static func run(
        _ output: Output, responseTimeLimit: Duration = .seconds(10), _ body: (MatrixCard) async throws -> Void
    ) async throws -> WAVFile? {
        await MatrixEngines.slots.acquire()
        defer { MatrixEngines.slots.release() }
        let card = try MatrixCard(output: output, responseTimeLimit: responseTimeLimit)
        var failure: (any Error)?
        do { try await body(card) } catch { failure = error }
        card.session.close()
        await card.engine.shutdown()  // the capture's header is written when the output closes
        card.listener?.cancel()
        if let failure { throw failure }
        guard let capture = card.capture else { return nil }
        // Nothing rendered: libmpv never opened the output.
        guard FileManager.default.fileExists(atPath: capture) else { return nil }
        return try WAVFile(contentsOf: capture)
    }

    // MARK: Presenting

    func notification(_ identifier: String, category: String, attachment: String, thread: String = "matrix") throws
        -> UNNotification
    {
        let content = UNMutableNotificationContent()
        content.title = "Matrix"
        content.body = identifier
        content.categoryIdentifier = category
        content.threadIdentifier = thread
        content.attachments = [try AttachmentValidator().validate(attachment)]
        let request = UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
        return UNNotification(request: request, date: Date())
    }

    /// Presents a new card; returns our extension, `nil` for the default card.
    @discardableResult
    func present(category: String, attachment: String, identifier: String = "n1", thread: String = "matrix") throws
        -> MatrixPlayerExtension?
    {
        try session.present(notification(identifier, category: category, attachment: attachment, thread: thread))
        return session.controller as? MatrixPlayerExtension
    }

    /// Presses the media button of a card showing ▶ and waits until libmpv plays.
    func play() async throws {
        let mark = self.mark
        session.handle(.media)
        try await playback("started", since: mark)
        try await event(in: engineLog, after: mark.engine, "engine started") { $0.name == "started" }
        #expect(session.isPlaying)
    }

    var ext: MatrixPlayerExtension? { session.controller as? MatrixPlayerExtension }
    var responder: MatrixRespondingExtension? { session.controller as? MatrixRespondingExtension }

    // MARK: Reading the logs

    /// Where a log stands now, to read what comes after.
    struct Mark {
        let session: Int
        let engine: Int
    }

    var mark: Mark { Mark(session: session.log.events.count, engine: engineLog.events.count) }

    func sessionEvents(since mark: Mark, named name: String) -> [LoggedEvent] {
        session.log.events[mark.session...].filter { $0.name == name }
    }

    func engineEvents(since mark: Mark, named name: String) -> [EventLine] {
        engineLog.events[mark.engine...].filter { $0.name == name }
    }

    /// The field `key` of each session event `name` since `mark`.
    func values(_ name: String, _ key: String, since mark: Mark) -> [String] {
        sessionEvents(since: mark, named: name).compactMap { $0.string(key) }
    }

    /// The session's `playback` states since `mark`.
    func playback(since mark: Mark) -> [String] {
        sessionEvents(since: mark, named: "playback").compactMap { $0.string("state") }
    }

    func buttonStates(since mark: Mark) -> [String] {
        sessionEvents(since: mark, named: "buttonState").compactMap { $0.string("state") }
    }

    /// `mediaPlay` and `mediaPause` as the session logged them.
    func mediaCalls(since mark: Mark) -> [String] {
        session.log.events[mark.session...].map(\.name).filter { $0 == "mediaPlay" || $0 == "mediaPause" }
    }

    /// The first event of `log` after `from` that `matches`, waiting for it if it has not come yet.
    @discardableResult
    func event(
        in log: EventLog, after from: Int, _ what: String, where matches: @escaping @MainActor (LoggedEvent) -> Bool
    ) async throws -> LoggedEvent {
        if let logged = log.events[from...].first(where: matches) { return logged }
        guard let logged = await log.next(timeout: .seconds(60), where: matches) else {
            throw MatrixEventMissing(what: what, seen: log.events[from...].map(\.json))
        }
        return logged
    }

    /// The first line of libmpv's log after `from` that `matches`, waiting for it if it has not
    /// come yet.
    @discardableResult
    func event(
        in log: MatrixEngineLog, after from: Int, _ what: String, where matches: @escaping @MainActor (EventLine) -> Bool
    ) async throws -> EventLine {
        if let line = log.events[from...].first(where: matches) { return line }
        guard let line = await log.next(timeout: .seconds(60), where: matches) else {
            throw MatrixEventMissing(what: what, seen: log.events[from...].map(\.json))
        }
        return line
    }

    /// The session's `playback` event with `state` since `mark`.
    @discardableResult
    func playback(_ state: String, since mark: Mark) async throws -> LoggedEvent {
        try await event(in: session.log, after: mark.session, "playback \(state)") {
            $0.name == "playback" && $0.string("state") == state
        }
    }

    /// libmpv's `ended` with `reason` since `mark`.
    @discardableResult
    func engineEnded(_ reason: String, since mark: Mark) async throws -> EventLine {
        try await event(in: engineLog, after: mark.engine, "engine ended (\(reason))") {
            $0.name == "ended" && $0.string("reason") == reason
        }
    }

    /// Lets every media command given so far reach libmpv, and what libmpv said reach the logs.
    func settle() async {
        await session.settle()
        await ext?.player?.settle()  // also commands given while the session had no player
        _ = await engine.position()  // a round trip through the engine's queue
        for _ in 0..<10 { await Task.yield() }
    }

    /// Whether libmpv holds a file that has not ended. `pause()` is refused only when it does not
    /// (`position()` is also `nil` while a file is loading, so it cannot tell).
    func engineHasFile() async -> Bool {
        do {
            try await engine.pause()
            return true
        } catch {
            return false
        }
    }

    /// Audio is rendered on: the position moves on by 0.3 s, with no pause or end since `mark`.
    func expectRunning(since mark: Mark, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let from = try #require(await engine.position(), "nothing is loaded", sourceLocation: sourceLocation)
        let start = engineLog.events.count
        try await event(in: engineLog, after: start, "position past \(from + 0.3)") {
            $0.name == "position" && ($0.matrixNumber("position") ?? 0) >= from + 0.3
        }
        #expect(engineEvents(since: mark, named: "paused").isEmpty, sourceLocation: sourceLocation)
        #expect(engineEvents(since: mark, named: "ended").isEmpty, sourceLocation: sourceLocation)
    }

    /// Audio is loaded and paused: no start came after the last pause.
    func expectPaused(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        await settle()
        // The test's own reading of libmpv's events may lag behind the session's (it is a task of
        // its own): wait for libmpv's answer to the last start, a pause (or an end, which fails
        // below), rather than count on the settle's yields having let it through.
        let lastStart = engineLog.events.lastIndex { $0.name == "started" } ?? 0
        try await event(in: engineLog, after: lastStart, "engine paused after its last start") {
            $0.name == "paused" || $0.name == "ended"
        }
        #expect(await engine.position() != nil, "nothing is loaded", sourceLocation: sourceLocation)
        #expect(await engineHasFile(), "nothing is loaded", sourceLocation: sourceLocation)
        let names = engineLog.events.map(\.name).filter { $0 == "started" || $0 == "paused" || $0 == "ended" }
        #expect(names.last == "paused", "libmpv: \(names)", sourceLocation: sourceLocation)
    }

    /// Nothing is loaded, and nothing started since `mark`.
    func expectIdle(since mark: Mark, sourceLocation: SourceLocation = #_sourceLocation) async {
        await settle()
        #expect(await !engineHasFile(), "a file is loaded", sourceLocation: sourceLocation)
        #expect(engineEvents(since: mark, named: "loaded").isEmpty, sourceLocation: sourceLocation)
        #expect(engineEvents(since: mark, named: "started").isEmpty, sourceLocation: sourceLocation)
    }

    /// A file was loaded, started from 0 and played to its end since `mark`; nothing is loaded now.
    func expectReplayed(since mark: Mark, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await engineEnded("endOfFile", since: mark)
        await settle()
        #expect(await !engineHasFile(), "a file is still loaded", sourceLocation: sourceLocation)
        let names = engineLog.events[mark.engine...].map(\.name).filter { ["loaded", "started", "paused", "ended"].contains($0) }
        #expect(names == ["loaded", "started", "ended"], sourceLocation: sourceLocation)
    }

    /// The file playing or paused at `mark` was stopped, and nothing plays since.
    func expectStopped(since mark: Mark, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await engineEnded("stopped", since: mark)
        await settle()
        #expect(await !engineHasFile(), "a file is still loaded", sourceLocation: sourceLocation)
        #expect(engineEvents(since: mark, named: "loaded").isEmpty, sourceLocation: sourceLocation)
        #expect(engineEvents(since: mark, named: "started").isEmpty, sourceLocation: sourceLocation)
    }
}

extension EventLine {
    /// The number value of the field `key`.
    fileprivate func matrixNumber(_ key: String) -> Double? {
        for (k, v) in fields where k == key {
            if case .number(let n) = v { return n }
        }
        return nil
    }
}

extension LoggedEvent {
    /// The number value of the field `key`.
    fileprivate func matrixNumber(_ key: String) -> Double? { line.matrixNumber(key) }
}

/// libmpv's events as lines (not presentation events: `loaded`, `started`, `paused`, `position`,
/// `duration`, `ended`, `error`, `fallback`), timed on the session log's clock so that times
/// compare.
@MainActor
final class MatrixEngineLog {
    let clock: EventClock
    private(set) var events: [EventLine] = []
    private var waiters: [Int: (matches: @MainActor (EventLine) -> Bool, continuation: CheckedContinuation<EventLine?, Never>)] = [:]
    private var nextWaiter = 0

    init(clock: EventClock) {
        self.clock = clock
    }

    func record(_ name: String, _ fields: [(String, JSONScalar)]) {
        let line = EventLine(name, t: clock.seconds(), fields)
        events.append(line)
        for (id, waiter) in waiters where waiter.matches(line) {
            waiters[id] = nil
            waiter.continuation.resume(returning: line)
        }
    }

    /// The next line recorded that `matches`, or `nil` after `timeout` (a guard against a hang).
    func next(timeout: Duration, where matches: @escaping @MainActor (EventLine) -> Bool) async -> EventLine? {
        let id = nextWaiter
        nextWaiter += 1
        let timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled, let self, let waiter = self.waiters.removeValue(forKey: id) else { return }
            waiter.continuation.resume(returning: nil)
        }
        let line = await withCheckedContinuation { continuation in
            waiters[id] = (matches, continuation)
        }
        timer.cancel()
        return line
    }
}

// MARK: The matrix

enum MatrixButton: String, CaseIterable, Sendable {
    case none, `default`, overlay
    /// The built-in default card (a `.default` button), no extension claiming the category.
    case defaultCard

    var hasButton: Bool { self != .none }

    /// What `buttonState` says while paused or playing.
    func shown(playing: Bool) -> String {
        switch self {
        case .none: "none"
        case .overlay: playing ? "hidden" : "play"
        case .default, .defaultCard: playing ? "pause" : "play"
        }
    }
}

/// The state the card is in when the input comes.
enum MatrixState: String, CaseIterable, Sendable {
    /// Presented, nothing played.
    case fresh
    /// Playing (for `.none`, the extension started its audio itself).
    case playing
    /// Paused after playing.
    case paused
    /// The audio played to its end.
    case ended
    /// Dismissed while playing.
    case dismissed
}

enum MatrixInput: String, CaseIterable, Sendable {
    case media, tapContent
    /// Action 1 on an extension that does not handle responses.
    case forwardedAction
    /// Action 1 on an extension that handles it and answers `.doNotDismiss`.
    case handledAction
    case defaultAction, dismiss

    var input: PresentationSession.Input {
        switch self {
        case .media: .media
        case .tapContent: .tapContent
        case .forwardedAction, .handledAction: .action(1)
        case .defaultAction: .defaultAction
        case .dismiss: .dismiss
        }
    }
}

/// What libmpv is doing.
enum MatrixAudio: Equatable {
    /// Rendering.
    case running
    /// Loaded and paused.
    case paused
    /// Nothing loaded, and nothing was since the input.
    case idle
    /// The loaded file was stopped.
    case stopped
    /// The file was loaded again and played to its end.
    case replayed
}

struct MatrixCase: Sendable, CustomTestStringConvertible {
    let button: MatrixButton
    let state: MatrixState
    let input: MatrixInput

    var testDescription: String { "\(button.rawValue) button, \(state.rawValue), \(input.rawValue)" }

    static let all: [MatrixCase] = MatrixButton.allCases.flatMap { button in
        MatrixState.allCases.flatMap { state in
            MatrixInput.allCases.compactMap { input in
                // The default card does not handle responses.
                button == .defaultCard && input == .handledAction ? nil : MatrixCase(button: button, state: state, input: input)
            }
        }
    }

    var category: String {
        switch button {
        case .defaultCard: MatrixCard.defaultCardCategory
        default: "\(button.rawValue).\(input == .handledAction ? "responding" : "plain")"
        }
    }

    /// Whether the runtime believes the media plays when the input comes (a dismissed card keeps
    /// what it showed).
    var playingBefore: Bool { button.hasButton && (state == .playing || state == .dismissed) }

    var audioBefore: MatrixAudio {
        switch state {
        case .playing: .running
        case .paused: .paused
        case .fresh, .ended, .dismissed: .idle
        }
    }
}

/// What a case must end in, by Apple's semantics as the Notiplay catalogue's articles "The media
/// button" and "Events" describe them: the button flips at once and calls mediaPlay/mediaPause
/// (a touch on the content only pauses an overlay); an action the extension handles keeps the card
/// (doNotDismiss); a forwarded action, the default action and a custom dismiss go to the app and
/// close the card, stopping its media; a closed card ignores everything.
struct MatrixExpectation {
    /// `mediaPlay` / `mediaPause`, as called on the extension.
    var calls: [String] = []
    var buttonStates: [String] = []
    /// The session's `playback` states.
    var playback: [String] = []
    var isPlaying: Bool
    var buttonState: String
    /// The reason of the `dismissed` event, if any.
    var dismissed: [String] = []
    var forwarded: [String] = []
    /// The option of the `response` event, if any.
    var response: [String] = []
    var audio: MatrixAudio

    init(_ c: MatrixCase) {
        isPlaying = c.playingBefore
        buttonState = c.button.shown(playing: c.playingBefore)
        audio = c.audioBefore
        guard c.state != .dismissed else { return }  // a closed card ignores everything
        let stop: MatrixAudio = audio == .idle ? .idle : .stopped
        switch c.input {
        case .media, .tapContent:
            // The button: `.media` always; a touch on the content only pauses an overlay.
            guard c.button.hasButton, c.input == .media || (c.button == .overlay && c.playingBefore) else { return }
            if c.playingBefore {
                calls = ["mediaPause"]
                playback = ["paused"]
                audio = .paused
            } else {
                calls = ["mediaPlay"]
                playback = ["started"]
                audio = .running
            }
            isPlaying = !c.playingBefore
            buttonStates = [c.button.shown(playing: isPlaying)]
            if c.state == .ended {
                // Played again from the start, to the end on the pcm output.
                playback.append("ended")
                buttonStates.append(c.button.shown(playing: false))
                isPlaying = false
                audio = .replayed
            }
            buttonState = buttonStates.last ?? buttonState
        case .forwardedAction:
            forwarded = ["done"]
            dismissed = ["forwarded"]
            audio = stop
        case .handledAction:
            response = ["doNotDismiss"]
        case .defaultAction:
            forwarded = [UNNotificationDefaultActionIdentifier]
            dismissed = ["defaultAction"]
            audio = stop
        case .dismiss:
            forwarded = [UNNotificationDismissActionIdentifier]  // the category has customDismissAction
            dismissed = ["user"]
            audio = stop
        }
    }
}

extension RealEngine {
    @MainActor
    @Suite("Real libmpv: every input in every state", .timeLimit(.minutes(5)))
    struct RealEngineMatrixTests {
        /// Starts the media the way the card's kind allows: the button, or for `.none` the extension
        /// itself (auto-play).
        func start(_ card: MatrixCard, _ button: MatrixButton) {
            if button.hasButton { card.session.handle(.media) } else { card.ext?.player?.play() }
        }

        func pause(_ card: MatrixCard, _ button: MatrixButton) {
            if button.hasButton { card.session.handle(.media) } else { card.ext?.player?.pause() }
        }

        /// Brings a presented card into `c.state`, checking the way there.
        func reach(_ card: MatrixCard, _ c: MatrixCase) async throws {
            guard c.state != .fresh else { return }
            let mark = card.mark
            start(card, c.button)
            let started = try await card.playback("started", since: mark)
            #expect(started.matrixNumber("position") == 0)
            // The test's own reading of libmpv's events may lag behind the session's: catch up.
            try await card.event(in: card.engineLog, after: mark.engine, "engine started") { $0.name == "started" }
            if c.button.hasButton {
                #expect(card.sessionEvents(since: mark, named: "mediaPlayingStarted").count == 1)
            } else {
                // The runtime ignores a report for a card without a button, and says so.
                #expect(card.sessionEvents(since: mark, named: "mediaPlayingStarted").isEmpty)
                #expect(card.sessionEvents(since: mark, named: "error").first?.string("message")?.contains("type none") == true)
            }
            switch c.state {
            case .fresh, .playing:
                break
            case .paused:
                let pausing = card.mark
                pause(card, c.button)
                let paused = try await card.playback("paused", since: pausing)
                #expect((0..<29).contains(paused.matrixNumber("position") ?? -1))
                try await card.event(in: card.engineLog, after: pausing.engine, "engine paused") { $0.name == "paused" }
            case .ended:
                let ended = try await card.playback("ended", since: mark)
                #expect(ended.matrixNumber("position") == 1.0)
                try await card.engineEnded("endOfFile", since: mark)
                if c.button.hasButton { #expect(card.sessionEvents(since: mark, named: "mediaPlayingPaused").count == 1) }
            case .dismissed:
                let dismissing = card.mark
                card.session.handle(.dismiss)
                try await card.engineEnded("stopped", since: dismissing)
                #expect(card.session.isDismissed)
            }
            #expect(card.session.isPlaying == c.playingBefore, "isPlaying in state \(c.state)")
            #expect(card.session.buttonState.rawValue == c.button.shown(playing: c.playingBefore), "button in state \(c.state)")
        }

        @Test("Every input in every state", arguments: MatrixCase.all)
        func everyInputInEveryState(_ c: MatrixCase) async throws {
            let expected = MatrixExpectation(c)
            let heard = try await MatrixCard.run(c.state == .ended ? .capture : .realTime) { card in
                let ext = try card.present(
                    category: c.category, attachment: c.state == .ended ? MatrixMedia.shortTone : MatrixMedia.longTone())
                #expect((ext == nil) == (c.button == .defaultCard))
                #expect(card.session.buttonState.rawValue == c.button.shown(playing: false))
                try await reach(card, c)
                let mark = card.mark
                let extensionCalls = ext?.mediaCalls.count ?? 0
                var pausedAt = card.session.log.events(named: "playback").last { $0.string("state") == "paused" }?
                    .matrixNumber("position")

                card.session.handle(c.input.input)

                // Wait for what the input sets going, if anything.
                if let last = expected.playback.last { try await card.playback(last, since: mark) }
                switch expected.audio {
                case .running: try await card.expectRunning(since: mark)
                case .paused: try await card.expectPaused()
                case .idle: await card.expectIdle(since: mark)
                case .stopped: try await card.expectStopped(since: mark)
                case .replayed: try await card.expectReplayed(since: mark)
                }

                #expect(card.mediaCalls(since: mark) == expected.calls)
                if let ext { #expect(Array(ext.mediaCalls[extensionCalls...]) == expected.calls) }
                #expect(card.buttonStates(since: mark) == expected.buttonStates)
                #expect(card.playback(since: mark) == expected.playback)
                #expect(card.session.isPlaying == expected.isPlaying)
                #expect(card.session.buttonState.rawValue == expected.buttonState)
                #expect(card.session.isDismissed == (!expected.dismissed.isEmpty || c.state == .dismissed))
                #expect(card.values("dismissed", "reason", since: mark) == expected.dismissed)
                #expect(card.values("forwarded", "action", since: mark) == expected.forwarded)
                #expect(card.values("response", "option", since: mark) == expected.response)
                if c.input == .handledAction && c.state != .dismissed { #expect(card.responder?.responses == ["done"]) }
                if c.state == .dismissed {
                    let logged = card.session.log.events[mark.session...].map(\.json)
                    #expect(logged.isEmpty, "a closed card logged \(logged)")
                }

                // libmpv's positions: a start from 0, or from where the pause left the audio; a pause
                // within the file; an end at the file's duration.
                for line in card.sessionEvents(since: mark, named: "playback") {
                    let position = line.matrixNumber("position") ?? -1
                    switch line.string("state") {
                    case "started":
                        if let at = pausedAt {
                            // libmpv's position settles after the pause is reported, by what the
                            // output had buffered — at most its buffer (0.2 s, `ao-null-buffer`),
                            // however loaded the machine — and resuming starts there, not from
                            // elsewhere.
                            #expect(abs(position - at) <= 0.25, "resumed at \(position), paused at \(at)")
                        } else {
                            #expect(position == 0)
                        }
                    case "paused":
                        #expect((0..<29).contains(position))
                        pausedAt = position
                    case "ended": #expect(position == 1.0)
                    default: Issue.record("unexpected playback \(line.json)")
                    }
                }
            }
            if c.state == .ended {
                // The last file libmpv rendered was the whole 1 s tone, once, whatever the input.
                let heard = try #require(heard)
                #expect(heard.frames == MatrixMedia.shortToneFrames, "\(heard)")
            }
        }
    }
}

extension RealEngine {
    @MainActor
    @Suite("Real libmpv: responses, completion handlers, threads, closed cards", .timeLimit(.minutes(5)))
    struct RealEngineResponseTests {
        typealias Option = UNNotificationContentExtensionResponseOption

        /// A playing card of the responding extension with a `.default` button.
        func playingResponder(_ card: MatrixCard) async throws -> MatrixRespondingExtension {
            try card.present(category: "default.responding", attachment: MatrixMedia.longTone())
            let responder = try #require(card.responder)
            try await card.play()
            return responder
        }

        @Test("Each response option while playing", arguments: [Option.doNotDismiss, .dismiss, .dismissAndForwardAction])
        func responseOption(_ option: Option) async throws {
            try await MatrixCard.run(.realTime) { card in
                let responder = try await playingResponder(card)
                responder.answer = .now(option)
                let mark = card.mark
                card.session.handle(.action(2, text: "on my way"))
                #expect(responder.responses == ["reply:on my way"])
                let action = card.sessionEvents(since: mark, named: "action")
                #expect(action.map { $0.string("identifier") } == ["reply"] && action.first?.string("text") == "on my way")
                #expect(card.values("response", "option", since: mark) == [option.rawValue])
                #expect(!card.session.awaitsResponse)
                switch option {
                case .doNotDismiss:
                    #expect(!card.session.isDismissed)
                    #expect(card.sessionEvents(since: mark, named: "forwarded").isEmpty)
                    try await card.expectRunning(since: mark)
                    #expect(card.session.isPlaying && card.session.buttonState == .pause)
                case .dismiss:
                    #expect(card.values("dismissed", "reason", since: mark) == ["response"])
                    #expect(card.sessionEvents(since: mark, named: "forwarded").isEmpty)
                    try await card.expectStopped(since: mark)
                case .dismissAndForwardAction:
                    #expect(card.values("dismissed", "reason", since: mark) == ["response"])
                    let forwarded = card.sessionEvents(since: mark, named: "forwarded")
                    #expect(forwarded.map { $0.string("action") } == ["reply"] && forwarded.first?.string("text") == "on my way")
                    try await card.expectStopped(since: mark)
                }
                // The runtime does not pause through the extension: closing the card stops the media.
                #expect(card.mediaCalls(since: mark).isEmpty)
                #expect(card.buttonStates(since: mark).isEmpty)
            }
        }

        @Test(
            "An extension that does not handle responses: the action goes to the app and the media stops",
            arguments: ["default.plain", MatrixCard.defaultCardCategory])
        func forwarding(_ category: String) async throws {
            try await MatrixCard.run(.realTime) { card in
                try card.present(category: category, attachment: MatrixMedia.longTone())
                try await card.play()
                let mark = card.mark
                card.session.handle(.action(2, text: "on my way"))
                let forwarded = card.sessionEvents(since: mark, named: "forwarded")
                #expect(forwarded.map { $0.string("action") } == ["reply"] && forwarded.first?.string("text") == "on my way")
                #expect(card.sessionEvents(since: mark, named: "response").isEmpty)
                #expect(card.values("dismissed", "reason", since: mark) == ["forwarded"])
                try await card.expectStopped(since: mark)
                // Closed: later inputs change nothing.
                let closed = card.mark
                for input in [PresentationSession.Input.media, .tapContent, .action(1), .defaultAction, .dismiss] {
                    card.session.handle(input)
                }
                await card.expectIdle(since: closed)
                #expect(card.session.log.events.count == closed.session)
            }
        }

        @Test("A completion handler never called: .dismiss after the limit, an error, the media stopped")
        func completionNeverCalled() async throws {
            try await MatrixCard.run(.realTime, responseTimeLimit: .seconds(1)) { card in
                let responder = try await playingResponder(card)
                responder.answer = .never
                let mark = card.mark
                card.session.handle(.action(1))
                #expect(card.session.awaitsResponse && !card.session.isDismissed && card.session.isPlaying)
                // The limit runs on the card's clock: the audio plays on for 0.3 s while the runtime
                // waits, and then the second passes.
                try await card.event(in: card.engineLog, after: mark.engine, "position past 0.3") {
                    $0.name == "position" && ($0.matrixNumber("position") ?? 0) >= 0.3
                }
                await card.clock.waitForSleepers(1)
                card.clock.advance(by: .seconds(1))
                let response = try await card.event(in: card.session.log, after: mark.session, "response") { $0.name == "response" }
                #expect(response.string("option") == "dismiss" && response.string("reason") == "timeout")
                #expect(card.values("error", "message", since: mark).contains { $0.contains("not called within") })
                #expect(card.values("dismissed", "reason", since: mark) == ["timeout"])
                #expect(!card.session.awaitsResponse)
                // The audio played on while the runtime waited, and stopped when the card closed.
                let before = card.engineLog.events[mark.engine...].filter { $0.t < response.t }
                #expect(!before.contains { $0.name == "paused" || $0.name == "ended" })
                #expect((before.compactMap { $0.name == "position" ? $0.matrixNumber("position") : nil }.max() ?? 0) >= 0.3)
                try await card.expectStopped(since: mark)
                // Called after the limit: ignored, and the log says so.
                let late = card.mark
                responder.completion?(.dismissAndForwardAction)
                #expect(card.sessionEvents(since: late, named: "response").isEmpty)
                #expect(card.sessionEvents(since: late, named: "forwarded").isEmpty)
                #expect(card.sessionEvents(since: late, named: "error").first?.string("message")?.contains("called again") == true)
                await card.expectIdle(since: late)
            }
        }

        @Test(
            "A completion handler called twice: the first answer counts, the second is ignored and logged",
            arguments: [(Option.doNotDismiss, Option.dismiss), (.dismiss, .dismissAndForwardAction)])
        func completionCalledTwice(_ first: Option, _ second: Option) async throws {
            try await MatrixCard.run(.realTime) { card in try await answerTwice(card, first, second) }
        }

        func answerTwice(_ card: MatrixCard, _ first: Option, _ second: Option) async throws {
            let responder = try await playingResponder(card)
            responder.answer = .twice(first, second)
            let mark = card.mark
            card.session.handle(.action(1))
            #expect(card.values("response", "option", since: mark) == [first.rawValue])
            let errors = card.sessionEvents(since: mark, named: "error").compactMap { $0.string("message") }
            #expect(errors.count == 1 && errors.first?.contains("called again") == true, "\(errors)")
            #expect(card.sessionEvents(since: mark, named: "forwarded").isEmpty)
            if first == .doNotDismiss {
                #expect(!card.session.isDismissed)
                try await card.expectRunning(since: mark)
            } else {
                #expect(card.values("dismissed", "reason", since: mark) == ["response"])
                try await card.expectStopped(since: mark)
            }
        }

        @Test(
            "A new notification of the thread while playing: didReceive again, the playback goes on",
            arguments: ["default.plain", "overlay.plain", "none.plain", MatrixCard.defaultCardCategory])
        func threadRedelivery(_ category: String) async throws {
            try await MatrixCard.run(.realTime) { card in
                let ext = try card.present(category: category, attachment: MatrixMedia.longTone())
                let controller = try #require(card.session.controller)
                let hasButton = !category.hasPrefix("none")
                let mark0 = card.mark
                if hasButton {
                    try await card.play()
                } else {
                    ext?.player?.play()  // the extension plays on its own
                    try await card.playback("started", since: mark0)
                    try await card.event(in: card.engineLog, after: mark0.engine, "engine started") { $0.name == "started" }
                }
                let button = card.session.buttonState
                let mark = card.mark
                try card.present(category: category, attachment: MatrixMedia.longTone(), identifier: "n2")
                #expect(card.session.controller === controller)
                let received = card.sessionEvents(since: mark, named: "didReceive")
                #expect(received.map { $0.string("identifier") } == ["n2"])
                #expect(received.first?.fields.contains { $0.0 == "redelivery" && $0.1 == .bool(true) } == true)
                if let ext { #expect(ext.calls.filter { $0.hasPrefix("didReceive") } == ["didReceive:n1", "didReceive:n2"]) }
                #expect(card.buttonStates(since: mark).isEmpty)
                #expect(card.mediaCalls(since: mark).isEmpty)
                #expect(card.session.isPlaying == hasButton && card.session.buttonState == button)
                try await card.expectRunning(since: mark)
                #expect(card.engineEvents(since: mark, named: "loaded").isEmpty)
                // The same media goes on: pausing it pauses the file that was playing.
                let pausing = card.mark
                if hasButton { card.session.handle(.media) } else { ext?.player?.pause() }
                let paused = try await card.playback("paused", since: pausing)
                #expect((paused.matrixNumber("position") ?? 0) >= 0.3)
            }
        }

        @Test("A notification of another thread replaces the card and stops its media")
        func otherThread() async throws {
            try await MatrixCard.run(.realTime) { card in
                let first = try card.present(category: "default.plain", attachment: MatrixMedia.longTone())
                try await card.play()
                let mark = card.mark
                let second = try card.present(
                    category: "default.plain", attachment: MatrixMedia.longTone(), identifier: "n2", thread: "other")
                #expect(second !== first)
                #expect(card.session.buttonState == .play && !card.session.isPlaying)
                try await card.expectStopped(since: mark)
                // The old extension's player no longer reaches the engine.
                first?.player?.play()
                await first?.player?.settle()
                await card.expectIdle(since: mark)
            }
        }

        @Test("Dismissed before libmpv started: nothing is heard", arguments: [1, 3])
        func dismissBeforeStart(_ presses: Int) async throws {
            let heard = try await MatrixCard.run(.capture) { card in
                let ext = try #require(try card.present(category: "default.plain", attachment: MatrixMedia.shortTone))
                let mark = card.mark
                for _ in 0..<presses { card.session.handle(.media) }
                card.session.handle(.dismiss)
                await ext.player?.settle()
                await card.expectIdle(since: mark)
                #expect(card.playback(since: mark).isEmpty)
            }
            #expect(heard == nil || heard?.frames == 0, "heard \(heard.map(\.description) ?? "nothing")")
        }

        @Test("A player made on the first mediaPlay() plays through the session that called it")
        func lazyPlayerWithTwoSessions() async throws {
            try await MatrixCard.run(.realTime) { card in
                try card.present(category: MatrixCard.lazyCategory, attachment: MatrixMedia.longTone())
                try await MatrixCard.run(.realTime) { other in
                    // `other` is the newest session; the press is on `card`.
                    try await card.play()
                    #expect(other.engineLog.events.filter { $0.name == "loaded" }.isEmpty)
                    #expect(other.session.log.events(named: "playback").isEmpty)
                }
            }
        }
    }
}
