/// Monotonic seconds since a fixed origin: the `t` of every event line.
public struct EventClock: Sendable {
    private let origin: ContinuousClock.Instant

    /// Starts a clock at the present instant.
    public init() { origin = ContinuousClock.now }

    /// Seconds elapsed since the clock started; never decreases.
    public func seconds() -> Double {
        let d = ContinuousClock.now - origin
        let (s, atto) = d.components
        return Double(s) + Double(atto) / 1e18
    }
}
