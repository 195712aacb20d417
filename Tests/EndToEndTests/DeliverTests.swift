import Foundation
import NotiplayTestSupport
import Testing

private func events(_ result: RunResult) throws -> [[String: Any]] {
    try result.stdoutText.split(separator: "\n").map {
        try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
}

@Suite("deliver --headless: the real binary with libmpv", .tags(.endToEnd))
struct DeliverTests {
    @Test("The default card plays the attachment to its end: events in order, the audio really rendered")
    func defaultCardPlaysToTheEnd() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let capture = scratch.appendingPathComponent("heard.wav").path
        let result = try await notiplay(
            "deliver", E2E.media("nagme.apns"), "--attach", E2E.media("chime.wav"), "--headless",
            "--keys", "space ~end q", "--events", "jsonl", "--audio", "pcm:\(capture)", "--untimed")
        #expect(result.status == 0, "\(result)")
        let lines = try events(result)
        let names = lines.compactMap { $0["event"] as? String }
        #expect(
            names == [
                "didReceive", "buttonState", "mediaPlay", "buttonState", "playback", "mediaPlayingStarted", "playback",
                "mediaPlayingPaused", "buttonState",
            ], "\(result)")
        #expect(lines.map { $0["t"] as? Double ?? -1 } == lines.map { $0["t"] as? Double ?? -1 }.sorted())
        #expect(lines.compactMap { $0["state"] as? String } == ["play", "pause", "started", "ended", "play"])
        let wav = try WAVFile(contentsOf: capture)
        #expect(abs(wav.seconds - 2.0) < 0.03, "heard \(wav.seconds) s")
    }

    @Test("A forwarded action runs the app file's command (relative to the app file) with the response in its environment; stdout stays JSON lines")
    func forwardedCommand() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let script = scratch.appendingPathComponent("on-action.sh")
        try "#!/bin/sh\necho \"noise on stdout\"\nprintf '%s|%s' \"$NOTIPLAY_ACTION\" \"$NOTIPLAY_CATEGORY\" > \"$(dirname \"$0\")/seen.txt\"\n"
            .write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let app = scratch.appendingPathComponent("app.json")
        try #"{"name": "Jingles", "categories": [{"identifier": "reminder", "actions": [{"identifier": "open", "title": "Open"}]}], "forwardedActions": {"command": ["./on-action.sh"]}}"#
            .write(to: app, atomically: true, encoding: .utf8)
        let result = try await notiplay(
            "deliver", E2E.media("nagme.apns"), "--app", app.path, "--headless", "--keys", "1", "--events", "jsonl", "--audio", "null")
        #expect(result.status == 0, "\(result)")
        let lines = try events(result)
        #expect(lines.compactMap { $0["event"] as? String }.suffix(3) == ["forwarded", "dismissed", "command"], "\(result)")
        #expect(try String(contentsOf: scratch.appendingPathComponent("seen.txt"), encoding: .utf8) == "open|reminder")
        #expect(result.stderrText.contains("noise on stdout"))
    }

    @Test("The built-in service extension fetches media-url and the default card plays it to the end")
    func serviceExtensionFetchesMedia() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let capture = scratch.appendingPathComponent("heard.wav").path
        var environment = E2E.childEnvironment
        environment["NOTIPLAY_CACHE_DIR"] = scratch.appendingPathComponent("cache").path
        let result = try await run(
            try E2E.binary(),
            ["deliver", E2E.media("voice-memo.apns"), "--headless", "--keys", "space ~end", "--events", "jsonl",
             "--audio", "pcm:\(capture)", "--untimed"], environment: environment)
        #expect(result.status == 0, "\(result)")
        let lines = try events(result)
        let service = try #require(lines.first, "\(result)")
        #expect(service["event"] as? String == "service" && service["outcome"] as? String == "modified", "\(result)")
        #expect(lines.contains { $0["event"] as? String == "playback" && $0["state"] as? String == "ended" }, "\(result)")
        let wav = try WAVFile(contentsOf: capture)
        #expect(abs(wav.seconds - 6.665) < 0.05, "heard \(wav.seconds) s")
    }

    @Test("Media that cannot be fetched: an error event, and the card shows without it")
    func serviceExtensionFailure() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let payload = scratch.appendingPathComponent("memo.apns")
        try #"{"aps": {"alert": {"title": "Memo", "body": "Listen"}, "mutable-content": 1}, "media-url": "file:///no/such/memo.m4a"}"#
            .write(to: payload, atomically: true, encoding: .utf8)
        var environment = E2E.childEnvironment
        environment["NOTIPLAY_CACHE_DIR"] = scratch.appendingPathComponent("cache").path
        let result = try await run(
            try E2E.binary(), ["deliver", payload.path, "--headless", "--keys", "space", "--events", "jsonl", "--audio", "null"],
            environment: environment)
        #expect(result.status == 0, "\(result)")
        let lines = try events(result)
        #expect(lines.contains { ($0["message"] as? String ?? "").contains("/no/such/memo.m4a") }, "\(result)")
        #expect(lines.contains { $0["event"] as? String == "didReceive" })
        #expect(lines.first { $0["event"] as? String == "buttonState" }?["state"] as? String == "none")
    }

    @Test("media-url outside the payload's folder is refused (one message, naming the payload and the key); --media-root allows that folder")
    func mediaRoot() async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let folder = scratch.appendingPathComponent("payload")
        let outside = scratch.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: E2E.media("chime.wav"), toPath: outside.appendingPathComponent("x.wav").path)
        let payload = folder.appendingPathComponent("memo.apns")
        try #"{"aps": {"alert": {"title": "Memo", "body": "Listen"}, "mutable-content": 1}, "media-url": "../outside/x.wav"}"#
            .write(to: payload, atomically: true, encoding: .utf8)
        var environment = E2E.childEnvironment
        environment["NOTIPLAY_CACHE_DIR"] = scratch.appendingPathComponent("cache").path
        let arguments = ["deliver", payload.path, "--headless", "--events", "jsonl", "--audio", "null"]

        let refused = try await run(try E2E.binary(), arguments, environment: environment)
        #expect(refused.status == 0, "\(refused)")
        let lines = try events(refused)
        #expect(lines.first { $0["event"] as? String == "service" }?["outcome"] as? String == "unchanged", "\(refused)")
        let messages = lines.compactMap { $0["message"] as? String }
        #expect(messages == [
            "\(payload.path): media-url \"../outside/x.wav\" is refused: local media must be a readable file inside the payload's folder or a media folder allowed; the notification is shown without it"
        ], "\(refused)")

        let allowed = try await run(try E2E.binary(), arguments + ["--media-root", outside.path], environment: environment)
        #expect(allowed.status == 0, "\(allowed)")
        #expect(try events(allowed).first { $0["event"] as? String == "service" }?["outcome"] as? String == "modified", "\(allowed)")

        let missingRoot = try await run(try E2E.binary(), arguments + ["--media-root", "/no/such/folder"], environment: environment)
        #expect(missingRoot.status == 66 && missingRoot.stderrText.contains("/no/such/folder: no such folder (--media-root)"), "\(missingRoot)")
        #expect(!missingRoot.stdoutText.contains("didReceive"), "nothing may be presented: \(missingRoot)")
    }

    @Test("Bad input before anything is presented", arguments: [
        (["deliver", "/no/such.apns", "--headless"], 66, "/no/such.apns: no such file"),
        (["deliver", "MEDIA/nagme.apns", "--headless", "--keys", "space jump"], 64, "unknown key 'jump'"),
        (["deliver", "MEDIA/nagme.apns", "--headless", "--attach", "MEDIA/README.md"], 65, "README.md: is not a recognised audio format"),
        (["deliver", "MEDIA/nagme.apns", "--headless", "--extensions", "/no/such/folder"], 66, "no such folder"),
        (["deliver", "MEDIA/nagme.apns", "--headless", "--app", "MEDIA/NagMe.app.json"], 65, "not a registered extension type"),
    ])
    func badInput(_ arguments: [String], _ status: Int32, _ message: String) async throws {
        let args = arguments.map { $0.replacingOccurrences(of: "MEDIA/", with: E2E.root.path + "/Media/") }
        let result = try await run(try E2E.binary(), args)
        #expect(result.status == status, "\(result)")
        #expect(result.stderrText.contains(message), "\(result)")
        #expect(!result.stdoutText.contains("didReceive"), "nothing may be presented: \(result)")
    }
}

extension RealTime {
    /// A pause in real time: when it happened, and that the audio stopped there.
    @Suite("deliver --headless: pausing in real time", .tags(.endToEnd))
    struct DeliverPauseTimeTests {
        /// Space, 600 ms, space (the pause), 3 s, q, on the 2 s chime in real time. On a 2-core
        /// machine with two busy loops beside it the pause lands 0.3–0.6 s in (start-up eats the
        /// rest). The bounds catch a pause that reports a position it did not pause at (0, or
        /// the start, below 0.1 s) or that takes effect late (past 1.4 s); the 3 s wait catches
        /// audio that plays on after the pause: it reaches its end (an `ended` event) before q.
        @Test("Pausing in real time: what is heard stops at the pause")
        func pauseStopsTheAudio() async throws {
            let scratch = try E2E.scratch()
            defer { E2E.remove(scratch) }
            let result = try await notiplay(
                "deliver", E2E.media("nagme.apns"), "--attach", E2E.media("chime.wav"), "--headless",
                "--keys", "space ~600ms space ~3s q", "--events", "jsonl", "--audio", "null")
            #expect(result.status == 0, "\(result)")
            let lines = try events(result)
            let paused = lines.first { $0["event"] as? String == "playback" && $0["state"] as? String == "paused" }
            let position = try #require(paused?["position"] as? Double, "\(result)")
            #expect(position > 0.1 && position < 1.4, "paused at \(position)")
            #expect(lines.contains { $0["event"] as? String == "mediaPause" })
            #expect(!lines.contains { $0["state"] as? String == "ended" }, "played on after the pause: \(result)")
        }
    }
}
