import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `serve --headless` with keys a line at a time on its standard input, and `send --wait`.
extension CenterTests {
    @Test("Headless serve reads keys from stdin; send --wait prints the dismissal, a removal, and q ends the server with 0")
    func keysOnStandardInputAndWait() async throws {
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        }
        // The server's standard input: a FIFO this test holds open for reading and writing, so
        // opening it never waits and its end never comes before the test says.
        let fifo = scratch.appendingPathComponent("keys").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let keys = open(fifo, O_RDWR | O_CLOEXEC)
        try #require(keys >= 0)
        defer { close(keys) }
        func type(_ line: String) { _ = line.utf8CString.withUnsafeBufferPointer { write(keys, $0.baseAddress, line.utf8.count) } }

        let server = ChildProcess(
            "/bin/sh", ["-c", "exec \"$0\" serve --headless --events jsonl --audio null < \"$1\"", try E2E.binary(), fifo],
            environment: environment)
        try await server.start()
        /// Waits for the server's `count`-th event line with both texts in it.
        func untilServerSays(_ event: String, _ identifier: String, count: Int = 1) async -> Bool {
            await server.send(0, whenStdout: { output in
                String(decoding: output, as: UTF8.self).split(separator: "\n")
                    .filter { $0.contains("\"event\":\"\(event)\"") && $0.contains(identifier) }.count >= count
            }, timeout: 30) != nil
        }
        try #require(await untilServerSays("shown", "\"identifier\":null"), "the server did not start")

        let nag = ChildProcess(try E2E.binary(), ["send", E2E.media("nagme.apns"), "--id", "nag", "--wait"], environment: environment)
        try await nag.start()
        try #require(await untilServerSays("shown", "\"identifier\":\"nag\""), "nag was not shown")
        let memo = ChildProcess(try E2E.binary(), ["send", E2E.media("voice-memo.apns"), "--id", "memo", "--wait"], environment: environment)
        try await memo.start()
        // Newest on top: memo takes the screen from nag, on which no key was pressed.
        try #require(await untilServerSays("shown", "\"identifier\":\"memo\""), "memo was not shown")

        type("bogus\n")
        type("d\n")  // Dismisses memo: its sender prints the dismissal; nag shows again.
        let memoResult = try await memo.finish(timeout: 30)
        #expect(memoResult.status == 0, "\(memoResult)")
        #expect(memoResult.stdoutText == "{\"identifier\":\"memo\",\"action\":\"com.apple.UNNotificationDismissActionIdentifier\"}\n", "\(memoResult)")
        #expect(await untilServerSays("shown", "\"identifier\":\"nag\"", count: 2))

        let removed = try await notiplay("remove", "nag")
        #expect(removed.status == 0, "\(removed)")
        let nagResult = try await nag.finish(timeout: 30)
        #expect(nagResult.stdoutText == "{\"identifier\":\"nag\",\"action\":\"notiplay.removed\"}\n", "\(nagResult)")

        type("q\n")
        let result = try await server.finish(timeout: 30)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrText.contains("standard input: unknown key 'bogus'"), "\(result)")
        let history = try await notiplay("history")
        #expect(history.stdoutText == "memo  dismissed  notiplay  Voice memo from Sam\nnag  removed  notiplay  NagMe\n", "\(history)")
    }
}

/// The apps folder in the configuration directory, and the history's retention.
extension CenterTests {
    @Test("serve presents for every app file in $XDG_CONFIG_HOME/notiplay/apps (a broken one: 65, named); --keep-history keeps the newest ended")
    func appsFolderAndRetention() async throws {
        let apps = scratch.appendingPathComponent("config/notiplay/apps")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let broken = apps.appendingPathComponent("Broken.app.json")
        try Data("{\"name\": ".utf8).write(to: broken)
        let refused = try await notiplay("serve", "--headless", "--audio", "null")
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderrText.contains(broken.path), "\(refused)")
        try FileManager.default.removeItem(at: broken)
        try Data("{\"name\": \"Builds\", \"categories\": []}".utf8).write(to: apps.appendingPathComponent("Builds.app.json"))

        try await withServer(["--keep-history", "1"]) { _ in
            for id in ["one", "two", "three"] {
                let sent = try await notiplay("send", E2E.media("nagme.apns"), "--app", "Builds", "--id", id)
                #expect(sent.status == 0, "\(sent)")
            }
            let listed = try await notiplay("list")
            #expect(listed.stdoutText.split(separator: "\n").allSatisfy { $0.contains("  Builds  ") }, "\(listed)")
            for id in ["one", "two", "three"] {
                let removed = try await notiplay("remove", id)
                #expect(removed.status == 0, "\(removed)")
            }
            let history = try await notiplay("history")
            #expect(history.stdoutText == "three  removed  Builds  NagMe\n", "\(history)")
        }
    }
}

/// A server whose events nobody reads any more.
extension CenterTests {
    @Test("serve --headless keeps serving when the reader of its events goes away (no SIGPIPE death)")
    func readerGoesAway() async throws {
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        }
        // The server's standard output: a FIFO this test reads the first event from, then closes.
        let fifo = scratch.appendingPathComponent("events").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        let server = ChildProcess(
            "/bin/sh", ["-c", "exec \"$0\" serve --headless --events jsonl --audio null > \"$1\"", try E2E.binary(), fifo],
            environment: environment)
        try await server.start()
        var first: [UInt8] = []
        var byte: UInt8 = 0
        // Read without blocking a thread of the pool: a try every 5 ms, 30 s at most.
        for _ in 0..<6000 where first.last != UInt8(ascii: "\n") {
            if read(reader, &byte, 1) == 1 { first.append(byte) } else { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(String(decoding: first, as: UTF8.self).contains("\"event\":\"shown\""))
        close(reader)

        let sent = try await notiplay("send", E2E.media("nagme.apns"), "--id", "nag")
        #expect(sent.status == 0, "\(sent)")
        let listed = try await notiplay("list")
        #expect(listed.status == 0 && listed.stdoutText.hasPrefix("nag  delivered"), "\(listed)")
        server.send(SIGTERM)
        let result = try await server.finish(timeout: 30)
        #expect(result.status == 128 + SIGTERM, "\(result)")
    }

    @Test("Headless serve with /dev/zero as its input: says the input is not lines of keys and stops reading it, and serves on")
    func standardInputOfZeros() async throws {
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        }
        // Its diagnostics on standard output too, to wait for them as for events.
        let server = ChildProcess(
            "/bin/sh", ["-c", "exec \"$0\" serve --headless --events jsonl --audio null < /dev/zero 2>&1", try E2E.binary()],
            environment: environment)
        try await server.start()
        let said = await server.send(0, whenStdout: {
            String(decoding: $0, as: UTF8.self).contains("standard input: holds a NUL byte, so it is not lines of keys; it is no longer read")
        }, timeout: 30)
        #expect(said != nil, "\(String(decoding: server.stdoutSoFar, as: UTF8.self).prefix(2000))")
        let sent = try await notiplay("send", E2E.media("nagme.apns"), "--id", "nag")
        #expect(sent.status == 0, "\(sent)")
        server.send(SIGTERM)
        let result = try await server.finish(timeout: 30)
        #expect(result.status == 128 + SIGTERM, "\(result)")
    }
}
