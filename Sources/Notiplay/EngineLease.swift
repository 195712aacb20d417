import NotiplayCore
import NotiplayPlayback

/// A card's hold on the session's engine: the ``MediaPlayer``s made for the card play through
/// it, one command at a time in the order given, for as long as the card is shown. Once the card
/// is dismissed or replaced the lease is revoked, and its players' commands are ignored: a closed
/// card stays silent.
@MainActor
final class EngineLease {
    private weak var router: PlaybackRouter?
    /// Whether the card is gone.
    private(set) var isRevoked: Bool
    /// The last command given through the lease.
    private var tail: Task<Void, Never>?
    /// The player whose `load` was asked for last and has not returned yet: a seek asked for
    /// meanwhile is for the file it loads (it runs after the load, in order).
    private(set) weak var loadingPlayer: MediaPlayer?

    /// A lease on `router`'s engine; a `revoked` one stands for no card. Its commands run after
    /// `after`, if given (the engine's stop for the card shown before).
    init(router: PlaybackRouter?, revoked: Bool = false, after: Task<Void, Never>? = nil) {
        self.router = router
        isRevoked = revoked
        tail = after
    }

    /// The engine, while the session that handed out the lease exists.
    var engine: (any PlaybackEngine)? { router?.engine }

    /// Ends the lease: commands not yet run are ignored.
    func revoke() {
        isRevoked = true
    }

    /// Runs `command` after every command given through the lease before it.
    @discardableResult
    func enqueue(_ command: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        let previous = tail
        let task = Task { @MainActor in
            await previous?.value
            await command()
        }
        tail = task
        return task
    }

    /// Waits until every command given so far has run.
    func settle() async {
        await tail?.value
    }

    /// Loads `file` for `player` with `options`, and `player` from now on receives the engine's
    /// events of that file, and of no other: it subscribes before the engine is asked, so the
    /// events the engine sends before `load` returns the file's id are kept for it. A load the
    /// engine refuses (the file no longer passes its checks, or the engine is closed) reaches
    /// `player` as the failed end of its file, recorded as a `playback` `error` event.
    func load(_ file: AudioFile, options: PlaybackOptions, for player: MediaPlayer) async {
        guard let router, !isRevoked else { return }
        let subscription = router.subscribe(player, lease: self)
        do {
            let item = try await router.engine.load(file, options: options)
            router.loaded(item, for: subscription)
        } catch {
            router.loadFailed(error, for: subscription)
        }
    }

    /// Whether `player` plays the file the engine has loaded (it loaded last, and its `load`
    /// returned).
    func hasLoaded(_ player: MediaPlayer) -> Bool {
        router?.loadedPlayer === player
    }

    /// `player` asked for a load, which runs after the commands given before it.
    func loadQueued(by player: MediaPlayer) {
        loadingPlayer = player
    }

    /// The load `player` asked for returned (or was skipped).
    func loadDone(by player: MediaPlayer) {
        if loadingPlayer === player { loadingPlayer = nil }
    }
}
