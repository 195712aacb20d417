import ArgumentParser
import NotiplayCenterClient
import NotiplayCore
import NotiplaySystem
import SystemPackage

/// A center started in the background, as tmux starts its server: `serve --headless` in a
/// session of its own, standard input /dev/null, its events and errors appended to
/// `server.log` in the store's folder.
enum BackgroundCenter {
    /// Where a background center writes its events and errors.
    static var logPath: String { CenterPlaces.storeFolder + "/server.log" }

    /// How long a center may take to answer before attach gives up.
    static let startLimit: Duration = .seconds(30)

    /// Starts the center (with `serveOptions` after `serve --headless`) and returns its viewer socket, connected, once it answers.
    /// - Throws: `ExitCode` after saying why when it cannot be started or ends before answering.
    static func start(viewerPath: String, serveOptions: [String]) throws -> FileDescriptor {
        let child: Int32
        do {
            try makeFolders(CenterPlaces.storeFolder)
            let log = try Posix.open(
                logPath, .writeOnly, options: [.create, .append, .closeOnExec], permissions: .ownerReadWrite)
            defer { Posix.close(log) }
            let nothing = try Posix.open("/dev/null", .readOnly, options: [.closeOnExec])
            defer { Posix.close(nothing) }
            let program = Posix.executablePath ?? CommandLine.arguments[0]
            child = try Posix.spawnDetached(
                program, arguments: [NotiplayCLI.commandName, "serve", "--headless"] + serveOptions, environment: processEnvironment,
                input: nothing, output: log)
        } catch {
            Diagnostics.shared.report("attach: cannot start the center: \(error)")
            throw ExitCode(ExitStatus.unavailable)
        }
        let deadline = ContinuousClock.now + startLimit
        while true {
            do {
                return try CenterClient.connectedSocket(to: viewerPath)
            } catch .noServer {
                if let status = Posix.reapIfEnded(child) {
                    Diagnostics.shared.report("attach: the center ended (status \(status)) before it answered; see \(logPath)")
                    throw ExitCode(status == 0 ? ExitStatus.unavailable : status)
                }
                guard ContinuousClock.now < deadline else {
                    Diagnostics.shared.report("attach: the center (pid \(child)) did not answer within \(startLimit); see \(logPath)")
                    throw ExitCode(ExitStatus.unavailable)
                }
                Posix.sleep(.milliseconds(20))
            } catch {
                throw error.notiplayError
            }
        }
    }

    /// Makes `path` and the folders above it that are missing (mode 0700).
    private static func makeFolders(_ path: String) throws(SystemCallError) {
        var made = ""
        for part in path.split(separator: "/") {
            made += "/" + part
            do { try Posix.makeFolder(made, permissions: .ownerReadWriteExecute) } catch where error.errno == .fileExists {}
        }
    }
}
