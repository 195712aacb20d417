/// What the Preview's level meter shows while its clip plays: the loudest window of the audio
/// heard since the previous position report.
///
/// Positions come a few times a second — about twice a second for the sample's 8 kHz ringtone,
/// as libmpv moves `time-pos` in steps of about 0.24 s — while the envelope has a window every
/// 50 ms. Read at each reported position alone, the meter samples the clip as rarely as the
/// reports come, and a clip with a rhythm near theirs (the ringtone's beeps, every 0.5 s) can be
/// caught in its gaps at every report: "-∞ dB" for the whole playback. Taking the loudest window
/// between two reports shows every beep that was heard.
struct LevelMeter: Sendable, Equatable {
    /// The clip's envelope.
    let envelope: LevelEnvelope
    /// The level shown, from 0 (silence) to 1.
    private(set) var level = 0.0
    /// The position of the last report while playing; `nil` while not playing.
    private var heard: Double?

    /// A meter at rest over `envelope`.
    init(_ envelope: LevelEnvelope) {
        self.envelope = envelope
    }

    /// The longest move between two reports still taken as audio heard; a longer one (or one
    /// backwards) is a seek, and shows the level where it landed.
    static let longestStep = 1.0

    /// Playback started (or resumed) at `position`.
    mutating func started(at position: Double) {
        heard = position
        level = envelope.level(at: position)
    }

    /// A position report while playing: the loudest window heard since the last one.
    mutating func moved(to position: Double) {
        guard let from = heard else { return }
        heard = position
        if position > from, position - from <= Self.longestStep {
            level = envelope.loudest(from: from, through: position)
        } else {
            level = envelope.level(at: position)
        }
    }

    /// Playback paused, ended or failed: the meter rests.
    mutating func stopped() {
        heard = nil
        level = 0
    }
}
