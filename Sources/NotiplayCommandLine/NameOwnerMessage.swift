#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NotiplayFreedesktopBridge
import NotiplayServer
import NotiplaySystem

/// What `serve --freedesktop` says when another server keeps `org.freedesktop.Notifications`:
/// who that is, and what to do about it. `--replace` is suggested only when it could help: when
/// it was not given and the owner is not known to keep the name (a notiplay server hands it over;
/// another server may or may not, as it asked the bus).
enum NameOwnerMessage {
    /// The message for `taken`; `unit` finds the systemd user unit a process runs in.
    static func text(
        _ taken: FreedesktopNameTaken, userID: UInt32 = Posix.userID, unit: (UInt32) -> String? = systemdUserUnit(of:)
    ) -> String {
        let name = "org.freedesktop.Notifications"
        guard let owner = taken.owner else {
            return taken.replaceAsked
                ? "\(name) is owned by another connection on the bus, which does not hand it over: stop that server and start again"
                : "\(name) is owned by another connection on the bus: stop that server, or take the name with --replace"
        }
        let who = describe(owner)
        let stop = stopAdvice(owner, unit: unit)
        if taken.stopAsked {
            return "\(name) is owned by \(who), which did not hand it over and still kept it "
                + "\(seconds(CenterServer.nameOwnerGrace)) s after it was asked to end (SIGTERM): \(stop) and start again"
        }
        if taken.replaceAsked {
            let whose = owner.userID.map { $0 == userID } == false ? ", and runs as another user" : ""
            return "\(name) is owned by \(who), which does not hand it over\(whose): \(stop) and start again"
        }
        if owner.isNotiplay {
            return "\(name) is owned by \(who): \(stop), or take the name with --replace"
        }
        return "\(name) is owned by \(who): \(stop) and start again, or take the name with --replace "
            + "(which asks a server of yours that does not hand it over to end)"
    }

    /// What `serve --freedesktop --replace` says when it stopped the server that kept the name.
    static func stopped(_ owner: FreedesktopNameOwner) -> String {
        "--freedesktop --replace: \(describe(owner)) did not hand org.freedesktop.Notifications over; "
            + "it was asked to end (SIGTERM), and the name is now notiplay's"
    }

    private static func seconds(_ duration: Duration) -> Int64 { duration.components.seconds }

    /// `dunst 1.9.0 (vendor knopwob, pid 1234)`, with what is known.
    static func describe(_ owner: FreedesktopNameOwner) -> String {
        let named = [owner.name, owner.version].compactMap(\.self).joined(separator: " ")
        let details = [owner.vendor.map { "vendor \($0)" }, owner.processID.map { "pid \($0)" }].compactMap(\.self)
        let base = named.isEmpty ? "another server" : named
        return details.isEmpty ? base : "\(base) (\(details.joined(separator: ", ")))"
    }

    /// `stop it (systemctl --user stop dunst.service, or kill 1234)`, with what is known.
    static func stopAdvice(_ owner: FreedesktopNameOwner, unit: (UInt32) -> String?) -> String {
        guard let pid = owner.processID else { return "stop it" }
        if let service = unit(pid) { return "stop it (systemctl --user stop \(service), or kill \(pid))" }
        return "stop it (kill \(pid))"
    }

    /// The systemd user service process `pid` runs in (`dunst.service`), read from its cgroup
    /// (`0::/user.slice/user-1000.slice/user@1000.service/app.slice/dunst.service`); `nil` when
    /// it runs in none.
    static func systemdUserUnit(of pid: UInt32) -> String? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cgroup")) else { return nil }
        return systemdUserUnit(cgroups: String(decoding: data, as: UTF8.self))
    }

    /// The systemd user service in `/proc/PID/cgroup`'s text (its cgroup v2 line), or `nil`.
    static func systemdUserUnit(cgroups: String) -> String? {
        for line in cgroups.split(separator: "\n") where line.hasPrefix("0::") {
            let parts = line.dropFirst(3).split(separator: "/")
            guard let manager = parts.firstIndex(where: { $0.hasPrefix("user@") && $0.hasSuffix(".service") }),
                let last = parts.last, parts.index(after: manager) < parts.endIndex, last.hasSuffix(".service")
            else { return nil }
            return String(last)
        }
        return nil
    }
}
