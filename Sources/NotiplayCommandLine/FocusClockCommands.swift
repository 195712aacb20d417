import ArgumentParser
internal import FoundationEssentials
import NotiplayCenterClient
import NotiplayCore
import SystemPackage

/// `notiplay focus on|off|status`: Focus of the running center.
struct FocusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "Turn Focus on or off, or say whether it is on.",
        discussion: """
            With Focus on, the center plays no arrival sound but those of time-sensitive and \
            critical notifications, as iOS Focus does by default. The server keeps it in its \
            store: it stays on across restarts. Prints `on` or `off`. Exits 69 when no server runs.
            """)

    enum Setting: String, CaseIterable, ExpressibleByArgument {
        case on, off, status
    }

    @Argument(help: ArgumentHelp("on, off or status (default).", valueName: "setting"))
    var setting: Setting = .status

    func run() throws {
        let set: Bool? =
            switch setting {
            case .on: true
            case .off: false
            case .status: nil
            }
        let reply = try CenterPlaces.perform(FocusOperation(set: set))
        _ = try? FileDescriptor.standardOutput.writeAll((reply.focus ? "on\n" : "off\n").utf8)
    }
}

/// `notiplay clock [--advance DURATION]`: the running center's time; moves a virtual clock.
struct ClockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock",
        abstract: "Print the center's time; move a virtual clock (serve --clock virtual) on.",
        discussion: """
            With --advance, what falls due meanwhile fires in date order, each at its own date, \
            before this returns: up to 100 firings, after which what is still due fires once, \
            late, at the end (as after a restart: a repeat does not fire for every date a long \
            advance skips). An advance is at most 3650 days. Prints the time after (ISO 8601, \
            local time). Exits 69 when no server runs, and when the server runs on the system's \
            clock and --advance is given.
            """)

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Move the virtual clock on by this much: 30s, 5m, 1h30m, 7d (at most 3650d).", valueName: "duration"))
    var advance: DurationArgument?

    func validate() throws {
        if let advance, !(advance.seconds > 0) { throw ValidationError("--advance must be more than 0: a clock does not go back") }
        if let advance, advance.seconds > PendingSchedule.horizon {
            throw ValidationError("--advance is at most \(PendingSchedule.horizonText) at a time")
        }
    }

    func run() throws {
        let reply = try CenterPlaces.perform(ClockOperation(advance: advance?.seconds))
        _ = try? FileDescriptor.standardOutput.writeAll("\(LocalDateText.text(reply.now))\n".utf8)
    }
}
