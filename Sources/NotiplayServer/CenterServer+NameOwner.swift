import NotiplayFreedesktopBridge
import NotiplaySystem

extension CenterServer {
    /// How long a desktop server asked to end (`SIGTERM`) has to free the name: dunst and
    /// xfce4-notifyd free it within milliseconds.
    nonisolated package static let nameOwnerGrace: Duration = .seconds(5)

    /// `--replace` against a desktop server that does not hand the name over (dunst, mako and
    /// xfce4-notifyd all ask the bus for it without allowing replacement): asks it to end, as its
    /// own user would with `kill`, and takes the name once the bus frees it. Only a process of
    /// this user, not this one, and known to the bus is asked. `nil`: nothing was asked (the
    /// caller reports `taken`); `.success`: the name is ours, taken from that owner;
    /// `.failure`: it was asked and still keeps the name.
    func stopNameOwner(
        _ taken: FreedesktopNameTaken, bridge: FreedesktopBridge
    ) async -> Result<FreedesktopNameOwner, FreedesktopNameTaken>? {
        guard let owner = taken.owner, let pid = owner.processID, let uid = owner.userID,
            uid == Posix.userID, Int32(exactly: pid) != Posix.processID, let process = Int32(exactly: pid),
            Posix.signal(process: process, SignalNumber.terminate)
        else { return nil }
        if await bridge.retakeName(within: Self.nameOwnerGrace) { return .success(owner) }
        return .failure(FreedesktopNameTaken(owner: owner, replaceAsked: true, stopAsked: true))
    }
}
