import ArgumentParser
import NotiplayCenter
import NotiplayCore
import NotiplayCenterClient
import NotiplaySystem

/// Where the notification center keeps its store and its socket, from the environment.
enum CenterPlaces {
    /// `$XDG_STATE_HOME/notiplay`, else `~/.local/state/notiplay`.
    static var storeFolder: String {
        let environment = processEnvironment
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/notiplay" }
        return (environment["HOME"] ?? "/tmp") + "/.local/state/notiplay"
    }

    /// `$XDG_RUNTIME_DIR/notiplay/center.sock`, else `/tmp/notiplay-UID/center.sock`.
    static var socketPath: String {
        CenterAddress.socketPath(environment: processEnvironment, userID: Posix.userID)
    }

    /// The exit status for a failure the server answered with.
    static func status(of failure: CenterFailure) -> Int32 {
        switch failure.code {
        case .storeCannotCreate: ExitStatus.cantCreate
        case .storeIOError: ExitStatus.ioError
        case .invalidPayload, .unknownApp, .badRequest, .invalidTrigger, .invalidCategories, .invalidConfig: ExitStatus.badData
        case .notAllowed: 77
        default: ExitStatus.unavailable
        }
    }

    /// The exit status for a store error.
    static func status(of error: CenterStoreError) -> Int32 {
        switch error.kind {
        case .cannotCreate: ExitStatus.cantCreate
        case .ioError: ExitStatus.ioError
        default: ExitStatus.badData
        }
    }

    /// Connects to the running server once it is known to be the user's own (its folder and
    /// `SO_PEERCRED`), or says how to start one, or why it is not trusted (exit 69).
    static func connect() throws -> CenterClient {
        do {
            return try CenterClient.connect(to: socketPath)
        } catch {
            throw error.notiplayError
        }
    }

    /// Performs `operation` on a new connection; a failure is reported and ends the command.
    static func perform<Operation: CenterOperation>(_ operation: Operation) throws -> Operation.Reply {
        let client = try connect()
        defer { client.close() }
        do {
            return try client.perform(operation)
        } catch {
            if case .failed(let failure) = error {
                Diagnostics.shared.report(failure.message)
                throw ExitCode(status(of: failure))
            }
            throw error.notiplayError
        }
    }
}
