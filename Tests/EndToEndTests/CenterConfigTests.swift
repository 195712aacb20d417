import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `notiplay.conf` through the real binary: rules on real notifications (their sound events),
/// `reload` and `SIGHUP`, and configuration files that cannot be used.
@Suite("the center's configuration file: rules, reload, bad files", .tags(.endToEnd))
struct CenterConfigTests {
    let scratch: URL
    let environment: [String: String]
    /// `$XDG_CONFIG_HOME/notiplay/notiplay.conf`.
    let file: String

    init() throws {
        scratch = try E2E.scratch()
        environment = try E2E.centerEnvironment(scratch: scratch, runtimePrefix: "npc")
        let folder = environment["XDG_CONFIG_HOME"]! + "/notiplay"
        try FileManager.default.createDirectory(atPath: folder + "/apps", withIntermediateDirectories: true)
        for app in ["Chat", "Mail"] {
            try Data("{\"name\": \"\(app)\", \"categories\": []}".utf8).write(to: URL(fileURLWithPath: "\(folder)/apps/\(app).app.json"))
        }
        try Data("{\"aps\":{\"alert\":{\"title\":\"Hi\"},\"sound\":\"default\"}}".utf8)
            .write(to: scratch.appendingPathComponent("ding.apns"))
        file = folder + "/notiplay.conf"
    }

    func notiplay(_ arguments: String...) async throws -> RunResult {
        try await run(try E2E.binary(), arguments, environment: environment)
    }

    func write(_ text: String) throws {
        try? FileManager.default.removeItem(atPath: file)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    }

    /// Sends the ding from `app` as `identifier`, and waits for its sound event.
    func ding(_ server: ChildProcess, _ identifier: String, app: String) async throws -> [String: Any]? {
        let sent = try await notiplay("send", scratch.appendingPathComponent("ding.apns").path, "--app", app, "--id", identifier)
        #expect(sent.status == 0, "\(sent)")
        let outcomes = ["\"outcome\":\"played\"", "\"outcome\":\"silenced\""]
        _ = await server.send(0, whenStdout: { output in
            outcomes.contains { !ChildProcess.lines(of: output, containing: ["\"event\":\"sound\"", "\"identifier\":\"\(identifier)\"", $0]).isEmpty }
        }, timeout: 30)
        return eventLines(server.stdoutText.split(separator: "\n").filter { $0.contains("\"event\":\"sound\"") }.joined(separator: "\n") + "\n")
            .first { $0["identifier"] as? String == identifier && ["played", "silenced"].contains($0["outcome"] as? String) }
    }

    static let rules = """
        [quiet-chat]
        app = Chat
        silence = yes

        [loud-mail]
        app = Mail
        volume = 90
        """

    @Test("A rule silences Chat, another raises Mail's volume; a bad file on reload (65, FILE:LINE:COLUMN, a directory, 2 MB, not UTF-8, a FIFO) keeps them; SIGHUP reads a good one")
    func rulesAndReload() async throws {
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        }
        try write(Self.rules)
        let server = ChildProcess(
            try E2E.binary(), ["serve", "--headless", "--events", "jsonl", "--audio", "null"], environment: environment)
        try await server.start()
        #expect(await server.until(["\"event\":\"shown\""]), "the server did not start: \(server.stdoutText)")

        let chat = try await ding(server, "chat-1", app: "Chat")
        #expect(chat?["outcome"] as? String == "silenced" && chat?["reason"] as? String == "rule", "\(server.stdoutText)")
        let mail = try await ding(server, "mail-1", app: "Mail")
        #expect(mail?["outcome"] as? String == "played" && mail?["volume"] as? Double == 90, "\(server.stdoutText)")

        try write(Self.rules + "\n[typo]\napp = Mail\nvolume = 200\n")
        let refused = try await notiplay("reload")
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderrText.contains("\(file):10:10: volume must be a whole number from 0 to 100, not \"200\""), "\(refused)")
        #expect(await server.until(["\"event\":\"config\"", "\"outcome\":\"kept\"", "volume must be"]), "\(server.stdoutText)")

        // Files that are no configuration at all: named, refused, the rules in force kept.
        let bad: [(String, () throws -> Void)] = [
            ("is a directory", { try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false) }),
            ("is 2097152 bytes", { try Data(repeating: 0x23, count: 2 << 20).write(to: URL(fileURLWithPath: file)) }),
            ("is not UTF-8 text", { try Data([0x23, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: file)) }),
            ("is a FIFO", { #expect(mkfifo(file, 0o600) == 0) }),
        ]
        for (message, make) in bad {
            try? FileManager.default.removeItem(atPath: file)
            try make()
            let reload = try await notiplay("reload")
            #expect(reload.status == 65 && reload.stderrText.contains("\(file): \(message)"), "\(reload)")
        }
        let still = try await ding(server, "chat-2", app: "Chat")
        #expect(still?["outcome"] as? String == "silenced", "the old rules no longer apply: \(server.stdoutText)")

        try write("[soft-chat]\napp = Chat\nvolume = 30\n")
        server.send(SIGHUP)
        #expect(await server.until(["\"event\":\"config\"", "\"outcome\":\"reloaded\"", "\"rules\":1"]), "\(server.stdoutText)")
        let heard = try await ding(server, "chat-3", app: "Chat")
        #expect(heard?["outcome"] as? String == "played" && heard?["volume"] as? Double == 30, "\(server.stdoutText)")
        let reloaded = try await notiplay("reload")
        #expect(reloaded.status == 0 && reloaded.stdoutText == "reloaded: 1 rule\n", "\(reloaded)")

        server.send(SIGTERM)
        let result = try await server.finish(timeout: 30)
        #expect(result.status == 128 + SIGTERM, "\(result)")
    }

    @Test("[global]: the store where store says, no arrival sounds with sounds = no; --keep-history still parses over the file's")
    func globalDefaults() async throws {
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        }
        let elsewhere = scratch.appendingPathComponent("elsewhere").path
        try write("[global]\nstore = \(elsewhere)\nsounds = no\nkeep-history = 5\n")
        let server = ChildProcess(
            try E2E.binary(), ["serve", "--headless", "--events", "jsonl", "--audio", "null", "--keep-history", "10"],
            environment: environment)
        try await server.start()
        #expect(await server.until(["\"event\":\"shown\""]), "the server did not start: \(server.stdoutText)")
        let sent = try await notiplay("send", scratch.appendingPathComponent("ding.apns").path, "--app", "Mail", "--id", "m")
        #expect(sent.status == 0, "\(sent)")
        #expect(await server.until(["\"event\":\"shown\"", "\"identifier\":\"m\""]), "\(server.stdoutText)")
        server.send(SIGTERM)
        let result = try await server.finish(timeout: 30)
        #expect(result.status == 128 + SIGTERM, "\(result)")
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/center.sqlite"), "no store in \(elsewhere)")
        #expect(!FileManager.default.fileExists(atPath: environment["XDG_STATE_HOME"]! + "/notiplay/center.sqlite"))
        #expect(!result.stdoutText.contains("\"event\":\"sound\""), "an arrival sound with sounds = no: \(result.stdoutText)")
    }

    @Test("serve refuses a configuration file it cannot use, naming it: 65 (invalid, a directory, 2 MB, not UTF-8, a FIFO), 66 (--config names none); validate says FILE:LINE:COLUMN")
    func badFilesAtStart() async throws {
        defer {
            E2E.remove(scratch)
            try? FileManager.default.removeItem(atPath: environment["XDG_RUNTIME_DIR"]!)
        }
        let named = scratch.appendingPathComponent("other.conf").path
        let cases: [(String, String, () throws -> Void)] = [
            ("invalid", "\(named):2:1: unknown key \"colume\"", { try Data("[global]\ncolume = 3\n".utf8).write(to: URL(fileURLWithPath: named)) }),
            ("directory", "\(named): is a directory", { try FileManager.default.createDirectory(atPath: named, withIntermediateDirectories: false) }),
            ("big", "\(named): is 2097152 bytes", { try Data(repeating: 0x23, count: 2 << 20).write(to: URL(fileURLWithPath: named)) }),
            ("latin-1", "\(named): is not UTF-8 text", { try Data([0x23, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: named)) }),
            ("fifo", "\(named): is a FIFO", { #expect(mkfifo(named, 0o600) == 0) }),
        ]
        for (name, message, make) in cases {
            try? FileManager.default.removeItem(atPath: named)
            try make()
            let served = try await notiplay("serve", "--headless", "--audio", "null", "--config", named)
            #expect(served.status == 65 && served.stderrText.contains(message), "\(name): \(served)")
        }
        try? FileManager.default.removeItem(atPath: named)
        let missing = try await notiplay("serve", "--headless", "--audio", "null", "--config", named)
        #expect(missing.status == 66 && missing.stderrText.contains("\(named): no such file"), "\(missing)")

        try Data("[global]\nvolume = 101\n[r]\nurgency = high\nsilence = yes\n".utf8).write(to: URL(fileURLWithPath: named))
        let validated = try await notiplay("validate", named)
        #expect(validated.status == 65, "\(validated)")
        #expect(validated.stdoutText == """
            \(named):2:10: volume must be a whole number from 0 to 100, not "101"
            \(named):4:11: urgency must be low, normal or critical, not "high"

            """, "\(validated)")
        try write(Self.rules)
        let good = try await notiplay("validate", file)
        #expect(good.status == 0 && good.stdoutText == "\(file): valid configuration (2 rules)\n", "\(good)")
    }
}
