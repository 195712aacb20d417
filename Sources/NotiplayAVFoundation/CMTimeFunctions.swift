// CoreMedia's C functions on times, under their names, for code that calls them.

/// `value / timescale` seconds (Apple: `CMTimeMake`); ``CMTime/invalid`` when `timescale` is not
/// positive.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime {
    CMTime(value: value, timescale: timescale)
}

/// `seconds` in units of `1 / preferredTimescale` second (Apple: `CMTimeMakeWithSeconds`), as
/// ``CMTime/init(seconds:preferredTimescale:)``.
public func CMTimeMakeWithSeconds(_ seconds: Double, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

/// The time in seconds (Apple: `CMTimeGetSeconds`), as ``CMTime/seconds``.
public func CMTimeGetSeconds(_ time: CMTime) -> Double {
    time.seconds
}

/// -1, 0 or 1 as `time1` is before, at or after `time2` (Apple: `CMTimeCompare`), in the order
/// ``CMTime`` compares by.
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    CMTime.compare(time1, time2)
}

/// The sum of two times (Apple: `CMTimeAdd`), as ``CMTime/+(_:_:)``.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    lhs + rhs
}

/// The difference of two times (Apple: `CMTimeSubtract`), as ``CMTime/-(_:_:)``.
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    lhs - rhs
}
