import NotiplayCore
import NotiplayPlayback

/// The session's side of the engine: it hands each card an ``EngineLease``, passes the engine's
/// events to the player that loaded last (only those of its file), and records what the media did
/// as `playback` events — the one place the runtime learns that playback started, paused or ended.
@MainActor
final class PlaybackRouter {
    /// The engine. It belongs to the session's creator.
    let engine: any PlaybackEngine
    /// The lease of the card shown (a revoked one before the first card).
    private(set) var lease: EngineLease
    private let log: EventLog
    private let notifications: NotificationStore
    /// The player that loaded last, until its card ends.
    private var active: PlaybackSubscription?
    private var listener: Task<Void, Never>?

    init(engine: any PlaybackEngine, log: EventLog, notifications: NotificationStore) {
        self.engine = engine
        self.log = log
        self.notifications = notifications
        lease = EngineLease(router: nil, revoked: true)
        let stream = engine.events()
        listener = Task { @MainActor [weak self] in
            for await event in stream {
                guard let self else { return }
                self.receive(event)
            }
        }
    }

    /// Stops listening to the engine.
    func close() {
        listener?.cancel()
    }

    /// The scope extension code runs in for the card shown.
    var scope: PresentationScope {
        PresentationScope(lease: lease, notifications: notifications)
    }

    /// What the next card's media commands wait for: the engine stopping what a card of
    /// another session played (``PresentationSession/mediaWaits(for:)``).
    var gate: Task<Void, Never>?

    /// A new card: a lease of its own, the previous one revoked.
    func newCard() {
        lease.revoke()
        lease = EngineLease(router: self, after: gate)
        gate = nil
    }

    /// The card ends: its lease is revoked, and its media stops.
    func endCard() {
        lease.revoke()
        if active != nil {
            active = nil
            let engine = self.engine
            Task { try? await engine.stop() }
        }
    }

    /// The player whose file is loaded now, if its `load` returned.
    var loadedPlayer: MediaPlayer? {
        guard let active, active.item != nil else { return nil }
        return active.player
    }

    /// Waits until every media command given for the card shown has reached the engine.
    func settle() async {
        await lease.settle()
    }

    // MARK: Subscriptions

    /// `player` is about to load a file: from now on the engine's events go to it.
    func subscribe(_ player: MediaPlayer, lease: EngineLease) -> PlaybackSubscription {
        let subscription = PlaybackSubscription(player: player, lease: lease)
        active = subscription
        return subscription
    }

    /// The file of `subscription` loaded as `item`: the events of it that came first are passed on.
    func loaded(_ item: PlaybackItemID, for subscription: PlaybackSubscription) {
        let early = subscription.loaded(item)
        guard subscription === active else { return }
        for kind in early { dispatch(kind, to: subscription) }
    }

    /// The engine refused to load the file of `subscription` (``PlaybackEngine/load(_:options:)``
    /// threw): its player hears it as a failed end, recorded as a `playback` `error` event whose
    /// message says why (and names the file when the file is at fault).
    func loadFailed(_ error: any Error, for subscription: PlaybackSubscription) {
        subscription.failed()
        guard subscription === active else { return }
        let failure =
            error as? PlaybackFailure
            ?? PlaybackFailure(code: PlaybackFailure.loadingFailed, message: "\(error)", operation: "open")
        dispatch(.ended(.failed(failure)), to: subscription)
    }

    private func receive(_ event: PlaybackEvent) {
        if case .outputFallback(let output) = event.kind {
            log.record(.error("no sound device could be opened; playing silently on the \(output) output"))
            return
        }
        guard let active, let kind = active.accept(event) else { return }
        dispatch(kind, to: active)
    }

    /// Records what the media did, then tells the player, in its card's scope (so that what its
    /// callbacks make plays through the same lease).
    private func dispatch(_ kind: PlaybackEvent.Kind, to subscription: PlaybackSubscription) {
        let player = subscription.player
        PresentationScope(lease: subscription.lease, notifications: notifications).bind {
            switch kind {
            case .started(let position):
                log.record(.playback(.started, position: position))
            case .paused(let position):
                log.record(.playback(.paused, position: position))
            case .ended(let reason):
                let position = player.duration ?? player.position
                switch reason {
                case .endOfFile: log.record(.playback(.ended, position: position))
                case .truncated(let reached):
                    log.record(.playback(.ended, position: reached, message: Self.truncation(at: reached, of: player.duration)))
                case .stopped: log.record(.playback(.stopped, position: position))
                case .failed(let failure): log.record(.playback(.error, position: position, message: failure.message))
                }
            default: break
            }
            // A position update changes the card only through the extension's view (which says so).
            player.handle(kind)
        }
    }
}

extension PlaybackRouter {
    /// The `message` of a `playback` `ended` event whose file was cut short while it played.
    static func truncation(at position: Double, of duration: Double?) -> String {
        func seconds(_ value: Double) -> String { "\((value * 10).rounded() / 10) s" }
        let end = duration.map { ", not at its end (\(seconds($0)))" } ?? ""
        return "the file was cut short while it played: its audio ended at \(seconds(position))\(end)"
    }
}

/// A player's claim on the engine's events for the file it loads, taken before it asks the engine
/// to load it: until `load` returns the file's id the events are kept, then those of other files
/// are dropped.
@MainActor
final class PlaybackSubscription {
    /// The player, kept while it is the one playing, even if its extension let it go.
    let player: MediaPlayer
    /// The lease it plays through.
    let lease: EngineLease
    /// The loaded file's id, once `load` returned it.
    private(set) var item: PlaybackItemID?
    private var early: [PlaybackEvent] = []
    private var isFailed = false

    init(player: MediaPlayer, lease: EngineLease) {
        self.player = player
        self.lease = lease
    }

    /// What of `event` is for the player now: `nil` for another file's event, or one kept until
    /// the file's id is known.
    func accept(_ event: PlaybackEvent) -> PlaybackEvent.Kind? {
        guard let eventItem = event.item, !isFailed else { return nil }
        guard let item else {
            early.append(event)
            return nil
        }
        return eventItem == item ? event.kind : nil
    }

    /// The file loaded as `item`: the events of it that came first.
    func loaded(_ item: PlaybackItemID) -> [PlaybackEvent.Kind] {
        self.item = item
        defer { early = [] }
        return early.filter { $0.item == item }.map(\.kind)
    }

    /// The load failed: nothing more is kept.
    func failed() {
        isFailed = true
        early = []
    }
}
