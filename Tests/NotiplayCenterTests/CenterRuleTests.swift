import Foundation
import Notiplay
@testable import NotiplayCenter
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// The configuration's rules on real notifications, in a center with a real store and real
    /// libmpv (null audio): a rule silencing one app, one raising another's volume, one sending a
    /// category ahead of the waiting cards; a reload that fails keeps the rules in force.
    @MainActor
    @Suite(.serialized, .timeLimit(.minutes(2))) struct CenterRuleTests {
        typealias Recorder = CenterSoundTests.Recorder

        static let rules = """
            [global]
            volume = 50

            [quiet-chat]
            app = Chat
            silence = yes

            [loud-mail]
            app = Mail
            volume = 90

            [alarms]
            category = alarm
            skip-queue = yes
            """

        func withCenter(
            _ text: String = rules, policyClock: (@MainActor @Sendable () -> Duration)? = nil,
            _ body: @MainActor (CenterService, Recorder) async throws -> Void
        ) async throws {
            let apps = ["notiplay", "Chat", "Mail"].map {
                CenterService.App(
                    definition: AppDefinition(name: $0, categories: [], extensionsDirectory: nil, forwardedActions: .printOnly),
                    registry: .empty)
            }
            try await CenterSoundTests.withSoundCenter(
                apps: apps, policyClock: policyClock, configure: { $0.config = try CenterConfig.parse(text, file: "notiplay.conf") },
                body)
        }

        static func payload(_ title: String, category: String? = nil) -> String {
            let category = category.map { ",\"category\":\"\($0)\"" } ?? ""
            return "{\"aps\":{\"alert\":{\"title\":\"\(title)\"},\"sound\":\"default\"\(category)}}"
        }

        /// Sends `identifier` from `app` and waits for its sound to be played or silenced.
        func send(_ service: CenterService, _ recorder: Recorder, _ identifier: String, app: String) async throws {
            _ = try service.receive(IncomingNotification(identifier: identifier, app: app, payload: Self.payload(identifier)))
            await recorder.wait {
                switch $0 {
                case .sound(.played(identifier: identifier, _, _, _)), .sound(.silenced(identifier: identifier, _)): true
                default: false
                }
            }
        }

        func volume(_ recorder: Recorder, of identifier: String) -> Double? {
            recorder.sounds.lazy.compactMap { if case .played(identifier, _, _, let volume) = $0 { volume } else { nil } }.first
        }

        @Test("A rule silences one app's sounds, another raises one app's volume, [global] volume the rest")
        func silenceAndVolume() async throws {
            try await withCenter { service, recorder in
                try await send(service, recorder, "chat-1", app: "Chat")
                try await send(service, recorder, "mail-1", app: "Mail")
                try await send(service, recorder, "other-1", app: "notiplay")
                #expect(recorder.sounds.contains(.silenced(identifier: "chat-1", reason: .rule)))
                #expect(volume(recorder, of: "chat-1") == nil)
                #expect(volume(recorder, of: "mail-1") == 90)
                #expect(volume(recorder, of: "other-1") == 50)
            }
        }

        @Test("A category's rule sends its card ahead of the waiting ones: shown at once, even over a busy card")
        func skipQueue() async throws {
            // The policy's clock stands still: a key pressed keeps the card busy for the whole test.
            try await withCenter(policyClock: { .zero }) { service, recorder in
                _ = try service.receive(IncomingNotification(identifier: "first", app: "notiplay", payload: Self.payload("First")))
                service.keyPressed()  // busy: what arrives now waits
                _ = try service.receive(IncomingNotification(identifier: "second", app: "notiplay", payload: Self.payload("Second")))
                #expect(service.deck.shown?.identifiers == ["first"])
                _ = try service.receive(IncomingNotification(
                    identifier: "alarm", app: "Mail", payload: Self.payload("Wake", category: "alarm")))
                #expect(service.deck.shown?.identifiers == ["alarm"])
                #expect(service.deck.waiting.map(\.identifiers) == [["first"], ["second"]])
                #expect(!service.shownIsCritical, "a card sent ahead does not look critical")
                #expect(recorder.events.contains(.shown(identifier: "alarm")))
            }
        }

        @Test("timeout, history, autoplay, urgency and a sound file: the card's traits and the sound played, on body and summary globs")
        func otherActions() async throws {
            let folders = try ArrivalSoundFolders()
            let bell = try folders.copy("tone-1s.wav", to: folders.root + "/bells", as: "bell.wav")
            let text = """
                [short]
                summary = Build*
                timeout = 2.5
                history = no
                autoplay = yes
                [bell]
                body = *failed*
                urgency = normal
                sound = \(bell)
                [none]
                app = Chat
                sound = none
                """
            try await withCenter(text) { service, recorder in
                _ = try service.receive(IncomingNotification(
                    identifier: "build", app: "notiplay",
                    payload: "{\"aps\":{\"alert\":{\"title\":\"Build 7\",\"body\":\"it failed\"},\"sound\":\"default\"}}"))
                let traits = try #require(service.live["build"]?.traits)
                #expect(traits.lifetime == .milliseconds(2500) && traits.transient && traits.startsMedia)
                await recorder.wait { if case .sound(.played(identifier: "build", _, _, _)) = $0 { true } else { false } }
                #expect(recorder.sounds.contains(
                    .played(identifier: "build", sound: "bell.wav", path: ArrivalSoundFolders.real(bell), volume: 100)))
                _ = try service.receive(IncomingNotification(identifier: "chat", app: "Chat", payload: Self.payload("Hi")))
                #expect(service.live["chat"]?.traits.sound == RuleSound.none)
                // Sounds reach the engine in order: once the next one has played, chat's would have.
                try await send(service, recorder, "after", app: "notiplay")
                // No sound at all: not played, not stopped by the next one, not silenced.
                #expect(!recorder.sounds.contains { Self.identifier(of: $0) == "chat" }, "\(recorder.sounds)")
            }
        }

        static func identifier(of event: SoundEvent) -> String {
            switch event {
            case .played(let identifier, _, _, _), .queued(let identifier, _, _), .silenced(let identifier, _),
                .ended(let identifier, _), .warning(let identifier, _):
                identifier
            }
        }

        @Test("A reload with an invalid file keeps the rules in force and says why; a valid one changes them for what comes next")
        func reload() async throws {
            var next = "[global\n"
            try await withCenter { service, recorder in
                service.configLoader = { () throws(CenterConfigError) -> CenterConfig in
                    try CenterConfig.parse(next, file: "/conf/notiplay.conf")
                }
                let kept = service.reloadConfiguration()
                #expect(kept == .kept(problems: ["/conf/notiplay.conf:1:1: a section header must end with ]"]))
                #expect(recorder.events.contains(.configuration(kept)))
                try await send(service, recorder, "chat-1", app: "Chat")
                #expect(recorder.sounds.contains(.silenced(identifier: "chat-1", reason: .rule)))

                next = "[loud-chat]\napp = Chat\nvolume = 20\n"
                #expect(service.reloadConfiguration() == .reloaded(rules: 1))
                try await send(service, recorder, "chat-2", app: "Chat")
                #expect(volume(recorder, of: "chat-2") == 20)
                #expect(service.live["chat-1"]?.traits.silenced == true, "a live card keeps its traits")
            }
        }
    }
}
