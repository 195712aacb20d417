import NotiplayCore
import NotiplayPlayback
import Synchronization

/// An engine that plays nothing: a load starts at once, and positions come only when the test
/// reports them (``report(_:)``) — how a card looks at positions a real engine might report.
final class DrivenEngine: PlaybackEngine, Sendable {
    private struct State {
        var continuations: [AsyncStream<PlaybackEvent>.Continuation] = []
        var item: Int64 = 0
        var position = 0.0
        var loaded = false
    }

    /// The duration every file is said to have.
    let duration: Double
    private let state = Mutex(State())

    init(duration: Double) {
        self.duration = duration
    }

    func events() -> AsyncStream<PlaybackEvent> {
        let (stream, continuation) = AsyncStream<PlaybackEvent>.makeStream()
        state.withLock { $0.continuations.append(continuation) }
        return stream
    }

    /// Sends `kind` for the current item, after setting the position to `position` when given.
    private func send(_ kind: PlaybackEvent.Kind, position: Double? = nil) {
        let (continuations, item) = state.withLock { s in
            if let position { s.position = position }
            return (s.continuations, s.item)
        }
        for c in continuations { c.yield(PlaybackEvent(item: PlaybackItemID(item), kind)) }
    }

    /// The audio reached `position`, as libmpv's `time-pos` says while it plays.
    func report(_ position: Double) { send(.position(position), position: position) }

    func load(_ file: AudioFile, options: PlaybackOptions) async throws -> PlaybackItemID {
        let item = state.withLock { s in
            s.item += 1
            s.loaded = true
            return s.item
        }
        send(.loaded(duration: duration))
        send(.started(position: options.start ?? 0), position: options.start ?? 0)
        return PlaybackItemID(item)
    }

    func play() async throws { send(.started(position: state.withLock { $0.position })) }
    func pause() async throws { send(.paused(position: state.withLock { $0.position })) }
    func seek(to seconds: Double) async throws { send(.position(seconds), position: seconds) }
    func setVolume(_ volume: Double) async throws {}
    func stop() async throws {
        state.withLock { $0.loaded = false }
        send(.ended(.stopped))
    }
    func position() async -> Double? { state.withLock { $0.loaded ? $0.position : nil } }
    func shutdown() async {
        let continuations = state.withLock { s in
            defer { s.continuations = [] }
            return s.continuations
        }
        for c in continuations { c.finish() }
    }
}
