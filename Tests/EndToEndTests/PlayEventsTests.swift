import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("play --events jsonl")
struct PlayEventsTests {
    @Test(
        "Events are JSON lines with a monotonic t, playback started then ended (eof)",
        arguments: ChimeFormat.all.map(\.file))
    func eventStream(file: String) async throws {
        let result = try await notiplay("play", E2E.media(file), "--audio", "null", "--untimed", "--events", "jsonl")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "a good file plays without a word on stderr: \(result)")

        let events = eventLines(result.stdoutText)
        #expect(!events.isEmpty, "no events: \(result)")
        let times = events.compactMap { ($0["t"] as? NSNumber)?.doubleValue }
        for (a, b) in zip(times, times.dropFirst()) {
            #expect(a <= b, "t went back from \(a) to \(b): \(result.stdoutText)")
        }
        #expect(times.allSatisfy { $0 >= 0 }, "negative t: \(times)")

        let playback = events.filter { $0["event"] as? String == "playback" }
        let started = playback.firstIndex { $0["state"] as? String == "started" }
        let ended = playback.firstIndex { $0["state"] as? String == "ended" }
        let start = try #require(started, "no playback started event: \(result.stdoutText)")
        let end = try #require(ended, "no playback ended event: \(result.stdoutText)")
        #expect(start < end, "ended came before started: \(result.stdoutText)")
        #expect(playback[end]["reason"] as? String == "eof", "\(playback[end])")
        #expect(!playback.contains { $0["state"] as? String == "error" }, "\(result.stdoutText)")
        #expect(!events.contains { $0["event"] as? String == "error" }, "\(result.stdoutText)")
    }

    @Test("SIGINT during real-time play ends within 1 s with status 130 and a stopped event")
    func interrupt() async throws {
        try await E2E.withChildSlot {
            let child = ChildProcess(
                try E2E.binary(), ["play", E2E.media("chime.wav"), "--audio", "null", "--events", "jsonl"])
            try child.start()
            let sent = await child.send(SIGINT, whenStdout: { data in
                String(decoding: data, as: UTF8.self).split(separator: "\n").contains { line in
                    line.contains("\"playback\"") && line.contains("\"started\"")
                }
            }, timeout: 10)
            guard let signalled = sent else {
                child.send(SIGKILL)
                let result = try await child.finish(timeout: 5)
                Issue.record("no playback started event before the deadline: \(result)")
                return
            }
            try await check(child, signalled: signalled)
        }
    }

    private func check(_ child: ChildProcess, signalled: ContinuousClock.Instant) async throws {
        let result = try await child.finish(timeout: 5)
        let exitAfter = seconds(from: signalled, to: try #require(child.endedAt))

        #expect(result.status == 130 && !result.signaled, "\(result)")
        #expect(exitAfter <= 1.0, "exited \(exitAfter) s after SIGINT")
        let events = eventLines(result.stdoutText)
        let last = try #require(events.last, "no events: \(result)")
        #expect(last["event"] as? String == "playback", "last line: \(last)")
        #expect(last["state"] as? String == "ended", "last line: \(last)")
        #expect(last["reason"] as? String == "stopped", "last line: \(last)")
    }
}
