import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("play --events jsonl", .tags(.endToEnd))
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

    @Test("SIGINT during real-time play: status 130 and a stopped event last")
    func interrupt() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        // A minute long: the signal comes long before the end, however busy the machine.
        let file = try E2E.tone(seconds: 60, in: scratch)
        let (_, result, _) = try #require(try await interruptWhenStarted(file))
        #expect(result.status == 130 && !result.signaled, "\(result)")
        let events = eventLines(result.stdoutText)
        let last = try #require(events.last, "no events: \(result)")
        #expect(last["event"] as? String == "playback", "last line: \(last)")
        #expect(last["state"] as? String == "ended", "last line: \(last)")
        #expect(last["reason"] as? String == "stopped", "last line: \(last)")
    }

    /// A 20 s file cut to 1 s of audio once it plays (in real time): it used to end at
    /// `position` 20, `reason` `eof`, exit 0. The truncation comes right after the `started`
    /// line (SIGCONT, which a running process ignores, is sent from the task reading the output
    /// as soon as that line is out); libmpv reads only a little ahead of what plays.
    @Test("A file cut short while it plays: ended where its audio stopped, reason truncated, and 65")
    func cutWhilePlaying() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let file = scratch.appendingPathComponent("cut.wav").path
        try TestMedia.writeTone(to: file, seconds: 20, sampleRate: 48_000, channels: 2)
        let result: RunResult? = try await E2E.withChildSlot {
            let child = ChildProcess(try E2E.binary(), ["play", file, "--audio", "null", "--events", "jsonl"])
            try await child.start()
            let started = await child.send(SIGCONT, whenStdout: { data in
                String(decoding: data, as: UTF8.self).contains(#""state":"started""#)
            }, timeout: 30)
            if started != nil { #expect(truncate(file, 44 + 48_000 * 4) == 0) } else { child.send(SIGKILL) }
            return try await child.finish(timeout: 30)
        }
        let run = try #require(result)
        #expect(run.status == 65 && !run.signaled, "\(run)")
        let ended = try #require(eventLines(run.stdoutText).last, "\(run)")
        #expect(ended["state"] as? String == "ended" && ended["reason"] as? String == "truncated", "\(ended)")
        let position = try #require((ended["position"] as? NSNumber)?.doubleValue)
        #expect(position < 19, "\(ended)")
        #expect(run.stderrText.hasPrefix("notiplay: \(file): was cut short while it played: its audio ended at 0:0"), "\(run)")
        #expect(run.stderrText.hasSuffix(", not at its end (0:20.0)\n"), "\(run)")
    }
}

/// Plays `file` in real time with `--events jsonl` and sends SIGINT once the playback started
/// event is out; the child, its result and when the signal was sent, or `nil` (an issue recorded)
/// when it never started.
func interruptWhenStarted(
    _ file: String, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (ChildProcess, RunResult, ContinuousClock.Instant)? {
    try await E2E.withChildSlot {
        let child = ChildProcess(try E2E.binary(), ["play", file, "--audio", "null", "--events", "jsonl"])
        try await child.start()
        let sent = await child.send(SIGINT, whenStdout: { data in
            String(decoding: data, as: UTF8.self).split(separator: "\n").contains { line in
                line.contains("\"playback\"") && line.contains("\"started\"")
            }
        }, timeout: 30)
        guard let signalled = sent else {
            child.send(SIGKILL)
            let result = try await child.finish(timeout: 30)
            Issue.record("no playback started event before the deadline: \(result)", sourceLocation: sourceLocation)
            return nil
        }
        return (child, try await child.finish(timeout: 30), signalled)
    }
}

extension RealTime {
    /// How soon SIGINT ends a real-time play, measured in real time.
    @Suite("play --events jsonl: SIGINT in real time", .tags(.endToEnd))
    struct PlayInterruptTimeTests {
        /// 3 s from the signal to the end, on a 2-core machine with two busy loops beside it
        /// (it takes well under 1 s then). The bound catches an interrupt acted on late: a stop
        /// that waits for the next position update or a timeout of seconds, a shutdown that
        /// lingers, or the minute-long tone played on to its end.
        static let bound = 3.0

        @Test("SIGINT during real-time play ends within 3 s with status 130 and a stopped event")
        func interruptQuickly() async throws {
            let scratch = try E2E.scratch()
            defer { E2E.remove(scratch) }
            let file = try E2E.tone(seconds: 60, in: scratch)
            let (child, result, signalled) = try #require(try await interruptWhenStarted(file))
            let exitAfter = seconds(from: signalled, to: try #require(child.endedAt))
            #expect(result.status == 130 && !result.signaled, "\(result)")
            #expect(exitAfter <= Self.bound, "exited \(exitAfter) s after SIGINT")
            let last = eventLines(result.stdoutText).last
            #expect(last?["reason"] as? String == "stopped", "last line: \(String(describing: last))")
        }
    }
}
