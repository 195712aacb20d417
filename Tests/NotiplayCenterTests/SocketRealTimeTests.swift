@testable import NotiplayCenter
import NotiplayTestSupport
import Testing
import NotiplayCenterClient

extension RealTime {
    /// What 1,000 silent connections cost the server: nothing while they say nothing, and no
    /// delay to a client beside them.
    @Suite struct SocketRealTimeTests {
        static func openSilentConnections(_ center: TestCenter, count: Int) async throws -> [RawConnection] {
            allowDescriptors(2 * count)
            var silent: [RawConnection] = []
            for _ in 0..<count { silent.append(try RawConnection(path: center.path)) }
            #expect(await center.log.wait { ActivityLog.acceptedCount($0) == count })
            return silent
        }

        /// Catches a loop whose cost grows with the connections it serves (a thread, a timer or
        /// a busy scan per connection), which slows every round trip: a round trip on this
        /// machine takes well under 1 ms alone. The median of 10 is judged, so one round trip
        /// that waited for a core (112 ms once, beside a hundred tests in parallel) does not
        /// decide; 100 ms holds on a loaded 2-core machine.
        @Test func aRoundTripTakesUnder100MillisecondsBeside1000SilentConnections() async throws {
            let center = try TestCenter()
            defer { center.finish() }
            let silent = try await Self.openSilentConnections(center, count: 1000)
            defer { for connection in silent { connection.close() } }
            let clock = ContinuousClock()
            var took: [Duration] = []
            for _ in 0..<10 {
                took.append(try await clock.measure {
                    let client = try await CenterClient.connect(to: center.path)
                    defer { client.close() }
                    _ = try await client.perform(PingOperation())
                })
            }
            let median = took.sorted()[took.count / 2]
            #expect(median < .milliseconds(100), "the median of 10 round trips took \(median) (all: \(took))")
        }

        /// Catches a poll loop that wakes on a timer (or for silent connections): in half a
        /// second of silence the server's thread does not wake at all.
        @Test func anIdleServerDoesNotWake() async throws {
            let center = try TestCenter()
            defer { center.finish() }
            let silent = try await Self.openSilentConnections(center, count: 1000)
            defer { for connection in silent { connection.close() } }
            let before = center.server.wakeCount
            try await Task.sleep(for: .milliseconds(500))
            #expect(center.server.wakeCount == before, "the server woke \(center.server.wakeCount - before) times while idle")
        }
    }
}
