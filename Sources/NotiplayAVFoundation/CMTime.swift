/// The numerator of a ``CMTime`` (Apple: CoreMedia's `CMTimeValue`).
public typealias CMTimeValue = Int64
/// The denominator of a ``CMTime``, in units per second (Apple: CoreMedia's `CMTimeScale`).
public typealias CMTimeScale = Int32
/// The epoch of a ``CMTime`` (Apple: CoreMedia's `CMTimeEpoch`).
public typealias CMTimeEpoch = Int64

/// What kind of time a ``CMTime`` is (Apple: CoreMedia's `CMTimeFlags`).
public struct CMTimeFlags: OptionSet, Sendable, Hashable {
    /// The flags as bits.
    public let rawValue: UInt32

    /// Flags from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The time is valid; without it, the time is ``CMTime/invalid``.
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    /// The value was rounded when the time was made or converted.
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    /// The time is positive infinity.
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    /// The time is negative infinity.
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    /// The time is unknown (an item's duration before it is known).
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    /// The flags that make a time other than a number.
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// A time as a rational number of seconds, `value / timescale` (Apple: CoreMedia's `CMTime`):
/// what ``AVPlayer/currentTime()``, ``AVPlayer/seek(to:)`` and ``AVPlayerItem/duration`` use.
///
/// ```swift
/// let time = CMTime(seconds: 1.5, preferredTimescale: 600)   // value 900, timescale 600
/// player.seek(to: CMTime(value: 3, timescale: 1))
/// let seconds = CMTimeGetSeconds(player.currentTime())
/// ```
///
/// Times compare and test equal by the instant they stand for (`1/2 == 2/4`), as
/// `CMTimeCompare` orders them: negative infinity, then numbers, ``indefinite``, positive
/// infinity, and ``invalid`` last.
public struct CMTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numerator: the time is `value / timescale` seconds.
    public var value: CMTimeValue
    /// Units per second: the denominator.
    public var timescale: CMTimeScale
    /// What kind of time it is.
    public var flags: CMTimeFlags
    /// Distinguishes times on the same timeline that wrapped around; usually 0.
    public var epoch: CMTimeEpoch

    /// A time from all its fields, as given.
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// `value / timescale` seconds; ``invalid`` when `timescale` is not positive.
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self.init(value: value, timescale: timescale, flags: timescale > 0 ? .valid : [], epoch: 0)
    }

    /// `seconds` in units of `1 / preferredTimescale` second, rounded to the nearest unit (and
    /// then flagged ``CMTimeFlags/hasBeenRounded``). NaN or a timescale that is not positive gives
    /// ``invalid``; infinities, and times too large for the timescale, give ``positiveInfinity``
    /// or ``negativeInfinity``.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        guard preferredTimescale > 0, !seconds.isNaN else {
            self = .invalid
            return
        }
        let exact = seconds * Double(preferredTimescale)
        let rounded = exact.rounded()
        // 2^63 is the first double outside Int64.
        guard rounded.isFinite, abs(rounded) < 9_223_372_036_854_775_808.0 else {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
            return
        }
        self.init(
            value: CMTimeValue(rounded), timescale: preferredTimescale,
            flags: rounded == exact ? .valid : [.valid, .hasBeenRounded], epoch: 0)
    }

    /// Zero seconds.
    public static let zero = CMTime(value: 0, timescale: 1)
    /// Not a time.
    public static let invalid = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
    /// A time not known yet (an item's ``AVPlayerItem/duration`` before the engine tells it).
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
    /// Positive infinity.
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    /// Negative infinity.
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

    /// Whether it is a time (Apple's `CMTIME_IS_VALID`).
    public var isValid: Bool { flags.contains(.valid) }
    /// Whether it is valid and unknown.
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    /// Whether it is valid positive infinity.
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    /// Whether it is valid negative infinity.
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Whether it is a number of seconds: valid, and neither indefinite nor infinite.
    public var isNumeric: Bool { isValid && flags.isDisjoint(with: .impliedValueFlagsMask) }

    /// The time in seconds: `value / timescale`; ±infinity for the infinities, NaN for an invalid
    /// or indefinite time.
    public var seconds: Double {
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        guard isNumeric, timescale > 0 else { return .nan }
        return Double(value) / Double(timescale)
    }

    /// `{value/timescale = seconds}`, or what the time is when it is not a number.
    public var description: String {
        if !isValid { return "{INVALID}" }
        if isIndefinite { return "{INDEFINITE}" }
        if isPositiveInfinity { return "{+INFINITY}" }
        if isNegativeInfinity { return "{-INFINITY}" }
        return "{\(value)/\(timescale) = \(seconds)\(flags.contains(.hasBeenRounded) ? ", rounded" : "")}"
    }
}
