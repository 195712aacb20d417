import CMPV
import Dispatch
import Foundation
import NotiplayCore
@testable import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// The system output's fallback to `null` is announced however late the engine's queue takes
    /// libmpv's events.
    @Suite(.timeLimit(.minutes(3)))
    struct OutputFallbackTests {
        /// A second client of the same player plays an untimed file with `gapless-audio=no`, so
        /// that libmpv closes the output before `END_FILE` (as going idle closes it otherwise).
        /// Its own `on_preloaded` hook, which runs after the engine's, holds the engine's queue
        /// before the output opens; the queue is let go once libmpv has sent `END_FILE` (nothing
        /// waited for the engine) or waits in the engine's `on_unload` hook. The bug this
        /// catches: `current-ao` read only at the restart, the end and its own change events,
        /// all taken after the output had closed, so the notice never came (seen under
        /// AddressSanitizer on a loaded machine, where the queue took the events late).
        @Test(.enabled(if: !TestMedia.hasSoundDevice, "needs a machine without a sound card"))
        func theNoticeComesWhenTheQueueTakesTheEventsLate() async throws {
            let engine = try MPVEngine(output: .system(untimedFallback: true))
            var events = EventCursor(engine)
            let observer = try PlayerObserver(engine)
            let release = DispatchSemaphore(value: 0)
            let hold: @Sendable () -> Void = {
                let held = DispatchSemaphore(value: 0)
                engine.queue.async {
                    held.signal()
                    release.wait()
                }
                held.wait()
            }
            let path = TestMedia.path("tone-1s.wav")
            let outcome = await waitOffThePool { observer.play(path, holdingTheEngine: hold) }
            release.signal()
            let item = try outcome.get()
            #expect(try await events.end(of: item) == .endOfFile)
            observer.destroy()
            await engine.shutdown()
            let kinds = events.seen.map(\.kind)
            let notice = kinds.firstIndex(of: .outputFallback(using: "null"))
            #expect(notice != nil, "no fallback notice; events: \(kinds)")
            if let notice, let end = kinds.firstIndex(where: \.isEnded) {
                #expect(notice < end, "the notice came after the end: \(kinds)")
            }
        }

        /// Eight players in one process each play files on the system output at once, as a
        /// center does with an arrival sound beside a playing card, and all end. The bug this
        /// catches: the system output also tried `jack` and `sdl`, whose libraries keep state
        /// for the whole process; with no sound card every player opened and closed them at
        /// once, and a call through a null pointer killed the process (seen once in a full test
        /// run; a C program doing this crashed in 2 runs of 4), or the players hung (this test
        /// with them: still waiting after 4 minutes).
        @Test(.enabled(if: !TestMedia.hasSoundDevice, "needs a machine without a sound card"))
        func eightPlayersAtOnceOnTheSystemOutput() async throws {
            #expect(!MPVEngine.systemOutputs.contains("jack") && !MPVEngine.systemOutputs.contains("sdl"))
            let path = TestMedia.path("tone-1s.wav")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let engine = try MPVEngine(output: .system(untimedFallback: true))
                        var events = EventCursor(engine)
                        for _ in 0..<4 {
                            let item = try await engine.load(try AudioFileValidator().validate(path), options: PlaybackOptions())
                            #expect(try await events.end(of: item) == .endOfFile)
                        }
                        await engine.shutdown()
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}

/// Runs `body`, which blocks, on a thread of its own rather than one of the concurrency pool's.
private func waitOffThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// A second libmpv client on an engine's player: it plays a file, holds the engine's queue at a
/// chosen moment, and watches libmpv's events and log on the calling thread.
private final class PlayerObserver: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let mpv: notiplay_mpv_functions
    private let handle: OpaquePointer
    private var destroyed = false

    init(_ engine: MPVEngine) throws {
        mpv = engine.mpv
        let main = try #require(engine.queue.sync { engine.handle })
        handle = try #require(mpv.create_client(main, "observer"))
        // `v` carries the hook runner's "Running hook: CLIENT/on_unload".
        _ = mpv.request_log_messages(handle, "v")
    }

    deinit { destroy() }

    /// Plays `path` (an untimed file) on the player, with the output closed at the end of the
    /// file: `hold` holds the engine's queue once the engine has let the file's `on_preloaded`
    /// hook go, before the output opens. Returns the file's item once libmpv has sent its
    /// `END_FILE` or waits in another client's `on_unload` hook. At most 2 minutes: a guard
    /// against a hang, not a bound (libmpv probing five outputs under ThreadSanitizer on a loaded
    /// machine took more than 30 s).
    func play(_ path: String, holdingTheEngine hold: () -> Void) -> Result<PlaybackItemID, Failure> {
        guard mpv.hook_add(handle, 1, "on_preloaded", 0) >= 0, mpv.set_property_string(handle, "gapless-audio", "no") >= 0,
            !path.contains("\""), mpv.command_string(handle, "loadfile \"\(path)\"") >= 0
        else { return .failure(Failure(description: "libmpv refused the hook, the option or loadfile \(path)")) }
        let deadline = ContinuousClock.now + .seconds(120)
        var item: PlaybackItemID?
        while ContinuousClock.now < deadline {
            guard let event = mpv.wait_event(handle, 1)?.pointee else { continue }
            switch event.event_id {
            case MPV_EVENT_START_FILE:
                guard let data = event.data else { continue }
                item = PlaybackItemID(data.assumingMemoryBound(to: mpv_event_start_file.self).pointee.playlist_entry_id)
            case MPV_EVENT_HOOK:
                guard let data = event.data else { continue }
                hold()
                _ = mpv.hook_continue(handle, data.assumingMemoryBound(to: mpv_event_hook.self).pointee.id)
            case MPV_EVENT_END_FILE:
                if let item { return .success(item) }
            case MPV_EVENT_LOG_MESSAGE:
                guard let data = event.data, let text = data.assumingMemoryBound(to: mpv_event_log_message.self).pointee.text
                else { continue }
                let line = String(cString: text)
                if let item, line.hasPrefix("Running hook: "), line.contains("/on_unload") { return .success(item) }
            default:
                continue
            }
        }
        return .failure(Failure(description: "libmpv neither ended \(path) nor waited in on_unload within 2 minutes"))
    }

    /// Lets go of the client (before the engine shuts down: the player ends when every client
    /// has gone).
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        mpv.destroy(handle)
    }
}
