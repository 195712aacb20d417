import Foundation
import NotiplayTestSupport
import Testing

/// A tmux server of the test's own (its own socket), with one pane running a plain shell: keys
/// in, the screen out, as a person at a terminal would see it.
final class TmuxPane {
    let socket = "notiplay-test-\(UUID().uuidString.prefix(8))"
    let tmux: String
    /// The server's process id, for ``deinit``.
    private var serverPID: Int32?

    /// Starts a `columns` × `rows` pane running `sh` with a plain prompt and a UTF-8 locale.
    init(columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) async throws {
        tmux = try #require(E2E.which("tmux"), "tmux is needed for the terminal tests (apt-get install tmux)")
        var env = ["PS1": "$ ", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"]
        // Under Scripts/sanitize.sh the pane's programs are sanitized too: they get its options
        // (where reports go, no leak check) rather than the sanitizers' defaults, and under
        // ThreadSanitizer its preloaded annotations of Swift's Mutex.
        let inherited = ProcessInfo.processInfo.environment
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS"] + (inherited["TSAN_OPTIONS"] != nil ? ["LD_PRELOAD"] : []) {
            if let value = inherited[name] { env[name] = value }
        }
        for (key, value) in environment { env[key] = value }
        let exports = env.map { "\($0.key)=\(E2E.shellQuoted($0.value))" }.joined(separator: " ")
        let shell = "env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=\(E2E.shellQuoted(NSHomeDirectory())) \(exports) sh"
        try await command("-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", shell)
        serverPID = Int32(try await value("#{pid}"))
        try await command("set-option", "-g", "status", "off")
    }

    /// Ends the server (and the pane's processes with it) with SIGTERM, at once: a `kill-server`
    /// client started from here would be spawned by a task that may not run before the test
    /// process exits, leaving the server behind. The process is checked to be this socket's
    /// server first.
    deinit {
        guard let serverPID,
            let commandLine = try? String(contentsOfFile: "/proc/\(serverPID)/cmdline", encoding: .utf8),
            commandLine.contains(socket)
        else { return }
        kill(serverPID, SIGTERM)
    }

    /// Runs `tmux -L SOCKET arguments` and returns its standard output.
    ///
    /// Through swift-subprocess (``TestChild``), not Foundation's `Process`: the tmux client waits
    /// for signals from its server, and a child of `Process` inherits the test thread's blocked
    /// signals (it then waits forever); the server also outlives the client and would hold pipes
    /// open, so output goes through a file. Awaited, never waited for with a semaphore: a blocked
    /// thread of the two-thread pool starved everything else under load.
    @discardableResult
    func command(_ arguments: String...) async throws -> String {
        try await command(arguments)
    }

    @discardableResult
    func command(_ arguments: [String]) async throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer {
            unlink(output)
            unlink(output + ".err")
        }
        // A tmux client that does not answer in 20 s is killed.
        let result = await TestChild.run(tmux, ["-L", socket] + arguments, stdout: output, stderr: output + ".err", seconds: 20)
        guard let result else {
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")): no answer in 20 s")
        }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard result == .exited(0) else {
            let errors = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")): \(result) \(errors)")
        }
        return text
    }

    /// Types `text` and presses Enter.
    func type(_ text: String) async throws {
        try await command("send-keys", "-l", text)
        try await command("send-keys", "Enter")
    }

    /// Sends tmux key names (`Space`, `q`, `C-c`, `Escape`).
    func keys(_ names: String...) async throws {
        for name in names { try await command("send-keys", name) }
    }

    /// The screen as text.
    func screen() async throws -> String {
        try await command("capture-pane", "-p")
    }

    /// The pane's history and screen, from the first line the pane printed.
    func transcript() async throws -> String {
        try await command("capture-pane", "-p", "-J", "-S", "-")
    }

    /// The screen, or the error getting it: for failure messages.
    var screenNow: String {
        get async { (try? await screen()) ?? "(no screen)" }
    }

    /// A tmux format value for the pane (`#{alternate_on}`, `#{cursor_flag}`).
    func value(_ format: String) async throws -> String {
        try await command("display-message", "-p", format).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the screen satisfies `predicate`; the screen, or `nil` after `timeout` seconds
    /// (a hang guard, long enough for a loaded machine). The pane is an external process: polling
    /// its screen is the only way to observe it.
    func waitForScreen(timeout: Double = 30, _ predicate: (String) -> Bool) async throws -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            let text = try await screen()
            if predicate(text) { return text }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}

struct TmuxError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension TmuxPane {
    /// Waits as ``waitForScreen(timeout:_:)`` does; when the screen never satisfies `predicate`,
    /// records an issue saying `what` did not happen, with the screen as it was.
    @discardableResult
    func expectScreen(
        _ what: String, timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: (String) -> Bool
    ) async throws -> String? {
        if let screen = try await waitForScreen(timeout: timeout, predicate) { return screen }
        Issue.record("\(what): \(await screenNow)", sourceLocation: sourceLocation)
        return nil
    }
}
