public import NotiplayCore
public import NotiplayPlayback
import Synchronization

/// A ``PlaybackEngine`` without libmpv, for the unit tests of what drives an engine (the
/// runtime, the center's arrival sounds, the samples' cards). The product and the end-to-end
/// tests use libmpv.
///
/// Its events come at once: those ``Playback-swift.enum`` makes each command send, those the test
/// sends (``send(_:item:)``, ``finish()``, ``report(_:)``), and those it is told to send while a
/// file loads (``sendWhileLoading(_:)``), in orders a real engine produces only now and then.
/// Every command is told on ``commands``; ``loads`` counts the loads.
public final class FakeEngine: PlaybackEngine, Sendable {
    /// What the engine makes of the commands it gets.
    public enum Playback: Sendable, Equatable {
        /// Nothing: a load, play or pause sends no event, and the position is unknown.
        case silent
        /// A load sends `loaded(duration)` then `started(0)`; play and pause send `started` and
        /// `paused` at `position`, which ``position()`` always says.
        case scripted(duration: Double, position: Double)
        /// A load sends `loaded(duration)` then `started` at the options' start (0 without one);
        /// the position moves only by a seek or ``report(_:)``; play and pause send `started` and
        /// `paused` at it; ``position()`` says it until a stop.
        case driven(duration: Double)
    }

    /// What the engine makes of the commands it gets.
    public let playback: Playback
    /// Whether it has one current file, as libmpv has: a load ends the one before it (`ended`,
    /// stopped), a stop ends the current one if there is one, and a file's `ended` leaves nothing
    /// current. Without it, a stop ends the file loaded last (unless the engine is silent),
    /// whether or not it ended before.
    public let tracksCurrentFile: Bool
    /// What the engine was asked, in order: `load #N volume V`, `play`, `pause`, `seek S`,
    /// `volume V`, `stop`. Ends at ``shutdown()``.
    public let commands: AsyncStream<String>

    private let commandSink: AsyncStream<String>.Continuation
    private let state = Mutex(State())

    private struct State {
        var continuations: [AsyncStream<PlaybackEvent>.Continuation] = []
        /// The id of the file loaded last (0 before the first load).
        var item: Int64 = 0
        var loads = 0
        var current: PlaybackItemID?
        var position = 0.0
        var whileLoading: [PlaybackEvent] = []
    }

    /// An engine that plays as `playback` says (default: silently), with one current file if
    /// `tracksCurrentFile`.
    public init(_ playback: Playback = .silent, tracksCurrentFile: Bool = false) {
        self.playback = playback
        self.tracksCurrentFile = tracksCurrentFile
        (commands, commandSink) = AsyncStream.makeStream()
    }

    /// An engine whose files are 2 s long and always at 0.5 s: ``Playback-swift.enum/scripted(duration:position:)``.
    public static func scripted() -> FakeEngine {
        FakeEngine(.scripted(duration: 2, position: 0.5))
    }

    /// How many files were loaded.
    public var loads: Int { state.withLock { $0.loads } }

    /// The id of the file loaded last.
    public var item: PlaybackItemID { PlaybackItemID(state.withLock { $0.item }) }

    /// Events sent during each later load, before those of the file loaded; an event without an
    /// item is the loading file's.
    public func sendWhileLoading(_ events: [PlaybackEvent]) {
        state.withLock { $0.whileLoading = events }
    }

    /// Sends `kind` for `item` to every subscriber; an end of the current file leaves none.
    public func send(_ kind: PlaybackEvent.Kind, item: PlaybackItemID?) {
        let continuations = state.withLock { state in
            if case .ended = kind, state.current == item { state.current = nil }
            return state.continuations
        }
        for continuation in continuations { continuation.yield(PlaybackEvent(item: item, kind)) }
    }

    /// The file loaded last reached its end (`ended`, end of file).
    public func finish() {
        send(.ended(.endOfFile), item: item)
    }

    /// The audio of the file loaded last reached `position`, as libmpv's `time-pos` says while it
    /// plays (``Playback-swift.enum/driven(duration:)``).
    public func report(_ position: Double) {
        state.withLock { $0.position = position }
        send(.position(position), item: item)
    }

    // MARK: PlaybackEngine

    /// A new stream of every event from now on, until ``shutdown()``.
    public func events() -> AsyncStream<PlaybackEvent> {
        let (stream, continuation) = AsyncStream<PlaybackEvent>.makeStream()
        state.withLock { $0.continuations.append(continuation) }
        return stream
    }

    /// The next id (#1 first): ends the current file first with ``tracksCurrentFile``, sends
    /// what ``sendWhileLoading(_:)`` gave, then what ``playback`` sends for a load.
    public func load(_ file: AudioFile, options: PlaybackOptions) async throws -> PlaybackItemID {
        let (item, replaced, early) = state.withLock { state in
            state.item += 1
            state.loads += 1
            let item = PlaybackItemID(state.item)
            defer { state.current = item }
            return (item, tracksCurrentFile ? state.current : nil, state.whileLoading)
        }
        if let replaced { send(.ended(.stopped), item: replaced) }
        for event in early { send(event.kind, item: event.item ?? item) }
        switch playback {
        case .silent:
            break
        case .scripted(let duration, _):
            send(.loaded(duration: duration), item: item)
            send(.started(position: 0), item: item)
        case .driven(let duration):
            let start = options.start ?? 0
            send(.loaded(duration: duration), item: item)
            state.withLock { $0.position = start }
            send(.started(position: start), item: item)
        }
        commandSink.yield("load \(item) volume \(Int(options.volume))")
        return item
    }

    /// `started` at the position, unless silent.
    public func play() async throws {
        if let position = reportedPosition { send(.started(position: position), item: item) }
        commandSink.yield("play")
    }

    /// `paused` at the position, unless silent.
    public func pause() async throws {
        if let position = reportedPosition { send(.paused(position: position), item: item) }
        commandSink.yield("pause")
    }

    /// Moves a driven engine's position and sends it; nothing else.
    public func seek(to seconds: Double) async throws {
        if case .driven = playback {
            state.withLock { $0.position = seconds }
            send(.position(seconds), item: item)
        }
        commandSink.yield("seek \(seconds)")
    }

    /// Only told on ``commands``.
    public func setVolume(_ volume: Double) async throws {
        commandSink.yield("volume \(Int(volume))")
    }

    /// `ended` (stopped) for the current file with ``tracksCurrentFile``, else for the file loaded
    /// last unless silent; nothing is current afterwards.
    public func stop() async throws {
        let stopped = state.withLock { state -> PlaybackItemID? in
            defer { state.current = nil }
            if tracksCurrentFile { return state.current }
            return playback == .silent ? nil : PlaybackItemID(state.item)
        }
        if let stopped { send(.ended(.stopped), item: stopped) }
        commandSink.yield("stop")
    }

    /// What ``playback`` says the position is.
    public func position() async -> Double? {
        switch playback {
        case .silent: nil
        case .scripted(_, let position): position
        case .driven: state.withLock { $0.current != nil ? $0.position : nil }
        }
    }

    /// Ends every event stream and ``commands``.
    public func shutdown() async {
        let continuations = state.withLock { state in
            defer { state.continuations = [] }
            return state.continuations
        }
        for continuation in continuations { continuation.finish() }
        commandSink.finish()
    }

    /// The position play and pause report (`nil`: they send nothing).
    private var reportedPosition: Double? {
        switch playback {
        case .silent: nil
        case .scripted(_, let position): position
        case .driven: state.withLock { $0.position }
        }
    }
}
