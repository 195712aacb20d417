import ArgumentParser
import NotiplayCenterClient
import SystemPackage

/// `notiplay reload`: the running center reads its configuration file again.
struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Have the running center read its configuration file (notiplay.conf) again.",
        discussion: """
            A valid file is in force for the notifications that arrive from now on; cards \
            already there keep what they had. Prints how many rules are in force. A file that \
            cannot be used is said, one FILE:LINE:COLUMN: line per problem, and the server keeps \
            the configuration in force: exit 65. Exits 69 when no server runs. A headless server \
            also reloads on SIGHUP.
            """)

    func run() throws {
        let reply = try CenterPlaces.perform(ReloadOperation())
        let text = reply.rules == 1 ? "1 rule" : "\(reply.rules) rules"
        _ = try? FileDescriptor.standardOutput.writeAll("reloaded: \(text)\n".utf8)
    }
}
