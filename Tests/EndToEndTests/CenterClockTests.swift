import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The center's virtual clock through the real binary: `serve --clock virtual`, `send --after`
/// or `--at` with `--repeat`, `clock --advance`, and what the store keeps after.
@Suite("the center's virtual clock: long advances, the horizon, dates echoed", .tags(.endToEnd))
struct CenterClockTests {
    let scratch: URL
    let environment: [String: String]

    init() throws {
        scratch = try E2E.scratch()
        var environment = try E2E.centerEnvironment(scratch: scratch, runtimePrefix: "npk")
        // Server and clients read local dates in Berlin, whatever the machine's zone.
        environment["TZ"] = "Europe/Berlin"
        self.environment = environment
    }

    /// 2026-01-01T00:00 in Berlin, where the servers here start.
    static let start = Date(timeIntervalSince1970: 1_767_222_000)

    /// An ISO 8601 date a command printed (one line).
    static func date(_ text: String) -> Date? {
        try? Date(text.trimmingCharacters(in: .whitespacesAndNewlines), strategy: .iso8601)
    }

    func notiplay(_ arguments: String...) async throws -> RunResult {
        try await run(try E2E.binary(), arguments, environment: environment)
    }

    /// Runs `body` with `serve --headless --clock virtual --start 2026-01-01T00:00` (Berlin) that
    /// has shown its (empty) deck; then ends it with SIGTERM and waits for it to exit (143).
    func withVirtualServer(_ arguments: [String] = [], _ body: (ChildProcess) async throws -> Void) async throws {
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        }
        let server = ChildProcess(
            try E2E.binary(),
            ["serve", "--headless", "--events", "jsonl", "--audio", "null", "--clock", "virtual", "--start", "2026-01-01T00:00"]
                + arguments,
            environment: environment)
        try await server.start()
        let ready = await server.send(0, whenStdout: { String(decoding: $0, as: UTF8.self).contains("\"event\":\"shown\"") }, timeout: hangGuard)
        try #require(ready != nil, "the server did not start")
        do {
            try await body(server)
        } catch {
            server.send(SIGKILL)
            throw error
        }
        server.send(SIGTERM)
        // A hang guard, not a verdict: the server must end on SIGTERM, however long that takes here.
        let result = try await server.finish(timeout: hangGuard)
        #expect(result.status == 128 + SIGTERM, "\(result)")
    }

    @Test("clock --advance 365d on a 60 s repeat answers; the occurrences it skipped are one late delivery; SIGTERM ends the server")
    func yearOfMinutes() async throws {
        try await withVirtualServer(["--keep-history", "50"]) { server in
            let sent = try await notiplay("send", E2E.media("nagme.apns"), "--id", "m", "--after", "60s", "--repeat", "interval")
            #expect(sent.status == 0, "\(sent)")
            let advanced = try await notiplay("clock", "--advance", "365d")
            #expect(advanced.status == 0, "\(advanced)")
            // 2026-01-01T00:00 in Berlin, 365 days on.
            #expect(Self.date(advanced.stdoutText) == Self.start.addingTimeInterval(365 * 86_400), "\(advanced)")

            let history = try await notiplay("history", "--json", "--limit", "100000")
            let rows = try #require(try JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]], "\(history)")
            #expect(rows.count <= 52, "\(rows.count) rows of history")
            let delivered = rows.filter { $0["state"] as? String == "delivered" }
            #expect(delivered.count == 1, "\(delivered)")
            // Due long before it was delivered: late.
            let due = (delivered.first?["dueAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
            let at = (delivered.first?["deliveredAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
            #expect(due != nil && at != nil && at!.timeIntervalSince(due!) > 86_400, "\(delivered)")
            #expect(rows.filter { $0["state"] as? String == "pending" }.count == 1)

            let events = String(decoding: server.stdoutSoFar, as: UTF8.self)
            let fired = events.split(separator: "\n").filter { $0.contains("\"event\":\"fired\"") }
            #expect(fired.count <= 101 && fired.last?.contains("\"late\":true") == true, "\(fired.count) fired: \(fired.suffix(2))")
        }
    }

    @Test("A SIGTERM right after a long advance ends the server")
    func terminateAfterAdvance() async throws {
        try await withVirtualServer { _ in
            let sent = try await notiplay("send", E2E.media("nagme.apns"), "--id", "m", "--after", "60s", "--repeat", "interval")
            #expect(sent.status == 0, "\(sent)")
            let advanced = try await notiplay("clock", "--advance", "3650d")
            #expect(advanced.status == 0, "\(advanced)")
        }
    }

    /// The server's resident size (VmRSS), in KiB.
    static func residentKiB(_ server: ChildProcess) throws -> Int {
        let pid = try #require(server.processID)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    // Bytes, not time: glibc kept each freed 10 MiB libmpv buffer in the arena of the thread that
    // freed it (+31 to +41 MB over these 90 advances in a debug build; 0 to 2 MB since).
    @Test("100 advances that each fire twice and play the arrival sound: the server's memory stops growing after the first ten")
    func memoryThroughBursts() async throws {
        try await withVirtualServer { server in
            let sent = try await notiplay("send", E2E.media("nagme.apns"), "--id", "m", "--after", "60s", "--repeat", "interval")
            #expect(sent.status == 0, "\(sent)")
            var afterTen = 0
            for round in 1...100 {
                let advanced = try await notiplay("clock", "--advance", "2m")
                try #require(advanced.status == 0, "\(advanced)")
                if round == 10 { afterTen = try Self.residentKiB(server) }
            }
            let growth = try Self.residentKiB(server) - afterTen
            #expect(growth < 16 * 1024, "grew \(growth) KiB over 90 advances")
            let played = String(decoding: server.stdoutSoFar, as: UTF8.self).components(separatedBy: "\"outcome\":\"played\"")
            #expect(played.count > 10, "the arrival sound played \(played.count - 1) times")
        }
    }

    @Test("An absurd advance or trigger is refused (64) naming the horizon; the server's clock did not move")
    func horizon() async throws {
        try await withVirtualServer { _ in
            let advance = try await notiplay("clock", "--advance", "1000000000000000000s")
            #expect(advance.status == 64 && advance.stderrText.contains("3650 days"), "\(advance)")
            let after = try await notiplay("send", E2E.media("nagme.apns"), "--after", "1000000000000000000s")
            #expect(after.status == 64 && after.stderrText.contains("3650 days"), "\(after)")
            let far = try await notiplay("send", E2E.media("nagme.apns"), "--at", "2040-01-01T09:00")
            #expect(far.status == 65 && far.stderrText.contains("3650 days"), "\(far)")
            let clock = try await notiplay("clock")
            #expect(Self.date(clock.stdoutText) == Self.start, "\(clock)")
        }
    }

    @Test("send --at echoes the next date in the zone it was read in; monthly on the 31st skips to 31 March, 09:00")
    func echoAndMonthly() async throws {
        try await withVirtualServer { _ in
            let monthly = try await notiplay("send", E2E.media("nagme.apns"), "--id", "mo", "--at", "2026-01-31T09:00", "--repeat", "monthly")
            #expect(monthly.status == 0 && monthly.stdoutText == "pending mo 2026-01-31T09:00:00+01:00\n", "\(monthly)")
            let advanced = try await notiplay("clock", "--advance", "31d")
            #expect(advanced.status == 0, "\(advanced)")
            let list = try await notiplay("list", "--json")
            let rows = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]]
            let next = rows?.first { $0["state"] as? String == "pending" }?["date"] as? String
            let date = next.flatMap { try? Date($0, strategy: .iso8601) }
            // 31 March 09:00 in Berlin is 07:00 UTC (summer time).
            #expect(date == Date(timeIntervalSince1970: 1_774_940_400), "\(list)")
        }
    }
}
