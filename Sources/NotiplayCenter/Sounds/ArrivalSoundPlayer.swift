package import NotiplayCore
package import NotiplayPlayback

/// What the configuration's rules say of one arrival sound.
package struct SoundRule: Sendable, Equatable {
    /// It is not played.
    package var silenced: Bool
    /// Its volume, 0 to 100, instead of the sound's own.
    package var volume: Int?
    /// An absolute path to play instead of the notification's sound.
    package var file: String?

    /// A rule; by default it changes nothing.
    package init(silenced: Bool = false, volume: Int? = nil, file: String? = nil) {
        self.silenced = silenced
        self.volume = volume
        self.file = file
    }
}

/// Plays notifications' arrival sounds through an engine of their own, as ``SoundPolicy`` says.
///
/// The engine is the sounds' alone (the server keeps a second one warm for them), so a sound
/// never unloads the card's media. The player follows the card's media through
/// ``mediaPlayingChanged(_:)``:
/// - while the media plays, an arriving sound waits, behind those that wait already (at most
///   ``waitingLimit``; past it the oldest is dropped); once the media pauses or ends they play
///   one after another, each to its end, so every sound is heard;
/// - when the media starts, a sound playing then is stopped: the media button's audio is never
///   mixed with a sound (the stopped sound is not played again).
///
/// A sound arriving while another plays replaces it. Every sound that is played (at once or after
/// waiting) gets exactly one ``SoundEvent/ended(identifier:reason:)``.
@MainActor
package final class ArrivalSoundPlayer {
    /// Called with every sound event, in order.
    package var onEvent: (@MainActor (SoundEvent) -> Void)?
    /// Whether the card's media is playing, as ``mediaPlayingChanged(_:)`` last said.
    package private(set) var isMediaPlaying = false
    /// Finds the file for each sound.
    package let resolver: ArrivalSoundResolver

    private let engine: any PlaybackEngine
    /// The sounds waiting for the media to stop, oldest first.
    private var waiting: [Arrival] = []
    /// How many sounds wait at most: a flood of notifications is not a minute of chimes.
    package static let waitingLimit = 4
    /// The sound handed to the engine, or about to be.
    private var current: Playing?
    private var tokens: UInt64 = 0
    /// The last engine command: each one waits for the one before, so they reach the engine in order.
    private var lastCommand: Task<Void, Never>?
    private var listener: Task<Void, Never>?

    /// A sound to play for a notification.
    private struct Arrival {
        var identifier: String
        var sound: ResolvedSound
    }

    /// The sound in the engine: its load's token, its item once the load returned, and the ends
    /// the engine reported before that (which may be its own).
    private struct Playing {
        var arrival: Arrival
        var token: UInt64
        var item: PlaybackItemID?
        var early: [PlaybackEvent] = []
    }

    /// A player on `engine` (which it alone should load files into), finding files with `resolver`.
    package init(engine: any PlaybackEngine, resolver: ArrivalSoundResolver) {
        self.engine = engine
        self.resolver = resolver
        let events = engine.events()
        listener = Task { [weak self] in
            for await event in events { self?.handle(event) }
        }
    }

    isolated deinit {
        listener?.cancel()
    }

    /// The notification whose sound waits for the media to stop, if one does.
    package var waitingIdentifier: String? { waiting.first?.identifier }
    /// The notification whose sound is playing (or loading), if one is.
    package var playingIdentifier: String? { current?.arrival.identifier }

    /// A notification arrived: its sound plays, waits, or is silenced, as ``SoundPolicy`` decides
    /// with the media's state; the file is found at once (its warnings come now).
    /// - Parameters:
    ///   - identifier: The notification's identifier, for the events.
    ///   - app: The app's name, whose sounds folder a named sound is looked up in.
    ///   - sound: The notification's sound (`content.sound`).
    ///   - level: Its interruption level (`content.interruptionLevel`).
    ///   - focus: Whether Focus is on.
    ///   - rule: What the configuration says of it (silence, a volume, a file).
    /// - Returns: The decision.
    @discardableResult
    package func arrive(
        identifier: String, app: String, sound: UNNotificationSound?, level: UNNotificationInterruptionLevel,
        focus: Bool, rule: SoundRule = SoundRule()
    ) -> SoundDecision {
        let decision = SoundPolicy.decide(
            level: level, sound: sound, focus: focus, mediaPlaying: isMediaPlaying, silencedByRule: rule.silenced)
        switch decision {
        case .noSound:
            break
        case .silenced(let reason):
            emit(.silenced(identifier: identifier, reason: reason))
        case .queue, .play:
            guard let sound else { break }
            let resolution = rule.file.map { resolver.resolve(file: $0) } ?? resolver.resolve(sound, app: app)
            for warning in resolution.warnings { emit(.warning(identifier: identifier, message: warning)) }
            guard var resolved = resolution.sound else { break }
            if let volume = rule.volume { resolved.volume = Double(volume) / 100 }
            let arrival = Arrival(identifier: identifier, sound: resolved)
            if decision == .play && waiting.isEmpty {
                start(arrival)
            } else {
                // Behind the media, or behind sounds that waited for it and play in turn now.
                let replaced = waiting.count >= Self.waitingLimit ? waiting.removeFirst().identifier : nil
                waiting.append(arrival)
                emit(.queued(identifier: identifier, sound: resolved.name, replaced: replaced))
                return .queue
            }
        }
        return decision
    }

    /// The card's media started (`true`) or paused or ended (`false`). Starting stops a sound
    /// that plays; stopping plays the sound that waits.
    package func mediaPlayingChanged(_ playing: Bool) {
        guard playing != isMediaPlaying else { return }
        isMediaPlaying = playing
        if playing {
            guard let stopped = current else { return }
            current = nil
            emit(.ended(identifier: stopped.arrival.identifier, reason: .stopped))
            enqueue { engine in try? await engine.stop() }
        } else {
            playNextWaiting()
        }
    }

    /// Waits until every sound decided so far reached the engine: one to play has been loaded
    /// (``SoundEvent/played(identifier:sound:path:volume:)`` sent) or has failed.
    package func settle() async {
        await lastCommand?.value
    }

    /// Forgets the waiting sound, stops the one playing, and stops listening to the engine.
    package func close() async {
        waiting = []
        if let stopped = current {
            current = nil
            emit(.ended(identifier: stopped.arrival.identifier, reason: .stopped))
        }
        await lastCommand?.value
        try? await engine.stop()
        listener?.cancel()
    }

    // MARK: Playing

    private func start(_ arrival: Arrival) {
        if let replaced = current {
            emit(.ended(identifier: replaced.arrival.identifier, reason: .stopped))
        }
        tokens += 1
        let token = tokens
        current = Playing(arrival: arrival, token: token)
        let options = PlaybackOptions(volume: arrival.sound.engineVolume)
        enqueue { [weak self] engine in
            // Replaced or stopped before its turn came: never loaded.
            guard self?.current?.token == token else { return }
            do {
                let item = try await engine.load(arrival.sound.file, options: options)
                self?.loaded(item, token: token)
            } catch {
                self?.loadFailed(error, token: token)
            }
        }
    }

    private func loaded(_ item: PlaybackItemID, token: UInt64) {
        // Replaced or stopped while loading: the command that did it follows this load.
        guard var playing = current, playing.token == token else { return }
        let early = playing.early
        playing.item = item
        playing.early = []
        current = playing
        let sound = playing.arrival.sound
        emit(
            .played(
                identifier: playing.arrival.identifier, sound: sound.name, path: sound.file.path,
                volume: sound.engineVolume))
        for event in early { handle(event) }
    }

    private func loadFailed(_ error: any Error, token: UInt64) {
        guard let playing = current, playing.token == token else { return }
        current = nil
        let failure = error as? PlaybackFailure ?? PlaybackFailure(code: -1, message: "\(error)", operation: "loadfile")
        ended(playing.arrival, reason: .failed(failure))
    }

    /// An engine event: the end of the current sound is reported; ends that come before its load
    /// returned are kept until it does.
    private func handle(_ event: PlaybackEvent) {
        guard var playing = current, let item = event.item, case .ended(let reason) = event.kind else { return }
        guard let known = playing.item else {
            playing.early.append(event)
            current = playing
            return
        }
        guard item == known else { return }
        current = nil
        ended(playing.arrival, reason: reason)
    }

    private func ended(_ arrival: Arrival, reason: EndReason) {
        if case .failed(let failure) = reason {
            let name = TerminalText.clean(arrival.sound.name)
            let path = TerminalText.clean(arrival.sound.file.path)
            emit(
                .warning(
                    identifier: arrival.identifier,
                    message: "sound \"\(name)\" (\(path)) could not be played: \(failure.message)"))
        }
        emit(.ended(identifier: arrival.identifier, reason: reason))
        playNextWaiting()
    }

    /// The next waiting sound starts, unless one plays or the media does.
    private func playNextWaiting() {
        guard current == nil, !isMediaPlaying, !waiting.isEmpty else { return }
        start(waiting.removeFirst())
    }

    /// Runs `work` on the engine after every command enqueued before it.
    private func enqueue(_ work: @escaping @MainActor (any PlaybackEngine) async -> Void) {
        let previous = lastCommand
        let engine = engine
        lastCommand = Task {
            await previous?.value
            await work(engine)
        }
    }

    private func emit(_ event: SoundEvent) {
        onEvent?(event)
    }
}
