import NotiplayCore
import NotiplayViews

/// Everything that happens in a presentation, in order, with monotonic timestamps.
///
/// The one record the display, playback scripts and `--events jsonl` all read: each entry is a
/// typed ``PresentationEvent`` with its time, and its ``LoggedEvent/line`` is what `--events jsonl`
/// writes (`{"event": NAME, "t": SECONDS, ...fields}`).
@MainActor
package final class EventLog {
    /// The clock every `t` comes from.
    public let clock: EventClock
    /// Every event so far.
    public private(set) var events: [LoggedEvent] = []

    private var observers: [@MainActor (LoggedEvent) -> Void] = []
    private var waiters: [Int: Waiter] = [:]
    private var nextWaiter = 0

    private struct Waiter {
        let matches: @MainActor (LoggedEvent) -> Bool
        let continuation: CheckedContinuation<LoggedEvent?, Never>
    }

    /// A log whose times count from `clock`'s origin.
    public init(clock: EventClock = EventClock()) {
        self.clock = clock
    }

    /// Records `event` now.
    @discardableResult
    public func record(_ event: PresentationEvent) -> LoggedEvent {
        let logged = LoggedEvent(t: clock.seconds(), event: event)
        events.append(logged)
        for observer in observers { observer(logged) }
        for (id, waiter) in waiters where waiter.matches(logged) {
            waiters[id] = nil
            waiter.continuation.resume(returning: logged)
        }
        return logged
    }

    /// Calls `observer` with every event recorded from now on.
    public func observe(_ observer: @escaping @MainActor (LoggedEvent) -> Void) {
        observers.append(observer)
    }

    /// The events named `name` (``PresentationEvent/name``).
    public func events(named name: String) -> [LoggedEvent] {
        events.filter { $0.name == name }
    }

    /// Waits for the next event recorded from now on that `matches`, or `nil` after `timeout`.
    public func next(timeout: Duration, where matches: @escaping @MainActor (LoggedEvent) -> Bool) async -> LoggedEvent? {
        let id = nextWaiter
        nextWaiter += 1
        let timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled, let self, let waiter = self.waiters.removeValue(forKey: id) else { return }
            waiter.continuation.resume(returning: nil)
        }
        let line = await withCheckedContinuation { continuation in
            waiters[id] = Waiter(matches: matches, continuation: continuation)
        }
        timer.cancel()
        return line
    }
}

/// An event as an `EventLog` recorded it: what happened, and when.
public struct LoggedEvent: Sendable, Equatable {
    /// Monotonic seconds since the log's clock started.
    public let t: Double
    /// What happened.
    public let event: PresentationEvent

    /// The event's name (``PresentationEvent/name``).
    public var name: String { event.name }

    /// The event's details, in the order its line writes them (``PresentationEvent/fields``).
    public var fields: [(String, JSONScalar)] { event.fields }

    /// The `--events jsonl` line: the event's ``PresentationEvent/fields`` after `event` and `t`.
    public var line: EventLine { event.line(at: t) }

    /// The line as compact JSON.
    public var json: String { line.json }

    /// The string value of the line's field `key`, if it has one.
    public func string(_ key: String) -> String? {
        for (k, v) in fields where k == key {
            if case .string(let s) = v { return s }
        }
        return nil
    }
}

extension EventLine {
    /// The string value of the field `key`, if it has one.
    public func string(_ key: String) -> String? {
        for (k, v) in fields where k == key {
            if case .string(let s) = v { return s }
        }
        return nil
    }
}
