import NotiplayCore
import NotiplayViews
/// Everything that happens in a presentation, in order, with monotonic timestamps (SPEC §5).
///
/// The one record the display, playback scripts and `--events jsonl` all read. Events are
/// `didReceive`, `mediaPlay`, `mediaPause`, `mediaPlayingStarted`, `mediaPlayingPaused`,
/// `buttonState`, `action`, `response`, `forwarded`, `dismissed`, `openURL`, `playback`,
/// `service` (what ``ServiceExtensionStage`` did), `removed` (through ``UNUserNotificationCenter``)
/// and `error`.
@MainActor
public final class EventLog {
    /// The clock every `t` comes from.
    public let clock: EventClock
    /// Every event so far.
    public private(set) var events: [EventLine] = []

    private var observers: [@MainActor (EventLine) -> Void] = []
    private var waiters: [Int: Waiter] = [:]
    private var nextWaiter = 0

    private struct Waiter {
        let matches: @MainActor (EventLine) -> Bool
        let continuation: CheckedContinuation<EventLine?, Never>
    }

    /// A log whose times count from `clock`'s origin.
    public init(clock: EventClock = EventClock()) {
        self.clock = clock
    }

    /// Records an event now.
    @discardableResult
    public func record(_ name: String, _ fields: [(String, JSONScalar)] = []) -> EventLine {
        let line = EventLine(name, t: clock.seconds(), fields)
        events.append(line)
        for observer in observers { observer(line) }
        for (id, waiter) in waiters where waiter.matches(line) {
            waiters[id] = nil
            waiter.continuation.resume(returning: line)
        }
        return line
    }

    /// Calls `observer` with every event recorded from now on.
    public func observe(_ observer: @escaping @MainActor (EventLine) -> Void) {
        observers.append(observer)
    }

    /// The events named `name`.
    public func events(named name: String) -> [EventLine] {
        events.filter { $0.name == name }
    }

    /// Waits for the next event recorded from now on that `matches`, or `nil` after `timeout`.
    public func next(timeout: Duration, where matches: @escaping @MainActor (EventLine) -> Bool) async -> EventLine? {
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

extension EventLine {
    /// The string value of the field `key`, if it has one.
    public func string(_ key: String) -> String? {
        for (k, v) in fields where k == key {
            if case .string(let s) = v { return s }
        }
        return nil
    }
}

extension EventLine {
    /// Whether this event means the card's media stopped playing: its playback ended, stopped,
    /// paused or failed, or the card was dismissed (which stops it).
    public var endsMedia: Bool {
        switch name {
        case "playback": ["ended", "stopped", "error", "paused"].contains(string("state") ?? "")
        case "dismissed": true
        default: false
        }
    }
}
