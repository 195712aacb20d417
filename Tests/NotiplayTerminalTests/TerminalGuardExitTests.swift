#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import NotiplayCore
import NotiplayTerminal
import NotiplayViews
import NotiplayTestSupport
import Testing

/// Ways out that end the process: a child process (this test binary again, running only
/// ``guardChild()``) takes a pseudo-terminal with a guard and leaves as told, and the parent
/// checks what the terminal received and its settings afterwards.
@Suite("Terminal guard: ways out that end the process")
struct TerminalGuardExitTests {
    static let childVariable = "NOTIPLAY_GUARD_CHILD"
    static let childRequest = getenv(childVariable).map { String(cString: $0) }
    static let leaveSequence = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    /// Runs in the child only: `NOTIPLAY_GUARD_CHILD` is "PATH MODE".
    @Test("(child process) take the terminal, then leave as asked", .enabled(if: childRequest != nil))
    func guardChild() throws {
        let request = try #require(Self.childRequest).split(separator: " ").map(String.init)
        let fd = open(request[0], O_RDWR | O_NOCTTY)
        let terminal = TerminalGuard(reportsMouse: request.count > 2 && request[2] == "mouse")
        try terminal.enter(input: fd, output: fd)
        switch request[1] {
        case "block":
            while true { pause() }  // blocked: only a signal ends this
        case "exit":
            exit(3)
        default:
            fatalError("a crash, on purpose")
        }
    }

    enum WayOut: String, CaseIterable, Sendable {
        case sigterm, sighup, sigint, exit, crash
    }

    @Test("restored when the process ends: SIGTERM, SIGHUP, SIGINT while blocked; exit(); a crash",
          .enabled(if: childRequest == nil), arguments: WayOut.allCases, [false, true])
    func restoredOnTheWayOut(_ way: WayOut, mouse: Bool) async throws {
        let pty = try PseudoTerminal()
        let original = pty.settings()
        let signal: Int32? = switch way {
        case .sigterm: SIGTERM
        case .sighup: SIGHUP
        case .sigint: SIGINT
        case .exit, .crash: nil
        }
        let mode = signal != nil ? "block" : way.rawValue
        let child = await TestChild.start(
            Self.executable(), ["--testing-library", "swift-testing", "--filter", "guardChild"],
            environment: [Self.childVariable: "\(pty.path) \(mode)\(mouse ? " mouse" : "")", "SWIFT_BACKTRACE": "enable=no"])

        var seen = pty.read(through: "\u{1B}[?25l", timeout: 30)  // entered (and maybe left already)
        if let signal { child.signal(signal) }
        let termination = await child.wait(seconds: 30)
        switch way {
        case .exit: #expect(termination == .exited(3))
        case .crash: #expect(termination == .signaled(SIGILL) || termination == .signaled(SIGTRAP))  // ud2 or brk
        default: #expect(termination == .signaled(signal ?? 0))
        }
        // With the mouse reported, turning it off is the last thing written, whatever the way out.
        let (enter, leave) =
            mouse
            ? ("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h", Self.leaveSequence + "\u{1B}[?1006l\u{1B}[?1000l")
            : ("\u{1B}[?1049h\u{1B}[?25l", Self.leaveSequence)
        if !seen.contains(leave) { seen += pty.read(through: leave) }
        #expect(seen == enter + leave)
        #expect(bytes(of: pty.settings()) == bytes(of: original))
    }

    static func executable() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }
}
