import NotiplayCenter
import NotiplayFreedesktop
import NotiplayFreedesktopBridge
import NotiplayDBus

/// `serve --freedesktop`: the bridge started on the session bus, or the exit status saying why not.
@MainActor
enum ServeFreedesktop {
    static func start(
        service: CenterService, replace: Bool, address: String?, expiry: FreedesktopExpiryDefaults
    ) async -> Result<FreedesktopBridge, ExitStatusError> {
        guard let address, !address.isEmpty else {
            Diagnostics.shared.report("--freedesktop: no session bus (DBUS_SESSION_BUS_ADDRESS is not set); run it inside a desktop session or dbus-run-session")
            return .failure(ExitStatusError(ExitStatus.unavailable))
        }
        let mapping = FreedesktopMapping(options: .init(
            dataDirectories: ArrivalSoundResolver.dataDirectories(xdgDataDirs: processEnvironment["XDG_DATA_DIRS"]),
            defaultExpiry: expiry))
        let bridge = FreedesktopBridge(service: service, mapping: mapping, version: NotiplayCLI.version)
        do {
            try await bridge.start(address: address, replace: replace) {
                Diagnostics.shared.report("--freedesktop: another server took org.freedesktop.Notifications, or the bus went away")
            }
        } catch let error as DBusNameError {
            if case .exists = error {
                Diagnostics.shared.report("--freedesktop: \(error); stop that server, or take the name with --replace")
            } else {
                Diagnostics.shared.report("--freedesktop: \(error)")
            }
            await bridge.stop()
            return .failure(ExitStatusError(ExitStatus.unavailable))
        } catch {
            Diagnostics.shared.report("--freedesktop: cannot reach the session bus: \(error)")
            await bridge.stop()
            return .failure(ExitStatusError(ExitStatus.unavailable))
        }
        return .success(bridge)
    }
}

/// An exit status as an error, for a `Result`.
struct ExitStatusError: Error {
    var status: Int32
    init(_ status: Int32) { self.status = status }
}
