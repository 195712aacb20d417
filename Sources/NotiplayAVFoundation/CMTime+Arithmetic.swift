extension CMTime {
    /// The largest timescale a sum or difference gets (Apple: `kCMTimeMaxTimescale`).
    static let maxTimescale: CMTimeScale = 1_000_000_000

    /// Where a time sorts among the kinds of time, before its value counts.
    private var rank: Int {
        if !isValid { return 4 }
        if isPositiveInfinity { return 3 }
        if isIndefinite { return 2 }
        if isNegativeInfinity { return 0 }
        return 1
    }

    /// -1, 0 or 1 as `lhs` is before, at or after `rhs` (Apple: `CMTimeCompare`). Numbers of
    /// different epochs compare by epoch; of the same epoch, exactly, whatever their timescales.
    static func compare(_ lhs: CMTime, _ rhs: CMTime) -> Int32 {
        let (left, right) = (lhs.rank, rhs.rank)
        if left != right { return left < right ? -1 : 1 }
        guard left == 1 else { return 0 }
        if lhs.epoch != rhs.epoch { return lhs.epoch < rhs.epoch ? -1 : 1 }
        // a/b against c/d with b, d > 0: a·d against c·b, in 128 bits.
        let a = lhs.value.multipliedFullWidth(by: CMTimeValue(rhs.timescale))
        let c = rhs.value.multipliedFullWidth(by: CMTimeValue(lhs.timescale))
        if a.high != c.high { return a.high < c.high ? -1 : 1 }
        if a.low != c.low { return a.low < c.low ? -1 : 1 }
        return 0
    }

    /// Whether the two stand for the same instant (`1/2 == 2/4`), or are the same kind of time
    /// that is not a number.
    public static func == (lhs: CMTime, rhs: CMTime) -> Bool { compare(lhs, rhs) == 0 }

    /// Whether `lhs` comes before `rhs`, in `CMTimeCompare`'s order.
    public static func < (lhs: CMTime, rhs: CMTime) -> Bool { compare(lhs, rhs) < 0 }

    /// Hashes the instant: equal times hash alike, whatever their timescales.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rank)
        guard rank == 1 else { return }
        var (a, b) = (value.magnitude, UInt64(timescale.magnitude))
        while b != 0 { (a, b) = (b, a % b) }
        let divisor = CMTimeValue(a == 0 ? 1 : a)
        hasher.combine(epoch)
        hasher.combine(value / divisor)
        hasher.combine(CMTimeValue(timescale) / divisor)
    }

    /// The sum (Apple: `CMTimeAdd`): with one timescale, kept; with two, their least common
    /// multiple, or ``maxTimescale`` (rounded) when that is larger. An invalid operand, or
    /// +∞ plus −∞, gives ``invalid``; otherwise an infinity wins, then ``indefinite``.
    public static func + (lhs: CMTime, rhs: CMTime) -> CMTime {
        combine(lhs, rhs, negatingRight: false)
    }

    /// The difference (Apple: `CMTimeSubtract`), by the rules of ``+(_:_:)``.
    public static func - (lhs: CMTime, rhs: CMTime) -> CMTime {
        combine(lhs, rhs, negatingRight: true)
    }

    private static func combine(_ lhs: CMTime, _ rhs: CMTime, negatingRight: Bool) -> CMTime {
        guard lhs.isValid, rhs.isValid else { return .invalid }
        let rightUp = negatingRight ? rhs.isNegativeInfinity : rhs.isPositiveInfinity
        let rightDown = negatingRight ? rhs.isPositiveInfinity : rhs.isNegativeInfinity
        let up = lhs.isPositiveInfinity || rightUp
        let down = lhs.isNegativeInfinity || rightDown
        if up && down { return .invalid }
        if up { return .positiveInfinity }
        if down { return .negativeInfinity }
        if lhs.isIndefinite || rhs.isIndefinite { return .indefinite }
        guard lhs.timescale > 0, rhs.timescale > 0 else { return .invalid }
        let scale = commonTimescale(lhs.timescale, rhs.timescale)
        let left = lhs.value.multipliedReportingOverflow(by: CMTimeValue(scale / lhs.timescale))
        let right = rhs.value.multipliedReportingOverflow(by: CMTimeValue(scale / rhs.timescale))
        let exactScale = scale % lhs.timescale == 0 && scale % rhs.timescale == 0
        if exactScale, !left.overflow, !right.overflow {
            let result =
                negatingRight
                ? left.partialValue.subtractingReportingOverflow(right.partialValue)
                : left.partialValue.addingReportingOverflow(right.partialValue)
            if !result.overflow {
                var flags: CMTimeFlags = .valid
                if lhs.flags.contains(.hasBeenRounded) || rhs.flags.contains(.hasBeenRounded) {
                    flags.insert(.hasBeenRounded)
                }
                return CMTime(value: result.partialValue, timescale: scale, flags: flags, epoch: lhs.epoch)
            }
        }
        // Timescales without a common multiple in range, or values too large: by seconds.
        let seconds = negatingRight ? lhs.seconds - rhs.seconds : lhs.seconds + rhs.seconds
        var time = CMTime(seconds: seconds, preferredTimescale: scale)
        if time.isNumeric { time.flags.insert(.hasBeenRounded) }
        return time
    }

    /// The least common multiple of two positive timescales, or ``maxTimescale`` when larger.
    private static func commonTimescale(_ a: CMTimeScale, _ b: CMTimeScale) -> CMTimeScale {
        if a == b { return a }
        var (x, y) = (Int64(a), Int64(b))
        while y != 0 { (x, y) = (y, x % y) }
        let multiple = Int64(a) / x * Int64(b)
        return multiple > Int64(maxTimescale) ? maxTimescale : CMTimeScale(multiple)
    }
}
