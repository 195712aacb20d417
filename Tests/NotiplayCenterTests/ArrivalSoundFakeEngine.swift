import NotiplayCore
import NotiplayPlayback
import Synchronization

/// An engine without libmpv whose events the test sends, to put the player's event handling
/// through orders a real engine produces only now and then (an end reported before its load
/// returned, a stale end after a stop). Each command it gets is told on ``commands``.
final class ArrivalSoundFakeEngine: PlaybackEngine, Sendable {
    /// What the engine was asked: `load #N volume V` or `stop`.
    let commands: AsyncStream<String>
    private let commandSink: AsyncStream<String>.Continuation
    /// Events to send for a file's id before its `load` returns.
    private let beforeLoadReturns: @Sendable (PlaybackItemID) -> [PlaybackEvent.Kind]
    private let state = Mutex(State())

    private struct State {
        var next: Int64 = 0
        var current: PlaybackItemID?
        var streams: [AsyncStream<PlaybackEvent>.Continuation] = []
    }

    /// An engine that sends `beforeLoadReturns(item)` for each file before its load returns.
    init(beforeLoadReturns: @escaping @Sendable (PlaybackItemID) -> [PlaybackEvent.Kind] = { _ in [] }) {
        (commands, commandSink) = AsyncStream.makeStream()
        self.beforeLoadReturns = beforeLoadReturns
    }

    /// Sends `kind` for `item` to every subscriber; an end leaves nothing loaded.
    func send(_ kind: PlaybackEvent.Kind, item: PlaybackItemID?) {
        let streams = state.withLock { state in
            if case .ended = kind, state.current == item { state.current = nil }
            return state.streams
        }
        for stream in streams { stream.yield(PlaybackEvent(item: item, kind)) }
    }

    func events() -> AsyncStream<PlaybackEvent> {
        let (stream, continuation) = AsyncStream<PlaybackEvent>.makeStream()
        state.withLock { $0.streams.append(continuation) }
        return stream
    }

    func load(_ file: AudioFile, options: PlaybackOptions) async throws -> PlaybackItemID {
        let (item, replaced) = state.withLock { state in
            state.next += 1
            defer { state.current = PlaybackItemID(state.next) }
            return (PlaybackItemID(state.next), state.current)
        }
        if let replaced { send(.ended(.stopped), item: replaced) }
        for kind in beforeLoadReturns(item) { send(kind, item: item) }
        commandSink.yield("load \(item) volume \(Int(options.volume))")
        return item
    }

    func stop() async throws {
        let stopped = state.withLock { state in
            defer { state.current = nil }
            return state.current
        }
        if let stopped { send(.ended(.stopped), item: stopped) }
        commandSink.yield("stop")
    }

    func play() async throws {}
    func pause() async throws {}
    func seek(to seconds: Double) async throws {}
    func setVolume(_ volume: Double) async throws {}
    func position() async -> Double? { nil }

    func shutdown() async {
        let streams = state.withLock { state in
            defer { state.streams = [] }
            return state.streams
        }
        for stream in streams { stream.finish() }
        commandSink.finish()
    }
}
