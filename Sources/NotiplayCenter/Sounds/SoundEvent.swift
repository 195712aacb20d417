package import NotiplayPlayback

/// What happened to a notification's arrival sound, for the server's log and for scripts.
///
/// Every sound that is played (at once, or after waiting) gets exactly one ``ended(identifier:reason:)``;
/// ``played(identifier:sound:path:volume:)`` comes before it once the engine has the file.
package enum SoundEvent: Sendable, Equatable {
    /// The sound's file is playing.
    /// - Parameters:
    ///   - identifier: The notification's identifier.
    ///   - sound: The sound's name, `"default"` for the default sound.
    ///   - path: The file played (absolute, symbolic links resolved).
    ///   - volume: The volume on libmpv's scale, 0 to 100.
    case played(identifier: String, sound: String, path: String, volume: Double)
    /// The sound waits for the card's media to stop playing; `replaced` is the notification whose
    /// waiting sound it replaces (only the newest waits), if there was one.
    case queued(identifier: String, sound: String, replaced: String?)
    /// The sound is not played, for this reason.
    case silenced(identifier: String, reason: SoundSilenceReason)
    /// The sound stopped: it played to its end (`endOfFile`), a newer sound or the card's media
    /// cut it off (`stopped`), or libmpv could not play it (`failed`, after a warning).
    case ended(identifier: String, reason: EndReason)
    /// Something went wrong with the notification's sound; `message` is one sentence.
    case warning(identifier: String, message: String)
}
