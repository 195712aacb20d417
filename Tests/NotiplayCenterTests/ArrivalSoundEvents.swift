import NotiplayCenter
import NotiplayPlayback

/// Every ``SoundEvent`` a player sent, and a way to wait for one.
@MainActor
final class ArrivalSoundEvents {
    private(set) var all: [SoundEvent] = []
    private var waiters: [(matches: (SoundEvent) -> Bool, continuation: CheckedContinuation<SoundEvent, Never>)] = []

    /// Records `event` and wakes whoever waits for it.
    func record(_ event: SoundEvent) {
        all.append(event)
        var still: [(matches: (SoundEvent) -> Bool, continuation: CheckedContinuation<SoundEvent, Never>)] = []
        for waiter in waiters {
            if waiter.matches(event) { waiter.continuation.resume(returning: event) } else { still.append(waiter) }
        }
        waiters = still
    }

    /// The first event that `matches`, once it has come (the suite's time limit guards a hang).
    @discardableResult
    func first(where matches: @escaping (SoundEvent) -> Bool) async -> SoundEvent {
        if let event = all.first(where: matches) { return event }
        return await withCheckedContinuation { waiters.append((matches, $0)) }
    }

    /// Waits for the end of `identifier`'s sound and returns why it ended.
    func end(of identifier: String) async -> EndReason {
        let event = await first {
            if case .ended(identifier, _) = $0 { true } else { false }
        }
        guard case .ended(_, let reason) = event else { return .stopped }
        return reason
    }

    /// The identifiers of the `played` events, in order.
    var played: [String] {
        all.compactMap { if case .played(let identifier, _, _, _) = $0 { identifier } else { nil } }
    }

    /// The identifiers of the `ended` events, in order.
    var ended: [String] {
        all.compactMap { if case .ended(let identifier, _) = $0 { identifier } else { nil } }
    }
}
