import Foundation
import NotiplayCenter
import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing

extension RealEngine {
    /// Arrival sounds through a real libmpv engine of their own: every verdict comes from the
    /// events the player sends, in the order the engine reported; nothing waits on the clock.
    @MainActor
    @Suite(.timeLimit(.minutes(1)))
    struct ArrivalSoundPlayerTests {
        /// A player on a real engine (`output`), its events recorded; the app `"App"` has a
        /// `Sounds/` folder holding `tone.wav` (1 s); the default sound is the chime.
        func withPlayer(
            output: AudioOutput = .null(untimed: true),
            _ body: @MainActor (ArrivalSoundPlayer, ArrivalSoundEvents, ArrivalSoundFolders) async throws -> Void
        ) async throws {
            let folders = try ArrivalSoundFolders()
            try folders.copy("tone-1s.wav", to: folders.sounds, as: "tone.wav")
            let engine = try MPVEngine(output: output)
            let player = ArrivalSoundPlayer(engine: engine, resolver: folders.resolver())
            let events = ArrivalSoundEvents()
            player.onEvent = { events.record($0) }
            try await body(player, events, folders)
            await player.close()
            await engine.shutdown()
        }

        func arrive(
            _ player: ArrivalSoundPlayer, _ identifier: String, _ sound: UNNotificationSound? = .default,
            level: UNNotificationInterruptionLevel = .active, focus: Bool = false
        ) -> SoundDecision {
            player.arrive(identifier: identifier, app: "App", sound: sound, level: level, focus: focus)
        }

        @Test("A sound plays to its end: played, then ended at the end of the file")
        func playsToItsEnd() async throws {
            try await withPlayer { player, events, folders in
                #expect(arrive(player, "a") == .play)
                #expect(player.playingIdentifier == "a")
                #expect(await events.end(of: "a") == .endOfFile)
                let chime = ArrivalSoundFolders.real(folders.runtime + "/" + BundledChime.fileName)
                #expect(
                    events.all == [
                        .played(identifier: "a", sound: "default", path: chime, volume: 100),
                        .ended(identifier: "a", reason: .endOfFile),
                    ])
                #expect(player.playingIdentifier == nil)

                #expect(arrive(player, "b", UNNotificationSound(named: "tone.wav")) == .play)
                #expect(await events.end(of: "b") == .endOfFile)
                let tone = ArrivalSoundFolders.real(folders.sounds + "/tone.wav")
                #expect(
                    events.all.dropFirst(2) == [
                        .played(identifier: "b", sound: "tone.wav", path: tone, volume: 100),
                        .ended(identifier: "b", reason: .endOfFile),
                    ])
            }
        }

        @Test("A sound arriving while the media plays waits, and plays once the media stops")
        func queuedUntilMediaStops() async throws {
            try await withPlayer { player, events, _ in
                player.mediaPlayingChanged(true)
                #expect(arrive(player, "a") == .queue)
                #expect(events.all == [.queued(identifier: "a", sound: "default", replaced: nil)])
                #expect(player.waitingIdentifier == "a")
                #expect(player.playingIdentifier == nil)

                player.mediaPlayingChanged(false)
                #expect(player.waitingIdentifier == nil)
                #expect(await events.end(of: "a") == .endOfFile)
                #expect(events.played == ["a"])
            }
        }

        @Test("While the media plays, sounds wait in turn: once it stops each plays to its end, oldest first")
        func queuedSoundsPlayInTurn() async throws {
            try await withPlayer { player, events, _ in
                player.mediaPlayingChanged(true)
                #expect(arrive(player, "a") == .queue)
                #expect(arrive(player, "b", UNNotificationSound(named: "tone.wav")) == .queue)
                #expect(
                    events.all == [
                        .queued(identifier: "a", sound: "default", replaced: nil),
                        .queued(identifier: "b", sound: "tone.wav", replaced: nil),
                    ])
                #expect(player.waitingIdentifier == "a")

                player.mediaPlayingChanged(false)
                #expect(await events.end(of: "a") == .endOfFile)
                #expect(await events.end(of: "b") == .endOfFile)
                #expect(events.played == ["a", "b"])
                #expect(events.ended == ["a", "b"])
            }
        }

        @Test("At most four sounds wait: a fifth drops the oldest, and says so")
        func waitingIsBounded() async throws {
            try await withPlayer { player, events, _ in
                player.mediaPlayingChanged(true)
                for id in ["a", "b", "c", "d", "e"] { #expect(arrive(player, id) == .queue) }
                #expect(events.all.last == .queued(identifier: "e", sound: "default", replaced: "a"))
                #expect(player.waitingIdentifier == "b")
                player.mediaPlayingChanged(false)
                #expect(await events.end(of: "e") == .endOfFile)
                #expect(events.played == ["b", "c", "d", "e"])
            }
        }

        @Test("Passive and Focus silence a sound; no sound sends nothing")
        func silenced() async throws {
            try await withPlayer { player, events, _ in
                #expect(arrive(player, "p", level: .passive) == .silenced(.passive))
                #expect(arrive(player, "f", focus: true) == .silenced(.focus))
                #expect(arrive(player, "n", nil) == .noSound)
                #expect(
                    events.all == [.silenced(identifier: "p", reason: .passive), .silenced(identifier: "f", reason: .focus)])
                // A time-sensitive one breaks through Focus.
                #expect(arrive(player, "t", level: .timeSensitive, focus: true) == .play)
                #expect(await events.end(of: "t") == .endOfFile)
            }
        }

        @Test("A newer sound replaces the one playing; media starting stops a sound and it does not come back")
        func replacedAndStopped() async throws {
            try await withPlayer { player, events, _ in
                // Both in one turn of the main actor: the first never reaches the engine.
                #expect(arrive(player, "a") == .play)
                #expect(arrive(player, "b") == .play)
                #expect(await events.end(of: "b") == .endOfFile)
                #expect(events.all.first == .ended(identifier: "a", reason: .stopped))
                #expect(events.played == ["b"])

                #expect(arrive(player, "c") == .play)
                player.mediaPlayingChanged(true)
                #expect(await events.end(of: "c") == .stopped)
                player.mediaPlayingChanged(false)
                #expect(arrive(player, "d") == .play)
                #expect(await events.end(of: "d") == .endOfFile)
                #expect(events.played == ["b", "d"])
                #expect(events.ended == ["a", "b", "c", "d"])
            }
        }

        @Test("A missing named sound plays the default with a warning; one libmpv cannot decode ends failed")
        func warnings() async throws {
            try await withPlayer { player, events, folders in
                #expect(arrive(player, "m", UNNotificationSound(named: "ding.caf")) == .play)
                #expect(await events.end(of: "m") == .endOfFile)
                #expect(
                    events.all.first
                        == .warning(
                            identifier: "m",
                            message: "sound \"ding.caf\" not found in \(folders.sounds); the default sound plays"))
                #expect(events.played == ["m"])

                // A WAV header over noise: it passes validation, libmpv cannot decode it.
                var bytes = Array("RIFF".utf8) + [0x24, 0x10, 0, 0] + Array("WAVE".utf8)
                bytes += (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
                try Data(bytes).write(to: URL(fileURLWithPath: folders.sounds + "/broken.wav"))
                #expect(arrive(player, "x", UNNotificationSound(named: "broken.wav")) == .play)
                guard case .failed = await events.end(of: "x") else {
                    Issue.record("expected a failure: \(events.all)")
                    return
                }
                let path = ArrivalSoundFolders.real(folders.sounds + "/broken.wav")
                let prefix = "sound \"broken.wav\" (\(path)) could not be played: "
                let warning = events.all.first {
                    if case .warning("x", let message) = $0 { message.hasPrefix(prefix) } else { false }
                }
                #expect(warning != nil, "\(events.all)")
            }
        }

        @Test("A critical sound plays at its volume: half volume is libmpv's 50, an eighth of the amplitude")
        func criticalVolume() async throws {
            let out = try TestMedia.scratch().path + "/out.wav"
            try await withPlayer(output: .pcm(path: out)) { player, events, folders in
                let sound = UNNotificationSound.criticalSoundNamed("tone.wav", withAudioVolume: 0.5)
                #expect(arrive(player, "c", sound, level: .critical, focus: true) == .play)
                #expect(await events.end(of: "c") == .endOfFile)
                let tone = ArrivalSoundFolders.real(folders.sounds + "/tone.wav")
                #expect(events.all.first == .played(identifier: "c", sound: "tone.wav", path: tone, volume: 50))
            }
            // libmpv's volume curve is cubic: 50 is 0.5³ of the amplitude.
            let source = try WAVFile(contentsOf: TestMedia.path("tone-1s.wav")).peak()
            let captured = try WAVFile(contentsOf: out).peak()
            #expect(abs(captured / source - 0.125) < 0.01, "peak \(captured) from \(source)")
        }
    }
}
