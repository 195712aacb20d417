import NotiplayFreedesktopBridge
import Testing

@testable import NotiplayCommandLine

/// What `serve --freedesktop` says of the server that keeps org.freedesktop.Notifications, and
/// where it finds the session bus.
@Suite struct NameOwnerMessageTests {
    let dunst = FreedesktopNameOwner(name: "dunst", vendor: "knopwob", version: "1.9.0", processID: 1234)

    @Test("--replace refused: names the owner and how to stop it (its systemd unit when it runs in one); no --replace again")
    func replaceRefused() {
        let text = NameOwnerMessage.text(FreedesktopNameTaken(owner: dunst, replaceAsked: true)) { _ in "dunst.service" }
        #expect(
            text == "org.freedesktop.Notifications is owned by dunst 1.9.0 (vendor knopwob, pid 1234), which does not hand it over: "
                + "stop it (systemctl --user stop dunst.service, or kill 1234) and start again")
    }

    @Test("Without --replace: a notiplay owner hands the name over, another server may")
    func withoutReplace() {
        let notiplay = FreedesktopNameOwner(name: "notiplay", vendor: "notiplay", version: "0.1.0", processID: 7)
        let fromNotiplay = NameOwnerMessage.text(FreedesktopNameTaken(owner: notiplay, replaceAsked: false)) { _ in nil }
        #expect(fromNotiplay.hasSuffix(": stop it (kill 7), or take the name with --replace"))
        let fromDunst = NameOwnerMessage.text(FreedesktopNameTaken(owner: dunst, replaceAsked: false)) { _ in nil }
        #expect(fromDunst.hasSuffix(
            "or take the name with --replace (which asks a server of yours that does not hand it over to end)"))
    }

    @Test("--replace asked the owner to end and it kept the name; an owner of another user is not asked, and said so")
    func replaceStopRefused() {
        let kept = NameOwnerMessage.text(FreedesktopNameTaken(owner: dunst, replaceAsked: true, stopAsked: true)) { _ in nil }
        #expect(
            kept == "org.freedesktop.Notifications is owned by dunst 1.9.0 (vendor knopwob, pid 1234), which did not hand it "
                + "over and still kept it 5 s after it was asked to end (SIGTERM): stop it (kill 1234) and start again")
        var foreign = dunst
        foreign.userID = 1001
        let other = NameOwnerMessage.text(FreedesktopNameTaken(owner: foreign, replaceAsked: true), userID: 1000) { _ in nil }
        #expect(other.contains("which does not hand it over, and runs as another user: stop it (kill 1234)"))
        #expect(NameOwnerMessage.stopped(dunst).contains("dunst 1.9.0 (vendor knopwob, pid 1234) did not hand"))
    }

    @Test("An owner that answered nothing, or is gone: what is known, no empty parentheses")
    func unknownOwner() {
        #expect(NameOwnerMessage.describe(FreedesktopNameOwner(processID: 9)) == "another server (pid 9)")
        #expect(NameOwnerMessage.describe(FreedesktopNameOwner()) == "another server")
        let gone = NameOwnerMessage.text(FreedesktopNameTaken(owner: nil, replaceAsked: true)) { _ in nil }
        #expect(!gone.contains("--replace"))
    }

    @Test("The systemd user unit from /proc/PID/cgroup: only a service under the user's manager")
    func cgroupUnit() {
        let user = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/dunst.service\n"
        #expect(NameOwnerMessage.systemdUserUnit(cgroups: user) == "dunst.service")
        #expect(NameOwnerMessage.systemdUserUnit(cgroups: "0::/user.slice/user-1000.slice/session-2.scope\n") == nil)
        #expect(NameOwnerMessage.systemdUserUnit(cgroups: "0::/user.slice/user-1000.slice/user@1000.service\n") == nil)
        #expect(NameOwnerMessage.systemdUserUnit(cgroups: "0::/system.slice/dunst.service\n") == nil)
        #expect(NameOwnerMessage.systemdUserUnit(cgroups: "4:memory:/x\n0::/\n") == nil)
    }

    @Test("The session bus: the variable when set and not empty, else nothing without a socket at $XDG_RUNTIME_DIR/bus")
    func sessionBus() {
        #expect(SessionBusAddress.find(in: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"]) == "unix:path=/x")
        #expect(SessionBusAddress.find(in: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/nonexistent-runtime"]) == nil)
        #expect(SessionBusAddress.find(in: ["XDG_RUNTIME_DIR": "relative/run"]) == nil)
        #expect(SessionBusAddress.escaped("/run/user/1000/bus") == "/run/user/1000/bus")
        #expect(SessionBusAddress.escaped("/tmp/a b,c=d") == "/tmp/a%20b%2cc%3dd")
    }
}
