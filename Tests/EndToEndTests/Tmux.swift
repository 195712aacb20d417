import Foundation
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
        try command(
            "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)",
            "env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=\(E2E.shellQuoted(NSHomeDirectory())) \(exports) sh")
        try command("set-option", "-g", "status", "off")
    }

    deinit {
        _ = try? command("kill-server")
    }

    @discardableResult
    func command(_ arguments: String...) throws -> String {
        let result = try run(tmux, ["-L", socket] + arguments, timeout: 10)
        guard result.status == 0 else { throw TmuxError(message: "tmux \(arguments.joined(separator: " ")): \(result)") }
        return result.stdoutText
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

struct TmuxError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
