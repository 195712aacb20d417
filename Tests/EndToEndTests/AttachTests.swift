import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The center as a service: `serve --headless` keeps serving with nobody looking, and terminals
/// attach to it (`notiplay attach`, in tmux) to see its cards; `q` detaches, the center goes on.
@Suite("attach: terminals attach to a running center", .serialized, .tags(.endToEnd))
struct AttachTests {
    let scratch: URL
    let environment: [String: String]

    init() throws {
        scratch = try E2E.scratch()
        environment = try E2E.centerEnvironment(scratch: scratch, runtimePrefix: "npa")
    }

    /// The folders a pane's programs need to reach this test's center.
    var places: [String: String] {
        ["XDG_STATE_HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME"].reduce(into: [:]) { $0[$1] = environment[$1] }
    }

    func notiplay(_ arguments: String...) async throws -> RunResult {
        try await run(try E2E.binary(), arguments, environment: environment)
    }

    func cleanUp() {
        E2E.remove(scratch)
        try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
    }

    /// A headless server with arrival sounds on the null device, once its empty deck shows.
    func startServer() async throws -> ChildProcess {
        let server = ChildProcess(
            try E2E.binary(), ["serve", "--headless", "--events", "jsonl", "--audio", "null"], environment: environment)
        try await server.start()
        let ready = await server.send(0, whenStdout: { String(decoding: $0, as: UTF8.self).contains("\"event\":\"shown\"") }, timeout: 30)
        try #require(ready != nil, "the server did not start")
        return server
    }

    /// A payload file titled `title` that asks for the default arrival sound.
    func payload(_ title: String) throws -> String {
        let file = scratch.appendingPathComponent("\(UUID().uuidString.prefix(6)).apns")
        try #"{"aps":{"alert":{"title":"\#(title)","body":"from a program"},"sound":"default"}}"#
            .write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Waits for an event line of the server holding every one of `parts`.
    func waitForEvent(_ server: ChildProcess, _ parts: [String]) async -> Bool {
        await server.send(0, whenStdout: { data in
            String(decoding: data, as: UTF8.self).split(separator: "\n").contains { line in parts.allSatisfy { line.contains($0) } }
        }, timeout: 30) != nil
    }

    /// A pane whose shell has saved its terminal settings in `before-NAME` and runs `notiplay
    /// attach` (then says `EXIT=status` and saves them in `after-NAME`).
    func attachPane(_ name: String, extra: String = "") async throws -> TmuxPane {
        let pane = try await TmuxPane(columns: 80, rows: 24, environment: places)
        try await pane.type("stty -g > \(file("before-\(name)")); echo READY")
        try await pane.expectScreen("the shell did not answer") { $0.split(separator: "\n").contains(where: TerminalCardTests.isReadyLine) }
        try await pane.type("\(E2E.shellQuoted(try E2E.binary())) attach\(extra); echo \"EXIT=$?\"; stty -g > \(file("after-\(name)"))")
        return pane
    }

    func file(_ name: String) -> String { E2E.shellQuoted(scratch.appendingPathComponent(name).path) }

    /// The viewer ended with `EXIT=exit`, and its terminal is as it was: the main screen (the
    /// shell's lines), the cursor shown, mouse reporting off, the same settings.
    func expectRestored(_ pane: TmuxPane, _ name: String, exit: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let screen = try await pane.expectScreen("attach did not end", sourceLocation: sourceLocation) { TerminalCardTests.exitLine($0) != nil }
        let text = try #require(screen, sourceLocation: sourceLocation)
        #expect(TerminalCardTests.exitLine(text) == "EXIT=\(exit)", "\(text)", sourceLocation: sourceLocation)
        #expect(text.split(separator: "\n").contains(where: TerminalCardTests.isReadyLine), "the shell's screen is back: \(text)", sourceLocation: sourceLocation)
        #expect(try await pane.value("#{alternate_on} #{cursor_flag} #{mouse_sgr_flag} #{mouse_any_flag}") == "0 1 0 0", sourceLocation: sourceLocation)
        let after = scratch.appendingPathComponent("after-\(name)").path
        _ = try await pane.waitForScreen { _ in (try? String(contentsOfFile: after, encoding: .utf8))?.hasSuffix("\n") == true }
        let before = try String(contentsOf: scratch.appendingPathComponent("before-\(name)"), encoding: .utf8)
        #expect(before == (try? String(contentsOfFile: after, encoding: .utf8)), "termios restored", sourceLocation: sourceLocation)
    }

    @Test("With no viewer the server stores, plays the arrival sound and answers; a viewer attaching later shows the waiting card; q detaches and the server goes on")
    func attachLater() async throws {
        defer { cleanUp() }
        let server = try await startServer()
        let sent = try await notiplay("send", try payload("Kettle boiled"), "--id", "kettle")
        #expect(sent.status == 0, "\(sent)")
        #expect(await waitForEvent(server, ["\"event\":\"sound\"", "\"identifier\":\"kettle\"", "\"outcome\":\"played\""]), "no arrival sound: \(String(decoding: server.stdoutSoFar, as: UTF8.self))")

        let pane = try await attachPane("one")
        try await pane.expectScreen("the waiting card did not show in the viewer") { $0.contains("Kettle boiled") && $0.contains("from a program") }
        // Keys travel: ? lists them, any key closes the list.
        try await pane.keys("?")
        try await pane.expectScreen("? did not list the keys") { $0.contains("X          dismiss") }
        try await pane.keys("space")
        try await pane.expectScreen("a key did not close the list") { $0.contains("Kettle boiled") && !$0.contains("X          dismiss") }
        // A card sent while attached reaches the viewer: it waits under the card just touched when it
        // comes within the deck's hold after a key, else it shows at once with the other waiting (the
        // policy counts real time since the key, so a busy machine decides which); n swaps them.
        #expect(try await notiplay("send", try payload("Tea is ready"), "--id", "tea").status == 0)
        let titles = ["Kettle boiled", "Tea is ready"]
        let both = try await pane.expectScreen("the new card did not reach the viewer") { screen in
            titles.contains { waiting in screen.contains("· notiplay · \(waiting)") && titles.allSatisfy(screen.contains) }
        }
        let waiting = titles.first { both?.contains("· notiplay · \($0)") == true } ?? titles[1]
        let shown = titles.first { $0 != waiting }!
        try await pane.keys("n")
        try await pane.expectScreen("n did not show the next card") { $0.contains(waiting) && $0.contains("· notiplay · \(shown)") }
        try await pane.keys("q")
        try await expectRestored(pane, "one", exit: "0")

        // The server goes on: it answers send and list, and plays the next arrival sound.
        let again = try await notiplay("send", try payload("Bread is done"), "--id", "bread")
        #expect(again.status == 0, "\(again)")
        let list = try await notiplay("list")
        #expect(list.status == 0 && list.stdoutText.contains("bread") && list.stdoutText.contains("kettle"), "\(list)")
        #expect(await waitForEvent(server, ["\"event\":\"sound\"", "\"identifier\":\"bread\"", "\"outcome\":\"played\""]))
        server.send(SIGTERM)
        let ended = try await server.finish(timeout: 30)
        #expect(ended.status == 128 + SIGTERM, "\(ended)")
    }

    @Test("A second attach takes over: the first viewer is told so and exits 0, restored; the second follows the deck and its window's size; the center stopping lets it go, restored")
    func takeOver() async throws {
        defer { cleanUp() }
        let server = try await startServer()
        #expect(try await notiplay("send", try payload("Kettle boiled"), "--id", "kettle").status == 0)
        let first = try await attachPane("first")
        try await first.expectScreen("the first viewer did not show the card") { $0.contains("Kettle boiled") }
        let second = try await attachPane("second")
        try await second.expectScreen("the second viewer did not show the card") { $0.contains("Kettle boiled") }
        try await expectRestored(first, "first", exit: "0")
        #expect(try await first.screen().contains("detached: another terminal attached"))
        #expect(try await notiplay("send", try payload("Tea is ready"), "--id", "tea").status == 0)
        try await second.expectScreen("the second viewer did not follow the deck") { $0.contains("Tea is ready") }
        // The viewer's window changes size (SIGWINCH in the viewer): the card is drawn again at the new width.
        try await second.command("resize-window", "-x", "50", "-y", "20")
        try await second.expectScreen("the card was not drawn again 50 columns wide") { screen in
            // Its whole top edge, both corners, on 50 columns (a card drawn at 80 would be cut off without its ┐).
            screen.split(separator: "\n").contains { line in
                let edge = line.trimmingCharacters(in: .whitespaces)
                return edge.hasPrefix("┌") && edge.hasSuffix("┐") && edge.count == 50
            }
        }
        // The center stops under the viewer: it is told so, and its terminal is restored.
        server.send(SIGTERM)
        try await expectRestored(second, "second", exit: "0")
        #expect(try await second.screen().contains("the center stopped"))
        let ended = try await server.finish(timeout: 30)
        #expect(ended.status == 128 + SIGTERM, "\(ended)")
    }

    @Test("attach with no server starts one in the background; after q it still answers; stop stops it")
    func attachStartsServer() async throws {
        defer { cleanUp() }
        let pane = try await attachPane("solo", extra: " -- --audio null")
        do {
            try await pane.expectScreen("attach did not show the new center's empty deck") { $0.contains("no notifications") }
            #expect(try await notiplay("send", try payload("Kettle boiled"), "--id", "kettle").status == 0)
            try await pane.expectScreen("the card did not show") { $0.contains("Kettle boiled") }
            try await pane.keys("q")
            try await expectRestored(pane, "solo", exit: "0")
            let list = try await notiplay("list")
            #expect(list.status == 0 && list.stdoutText.contains("kettle"), "\(list)")
            let log = try String(contentsOf: scratch.appendingPathComponent("state/notiplay/server.log"), encoding: .utf8)
            #expect(log.contains("kettle"), "the center's events go to its log: \(log)")
        } catch {
            _ = try? await notiplay("stop")
            throw error
        }
        let stopped = try await notiplay("stop")
        #expect(stopped.status == 0, "\(stopped)")
        let gone = try await notiplay("list")
        #expect(gone.status == 69, "\(gone)")

        // Bare notiplay: in a terminal, attach (a center started again, its store kept); through pipes, the help and 64.
        // `clear` first: the EXIT line of the attach before is not this one's.
        try await pane.type("clear; echo READY; stty -g > \(file("before-bare")); \(E2E.shellQuoted(try E2E.binary())); echo \"EXIT=$?\"; stty -g > \(file("after-bare"))")
        do {
            try await pane.expectScreen("bare notiplay did not attach") { $0.contains("Kettle boiled") && !$0.contains("EXIT=") }
            try await pane.keys("q")
            try await expectRestored(pane, "bare", exit: "0")
        } catch {
            _ = try? await notiplay("stop")
            throw error
        }
        #expect(try await notiplay("stop").status == 0)
        let piped = try await notiplay()
        #expect(piped.status == 64 && piped.stderrText.contains("USAGE"), "\(piped)")
    }

    @Test("A viewer killed with SIGKILL leaves the server unharmed; garbage on the viewer socket is refused; a viewer sees the center vanish, restored")
    func robustness() async throws {
        defer { cleanUp() }
        let server = try await startServer()
        // `exec`: the pane's process is the viewer itself.
        let pane = try await TmuxPane(columns: 80, rows: 24, environment: places)
        try await pane.type("exec \(E2E.shellQuoted(try E2E.binary())) attach")
        try await pane.expectScreen("the viewer did not show the deck") { $0.contains("no notifications") }
        kill(try #require(Int32(try await pane.value("#{pane_pid}"))), SIGKILL)
        let list = try await notiplay("send", try payload("Kettle boiled"), "--id", "kettle")
        #expect(list.status == 0, "\(list)")
        #expect(try await notiplay("list").stdoutText.contains("kettle"))

        let runtime = environment["XDG_RUNTIME_DIR"]! + "/notiplay/viewer.sock"
        let serverPID = try #require(server.processID)
        let descriptors = openDescriptors(serverPID)
        for garbage in [Array("GET / HTTP/1.1\r\n\r\n".utf8), [0x02, 0, 0, 0, 1, 0x71], [0x01, 0xff, 0xff, 0xff, 0xff]] {
            let answer = try await onOwnThread { try Self.exchange(runtime, garbage) }
            #expect(answer.first == 0x82 && String(decoding: answer.dropFirst(5), as: UTF8.self).hasPrefix("refused: "), "\(answer)")
        }
        #expect(try await notiplay("list").stdoutText.contains("kettle"))
        // Every refused connection let go of what it held (its socket, its pipes).
        let settled = try await waitUntil { openDescriptors(serverPID) <= descriptors }
        #expect(settled, "the server holds \(openDescriptors(serverPID)) descriptors, \(descriptors) before")

        // SIGTERM to a viewer (as a closing terminal's SIGHUP): its terminal is restored, the center goes on.
        let terminated = try await attachPane("term")
        try await terminated.expectScreen("the viewer did not show the card") { $0.contains("Kettle boiled") }
        let shell = try #require(Int32(try await terminated.value("#{pane_pid}")))
        let viewerPID = try #require(children(of: shell).first, "the viewer's process")
        kill(viewerPID, SIGTERM)
        try await expectRestored(terminated, "term", exit: "143")
        #expect(try await notiplay("list").stdoutText.contains("kettle"))

        // The center vanishes under a viewer: the viewer's terminal is restored all the same.
        let viewer = try await attachPane("vanish")
        try await viewer.expectScreen("the viewer did not show the card") { $0.contains("Kettle boiled") }
        server.send(SIGKILL)
        try await expectRestored(viewer, "vanish", exit: "69")
        #expect(try await viewer.screen().contains("the center went away"))
        _ = try? await server.finish(timeout: 30)
    }

    @Test("The desktop's notification server with nobody attached answers notify-send; a viewer attaching later shows that card")
    func desktopWithoutViewer() async throws {
        defer { cleanUp() }
        try await withFreedesktop { fixture, server in
            let sent = try await fixture.notifySend("-p", "Build done", "all 312 tests passed")
            #expect(sent.status == 0 && sent.stdoutText == "1\n", "\(sent)")
            #expect(await server.untilEvent("shown", id: 1), "\(server.stdoutText)")
            let places = ["XDG_STATE_HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS"]
                .reduce(into: [String: String]()) { $0[$1] = fixture.environment[$1] }
            let pane = try await TmuxPane(columns: 80, rows: 24, environment: places)
            try await pane.type("\(E2E.shellQuoted(try E2E.binary())) attach; echo \"EXIT=$?\"")
            try await pane.expectScreen("the viewer did not show the desktop's card") { $0.contains("Build done") && $0.contains("all 312 tests passed") }
            try await pane.keys("q")
            let screen = try await pane.expectScreen("attach did not end") { TerminalCardTests.exitLine($0) != nil }
            #expect(TerminalCardTests.exitLine(screen ?? "") == "EXIT=0", "\(screen ?? "")")
            #expect(try await fixture.serverAnswers())
        }
    }

    @Test("attach to a serve that shows its cards in a pane of its own: says so, exits 69, restored; that serve is untouched")
    func paneServer() async throws {
        defer { cleanUp() }
        let owner = try await TmuxPane(columns: 80, rows: 24, environment: places)
        try await owner.type("\(E2E.shellQuoted(try E2E.binary())) serve --audio null")
        try await owner.expectScreen("serve did not show its empty deck") { $0.contains("no notifications") }
        let pane = try await attachPane("refused")
        let screen = try await pane.expectScreen("attach did not end") { TerminalCardTests.exitLine($0) != nil }
        #expect(TerminalCardTests.exitLine(screen ?? "") == "EXIT=69", "\(screen ?? "")")
        let said = try await pane.transcript()  // wrapped lines joined
        #expect(said.contains("shows its cards in a terminal of its own (serve)"), "\(said)")
        #expect(try await pane.value("#{alternate_on}") == "0")
        #expect(try await notiplay("send", try payload("Kettle boiled"), "--id", "kettle").status == 0)
        try await owner.expectScreen("the pane's serve did not show the card") { $0.contains("Kettle boiled") }
        try await owner.keys("q")
        _ = try await owner.waitForScreen { !$0.contains("Kettle boiled") }
    }

    /// Waits until `condition` holds (the server's descriptors are outside: looking is the only
    /// way to see them go); false after 30 s, a hang guard only.
    private func waitUntil(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// How many descriptors process `pid` has open.
    private func openDescriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// The processes whose parent is `pid`.
    private func children(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Runs blocking `body` on a thread of its own: a blocked thread of the two-thread pool would
    /// starve every other test.
    private func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// Connects to the Unix socket at `path`, sends `bytes`, and reads until the server closes.
    private static func exchange(_ path: String, _ bytes: [UInt8]) throws -> [UInt8] {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(connected == 0, "connect: \(errno)")
        var timeout = timeval(tv_sec: 30, tv_usec: 0)  // a hang guard only
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return answer
    }
}
