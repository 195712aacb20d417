import Foundation
import NotiplayCore
import Testing

/// A tmux server of the test's own (its own socket), with one pane running a plain shell: keys
/// in, the screen out, as a person at a terminal would see it.
final class TmuxPane {
    let socket = "notiplay-test-\(UUID().uuidString.prefix(8))"
    let tmux: String

    /// Starts a `columns` × `rows` pane running `sh` with a plain prompt and a UTF-8 locale.
    init(columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws {
        tmux = try #require(E2E.which("tmux"), "tmux is needed for the terminal tests (apt-get install tmux)")
        var env = ["PS1": "$ ", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"]
        for (key, value) in environment { env[key] = value }
        let exports = env.map { "\($0.key)=\(E2E.shellQuoted($0.value))" }.joined(separator: " ")
        let shell = "env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=\(E2E.shellQuoted(NSHomeDirectory())) \(exports) sh"
        try command("-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", shell)
        try command("set-option", "-g", "status", "off")
    }

    deinit {
        _ = try? command("kill-server")
    }

    /// Runs `tmux -L SOCKET arguments` and returns its standard output.
    ///
    /// Through NotiplayCore's ChildProcess, not Foundation's `Process`: the tmux client waits for
    /// signals from its server, and a child of `Process` inherits the test thread's blocked
    /// signals (it then waits forever); the server also outlives the client and would hold pipes
    /// open, so output goes through a file.
    @discardableResult
    func command(_ arguments: String...) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { unlink(output) }
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        let tmux = self.tmux
        let socket = self.socket
        Task.detached {
            box.result = await NotiplayCore.ChildProcess.run(tmux, ["-L", socket] + arguments, stdout: .file(output), stderr: .file(output + ".err"))
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else {
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")): no answer in 10 s")
        }
        defer { unlink(output + ".err") }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard case .success(let termination)? = box.result, termination.succeeded else {
            let errors = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")): \(String(describing: box.result)) \(errors)")
        }
        return text
    }

    /// Types `text` and presses Enter.
    func type(_ text: String) throws {
        try command("send-keys", "-l", text)
        try command("send-keys", "Enter")
    }

    /// Sends tmux key names (`Space`, `q`, `C-c`, `Escape`).
    func keys(_ names: String...) throws {
        for name in names { try command("send-keys", name) }
    }

    /// The screen as text.
    func screen() throws -> String {
        try command("capture-pane", "-p")
    }

    /// The screen, or the error getting it: for failure messages.
    var screenNow: String {
        (try? screen()) ?? "(no screen)"
    }

    /// A tmux format value for the pane (`#{alternate_on}`, `#{cursor_flag}`).
    func value(_ format: String) throws -> String {
        try command("display-message", "-p", format).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the screen satisfies `predicate`; the screen, or `nil` after `timeout` seconds.
    /// The pane is an external process: polling its screen is the only way to observe it.
    func waitForScreen(timeout: Double = 10, _ predicate: (String) -> Bool) throws -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            let text = try screen()
            if predicate(text) { return text }
            usleep(20_000)
        }
        return nil
    }
}

private final class ResultBox: @unchecked Sendable {
    // Written once before the semaphore is signalled, read after.
    var result: Result<NotiplayCore.ChildProcess.Termination, NotiplayCore.ChildProcess.SpawnError>?
}

struct TmuxError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
