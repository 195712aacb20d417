import NotiplayPlayback

/// Reads an engine's events in order, waiting for the ones a test expects.
struct EventCursor {
    struct StreamFinished: Error, CustomStringConvertible {
        let seen: [PlaybackEvent]
        var description: String { "the event stream finished; seen: \(seen.map { "\($0.item?.description ?? "-") \($0.kind)" })" }
    }

    private var iterator: AsyncStream<PlaybackEvent>.Iterator
    /// Every event read so far.
    private(set) var seen: [PlaybackEvent] = []

    init(_ engine: some PlaybackEngine) {
        iterator = engine.events().makeAsyncIterator()
    }

    /// Waits for the next event that satisfies `predicate`.
    @discardableResult
    mutating func next(where predicate: (PlaybackEvent) -> Bool) async throws -> PlaybackEvent {
        while let event = await iterator.next() {
            seen.append(event)
            if predicate(event) { return event }
        }
        throw StreamFinished(seen: seen)
    }

    /// Waits for `item`'s `ended` event and returns its reason.
    mutating func end(of item: PlaybackItemID) async throws -> EndReason {
        let event = try await next { $0.item == item && $0.kind.isEnded }
        guard case .ended(let reason) = event.kind else { fatalError("unreachable") }
        return reason
    }

    /// Events of `item` read so far.
    func kinds(of item: PlaybackItemID) -> [PlaybackEvent.Kind] {
        seen.filter { $0.item == item }.map(\.kind)
    }
}

extension PlaybackEvent.Kind {
    var isEnded: Bool { if case .ended = self { true } else { false } }
    var isStarted: Bool { if case .started = self { true } else { false } }
    var isPaused: Bool { if case .paused = self { true } else { false } }
    var position: Double? {
        switch self {
        case .started(let p), .paused(let p), .position(let p): p
        default: nil
        }
    }
}
