import NotiplayCenter
import NotiplayCore
import Testing

/// The arrival-sound policy as a table: every interruption level, Focus on and off, the card's
/// media playing or not.
struct SoundPolicyTests {
    typealias Level = UNNotificationInterruptionLevel

    /// (level, focus, media playing) → the decision for the default sound.
    @Test(
        "Passive is never heard; Focus passes time-sensitive and critical; playing media makes a sound wait",
        arguments: [
            (Level.passive, false, false, SoundDecision.silenced(.passive)),
            (.passive, false, true, .silenced(.passive)),
            (.passive, true, false, .silenced(.passive)),
            (.passive, true, true, .silenced(.passive)),
            (.active, false, false, .play),
            (.active, false, true, .queue),
            (.active, true, false, .silenced(.focus)),
            (.active, true, true, .silenced(.focus)),
            (.timeSensitive, false, false, .play),
            (.timeSensitive, false, true, .queue),
            (.timeSensitive, true, false, .play),
            (.timeSensitive, true, true, .queue),
            (.critical, false, false, .play),
            (.critical, false, true, .queue),
            (.critical, true, false, .play),
            (.critical, true, true, .queue),
        ])
    func table(level: Level, focus: Bool, mediaPlaying: Bool, expected: SoundDecision) {
        #expect(SoundPolicy.decide(level: level, sound: .default, focus: focus, mediaPlaying: mediaPlaying) == expected)
        // A named sound is judged the same way.
        let named = UNNotificationSound(named: "ding.caf")
        #expect(SoundPolicy.decide(level: level, sound: named, focus: focus, mediaPlaying: mediaPlaying) == expected)
    }

    @Test("No sound is no sound, whatever the level, Focus and media", arguments: Level.allCases)
    func noSound(level: Level) {
        for focus in [false, true] {
            for mediaPlaying in [false, true] {
                #expect(SoundPolicy.decide(level: level, sound: nil, focus: focus, mediaPlaying: mediaPlaying) == .noSound)
            }
        }
    }

    @Test("A critical sound breaks through Focus at any level but passive; it still waits for playing media")
    func criticalSound() {
        let critical = UNNotificationSound.criticalSoundNamed("alarm.caf", withAudioVolume: 0.5)
        #expect(SoundPolicy.decide(level: .active, sound: critical, focus: true, mediaPlaying: false) == .play)
        #expect(SoundPolicy.decide(level: .active, sound: .defaultCritical, focus: true, mediaPlaying: false) == .play)
        #expect(SoundPolicy.decide(level: .active, sound: critical, focus: true, mediaPlaying: true) == .queue)
        for focus in [false, true] {
            let decision = SoundPolicy.decide(level: .passive, sound: critical, focus: focus, mediaPlaying: false)
            #expect(decision == .silenced(.passive))
        }
    }

    @Test(
        "Media may start by itself unless passive; with Focus on only when time-sensitive or critical",
        arguments: [
            (Level.passive, false, false), (.passive, true, false),
            (.active, false, true), (.active, true, false),
            (.timeSensitive, false, true), (.timeSensitive, true, true),
            (.critical, false, true), (.critical, true, true),
        ])
    func autoPlay(level: Level, focus: Bool, expected: Bool) {
        #expect(SoundPolicy.mayAutoPlayMedia(level: level, focus: focus) == expected)
    }
}
