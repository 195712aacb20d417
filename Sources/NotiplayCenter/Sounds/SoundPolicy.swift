package import NotiplayCore

/// Why an arrival sound was not played.
package enum SoundSilenceReason: String, Sendable, Hashable {
    /// The notification is `passive`: added quietly, never with a sound.
    case passive
    /// Focus is on and the notification neither is time-sensitive or critical nor has a
    /// critical sound.
    case focus
    /// A configuration rule silences it (`silence = yes`).
    case rule
}

/// What to do with a notification's arrival sound, as ``SoundPolicy/decide(level:sound:focus:mediaPlaying:)``
/// says.
package enum SoundDecision: Sendable, Hashable {
    /// The notification has no sound (`content.sound == nil`).
    case noSound
    /// It has one, and it is not played.
    case silenced(SoundSilenceReason)
    /// It waits until the card's media stops playing (a newer waiting sound replaces it).
    case queue
    /// It plays now.
    case play
}

/// When a notification may make a sound, or start its media by itself, as iOS decides it with
/// its default Focus settings. Pure functions of their inputs.
///
/// The order of the rules:
/// 1. no sound → ``SoundDecision/noSound``;
/// 2. a configuration rule's `silence = yes` → silenced, always;
/// 3. `passive` → silenced, always, even with a critical sound (passive is never heard);
/// 4. Focus on → silenced, unless the level is `timeSensitive` or `critical`, or the sound is
///    critical (`isCritical`), which break through;
/// 5. the card's media playing → ``SoundDecision/queue``: an arrival sound never cuts the media
///    button's audio off and never mixes over it; it plays once the media pauses or ends;
/// 6. else ``SoundDecision/play``.
package enum SoundPolicy {
    /// What to do with a notification's sound.
    /// - Parameters:
    ///   - level: The notification's interruption level.
    ///   - sound: Its sound (`content.sound`); `nil` is none.
    ///   - focus: Whether Focus (do not disturb) is on.
    ///   - mediaPlaying: Whether the card's media is playing now.
    ///   - silencedByRule: Whether a configuration rule silences it.
    package static func decide(
        level: UNNotificationInterruptionLevel, sound: UNNotificationSound?, focus: Bool, mediaPlaying: Bool,
        silencedByRule: Bool = false
    ) -> SoundDecision {
        guard let sound else { return .noSound }
        if silencedByRule { return .silenced(.rule) }
        if level == .passive { return .silenced(.passive) }
        if focus, !breaksThroughFocus(level), !sound.isCritical { return .silenced(.focus) }
        return mediaPlaying ? .queue : .play
    }

    /// Whether a notification may start its media by itself (for the desktop bridge): not when it
    /// is `passive` (it is never heard), and with Focus on only when it is `timeSensitive` or
    /// `critical`.
    package static func mayAutoPlayMedia(level: UNNotificationInterruptionLevel, focus: Bool) -> Bool {
        if level == .passive { return false }
        return !focus || breaksThroughFocus(level)
    }

    /// The levels iOS's Focus lets through by default.
    private static func breaksThroughFocus(_ level: UNNotificationInterruptionLevel) -> Bool {
        level == .timeSensitive || level == .critical
    }
}
