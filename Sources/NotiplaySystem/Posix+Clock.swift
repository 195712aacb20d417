@preconcurrency internal import Glibc  // clock_gettime, localtime_r

/// The system's clocks and the local time zone, as the C library knows them.
extension Posix {
    /// `CLOCK_MONOTONIC` (`clock_gettime(2)`), in nanoseconds from an arbitrary fixed origin:
    /// it never goes back and does not count time the machine was suspended.
    package static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// The local time zone's offset from UTC at `seconds` since 1970 (`localtime_r(3)`,
    /// `tm_gmtoff`), in seconds east; `nil` when the C library cannot tell.
    package static func localTimeOffset(at seconds: Int) -> Int? {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return nil }
        return Int(parts.tm_gmtoff)
    }

    /// Sleeps this thread for `duration` (`nanosleep(2)`, resumed after a signal).
    package static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&request, &left) == -1 && errno == EINTR { request = left }
    }
}
