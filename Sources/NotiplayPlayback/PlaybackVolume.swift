internal import Glibc  // cbrt

extension PlaybackOptions {
    /// The ``volume`` that renders `gain` times the decoded amplitude, for a volume given on a
    /// linear scale (0 silent, 1 as decoded, as `AVAudioPlayer.volume`): libmpv's volume curve is
    /// cubic, so this is 100 × ∛`gain`. Gains outside 0…1 are clamped, NaN is 1.
    public static func volume(forGain gain: Double) -> Double {
        let clamped = gain.isNaN ? 1 : min(max(gain, 0), 1)
        return 100 * cbrt(clamped)
    }
}
