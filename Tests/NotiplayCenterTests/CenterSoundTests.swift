import Foundation
import Notiplay
@testable import NotiplayCenter
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// Arrival sounds in the running center, on real libmpv: a sound arriving while the card's
    /// media plays waits for it; Focus lets only time-sensitive and critical sounds through.
    @MainActor
    @Suite(.serialized, .timeLimit(.minutes(2))) struct CenterSoundTests {
        /// Every center event, and a way to wait for one.
        @MainActor final class Recorder {
            var events: [CenterService.Event] = []
            private var waiting: ((CenterService.Event) -> Bool, CheckedContinuation<Void, Never>)?

            func record(_ event: CenterService.Event) {
                events.append(event)
                if let (matches, continuation) = waiting, matches(event) {
                    waiting = nil
                    continuation.resume()
                }
            }

            /// Returns once an event that `matches` was recorded (already, or from now on).
            func wait(for matches: @escaping (CenterService.Event) -> Bool) async {
                if events.contains(where: matches) { return }
                await withCheckedContinuation { waiting = (matches, $0) }
            }

            var sounds: [SoundEvent] { events.compactMap { if case .sound(let s) = $0 { s } else { nil } } }

            /// The shown cards' playback states, in order.
            var playback: [String] = []
            private var waitingPlayback: (String, CheckedContinuation<Void, Never>)?

            func record(_ logged: LoggedEvent) {
                guard logged.name == "playback", let state = logged.string("state") else { return }
                playback.append(state)
                if let (wanted, continuation) = waitingPlayback, wanted == state {
                    waitingPlayback = nil
                    continuation.resume()
                }
            }

            /// Returns once the card's media reached `state` (already, or from now on).
            func wait(forPlayback state: String) async {
                if playback.contains(state) { return }
                await withCheckedContinuation { waitingPlayback = (state, $0) }
            }
        }

        func withCenter(_ body: @MainActor (CenterService, Recorder) async throws -> Void) async throws {
            try await Self.withSoundCenter(body)
        }

        /// A center for `apps` (the built-in one by default) with a real store, real libmpv (null
        /// audio) for its cards and its arrival sounds, and a recorder of its events; `configure`
        /// runs before `body`.
        static func withSoundCenter(
            apps: [CenterService.App] = [CenterService.App(definition: .standard, registry: .empty)],
            policyClock: (@MainActor @Sendable () -> Duration)? = nil,
            configure: @MainActor (CenterService) throws -> Void = { _ in },
            _ body: @MainActor (CenterService, Recorder) async throws -> Void
        ) async throws {
            let folders = try ArrivalSoundFolders()
            let engine = try MPVEngine(output: .null(untimed: false))
            let soundEngine = try MPVEngine(output: .null(untimed: true))
            let store = try CenterStore.open(folder: folders.root + "/store")
            let service = CenterService(
                store: store, apps: apps, types: ExtensionTypes(), engine: engine, policyClock: policyClock)
            try configure(service)
            service.arrivalSounds = ArrivalSoundPlayer(engine: soundEngine, resolver: folders.resolver())
            let recorder = Recorder()
            service.observe { event in
                if case .presentation(let logged) = event { recorder.record(logged) } else { recorder.record(event) }
            }
            try await body(service, recorder)
            await service.close()
            await engine.shutdown()
            await soundEngine.shutdown()
        }

        static func payload(_ title: String, level: String? = nil, sound: String = "\"default\"") -> String {
            let interruption = level.map { ",\"interruption-level\":\"\($0)\"" } ?? ""
            return "{\"aps\":{\"alert\":{\"title\":\"\(title)\"},\"sound\":\(sound)\(interruption)}}"
        }

        @Test("A sound arriving while the card's media plays waits, and plays once the media is paused")
        func soundDuringMedia() async throws {
            try await withCenter { service, recorder in
                let tone = try Data(contentsOf: URL(fileURLWithPath: TestMedia.path("tone-1s.wav")))
                _ = try service.receive(IncomingNotification(
                    identifier: "memo", app: "notiplay", payload: "{\"aps\":{\"alert\":{\"title\":\"Memo\"}}}",
                    attachments: [IncomingAttachment(name: "tone.wav", kind: "com.microsoft.waveform-audio", bytes: [UInt8](tone))]))
                let card = try #require(service.shownSession)
                card.handle(.media)
                await recorder.wait(forPlayback: "started")
                _ = try service.receive(IncomingNotification(identifier: "ding", app: "notiplay", payload: Self.payload("Ding")))
                await recorder.wait { if case .sound(.queued(identifier: "ding", _, _)) = $0 { true } else { false } }
                #expect(!recorder.sounds.contains { if case .played = $0 { true } else { false } }, "played over the media")
                card.handle(.media)  // pause
                await recorder.wait { if case .sound(.played(identifier: "ding", _, _, _)) = $0 { true } else { false } }
                await recorder.wait { if case .sound(.ended(identifier: "ding", _)) = $0 { true } else { false } }
            }
        }

        @Test("Focus on: only time-sensitive and critical sounds; passive never; Focus off: all but passive")
        func focusByLevel() async throws {
            try await withCenter { service, recorder in
                for focus in [true, false] {
                    service.setFocus(focus)
                    for level in ["passive", "active", "time-sensitive", "critical"] {
                        let id = "\(level)-\(focus)"
                        _ = try service.receive(IncomingNotification(identifier: id, app: "notiplay", payload: Self.payload(id, level: level)))
                        await recorder.wait {
                            switch $0 {
                            case .sound(.played(identifier: id, _, _, _)), .sound(.silenced(identifier: id, _)): true
                            default: false
                            }
                        }
                        let heard = recorder.sounds.contains { if case .played(identifier: id, _, _, _) = $0 { true } else { false } }
                        let expected = level != "passive" && (!focus || level == "time-sensitive" || level == "critical")
                        #expect(heard == expected, "\(id)")
                    }
                }
            }
        }

        @Test("An unknown sound name: the default plays, with a warning naming it")
        func unknownSound() async throws {
            try await withCenter { service, recorder in
                _ = try service.receive(IncomingNotification(identifier: "odd", app: "notiplay", payload: Self.payload("Odd", sound: "\"nope.caf\"")))
                await recorder.wait { if case .sound(.played(identifier: "odd", "default", _, _)) = $0 { true } else { false } }
                #expect(recorder.sounds.contains { if case .warning("odd", let m) = $0 { m.contains("\"nope.caf\"") } else { false } })
            }
        }
    }
}
