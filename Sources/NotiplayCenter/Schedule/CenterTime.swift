#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import Synchronization

/// The center's time: the system's, or a virtual one that only moves when told (`serve --clock
/// virtual`, a script's `advance`), so that a test of a 30-second or a next-Tuesday trigger is
/// exact and takes no time. The store reads it too, so the history's dates are on it.
package final class CenterTime: Sendable {
    private let virtualNow: Mutex<Date>?

    /// The system's time.
    package static let system = CenterTime(virtual: nil)

    /// A virtual time starting at `start`.
    package static func virtual(startingAt start: Date) -> CenterTime {
        CenterTime(virtual: start)
    }

    private init(virtual start: Date?) {
        virtualNow = start.map { Mutex($0) }
    }

    /// Whether it is virtual.
    package var isVirtual: Bool { virtualNow != nil }

    /// Now.
    package var now: Date {
        virtualNow?.withLock { $0 } ?? Date()
    }

    /// Sets a virtual time to `date` (never backwards); the system's time cannot be set.
    package func move(to date: Date) {
        virtualNow?.withLock { now in now = max(now, date) }
    }
}
