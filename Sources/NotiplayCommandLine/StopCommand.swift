import ArgumentParser
import NotiplayCenterClient
import NotiplaySystem

/// `notiplay stop`: stops the running center, deliberately (detaching a viewer never does).
struct StopCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "stop",
            abstract: "Stop the running center (the one attach started, serve --headless, or serve).",
            discussion: """
                Sends the center SIGTERM and waits until its socket no longer answers: what it stored \
                stays stored (pending notifications are delivered when a center runs again), an \
                attached terminal is let go ("the center stopped"). Exits 0 once it has stopped, or \
                when none was running (said on standard error); 69 when it does not stop within 30 s.
                """)
    }

    func run() throws {
        let pid: Int32
        do {
            pid = try CenterPlaces.perform(PingOperation()).pid
        } catch let error as NotiplayError where error.kind == .unavailable {
            Diagnostics.shared.report("no notification center is running at \(CenterPlaces.socketPath)")
            return
        }
        Posix.signal(process: pid, SignalNumber.terminate)
        let deadline = ContinuousClock.now + .seconds(30)
        while (try? CenterClient.connectedSocket(to: CenterPlaces.socketPath)).map({ Posix.close($0) }) != nil {
            guard ContinuousClock.now < deadline else {
                Diagnostics.shared.report("the center (pid \(pid)) did not stop within 30 s")
                throw ExitCode(ExitStatus.unavailable)
            }
            Posix.sleep(.milliseconds(20))
        }
    }
}
