import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension AttachTests {
    @Test("Ctrl-Z in a viewer gives the terminal back and stops its job; the center goes on; fg draws the card again")
    func suspendViewer() async throws {
        defer { cleanUp() }
        let server = try await startServer()
        #expect(try await notiplay("send", try payload("Kettle boiled"), "--id", "kettle").status == 0)
        let pane = try await attachPane("z", asJob: true)
        try await pane.expectScreen("the card did not show in the viewer") { $0.contains("Kettle boiled") }
        try await pane.keys("C-z")
        let states = try await stoppedJob(in: pane)
        #expect(states.stopped, "Ctrl-Z did not stop the viewer's job: \(states.text)")
        try await pane.expectScreen("the shell's screen is not back") { $0.contains("READY") }
        #expect(try await pane.value("#{alternate_on} #{mouse_sgr_flag}") == "0 0")

        // The center goes on while its viewer is stopped.
        let list = try await notiplay("list")
        #expect(list.status == 0 && list.stdoutText.contains("kettle"), "\(list)")

        try await pane.type("fg")
        try await pane.expectScreen("fg did not draw the card again") { $0.contains("Kettle boiled") && !$0.contains("READY") }
        #expect(try await pane.value("#{alternate_on}") == "1")
        try await pane.keys("q")
        try await expectRestored(pane, "z", exit: "0")
        server.send(SIGTERM)
        let ended = try await server.finish(timeout: 30)
        #expect(ended.status == 128 + SIGTERM, "\(ended)")
    }

    /// Whether every process of the pane's job (all but the shell, which leads the session) is
    /// stopped, and `ps`'s lines. Another process's state is asked for until it shows, for at
    /// most 30 s.
    func stoppedJob(in pane: TmuxPane) async throws -> (stopped: Bool, text: String) {
        let session = try await pane.value("#{pane_pid}")
        var text = ""
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            text = try await run("/bin/ps", ["-o", "stat=,comm=", "--sid", session], timeout: 5).stdoutText
            let job = text.split(separator: "\n").compactMap { line -> (Substring, Substring)? in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count == 2, !fields[0].contains("s") else { return nil }
                return (fields[0], fields[1])
            }
            if !job.isEmpty, job.contains(where: { $0.1 == "notiplay" }), job.allSatisfy({ $0.0.hasPrefix("T") }) {
                return (true, text)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return (false, text)
    }
}
