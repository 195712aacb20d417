import ArgumentParser
import NotiplayCore
import NotiplayTerminal
import Testing

@testable import NotiplayCommandLine

/// The command line's grammar, as ArgumentParser reads it: values, their validation, and what a
/// usage error says (through the same functions the process reports it with).
@Suite struct CommandLineTests {
    /// Parses `arguments` as the process would, expecting a command of type `T`.
    func parse<T: ParsableCommand>(_ arguments: [String], as type: T.Type) throws -> T {
        let command = try NotiplayCommand.parseAsRoot(arguments)
        return try #require(command as? T, "parsed as \(Swift.type(of: command))")
    }

    /// What the process says for `arguments` that end before a command runs (a usage error, or
    /// help, the version, a completion script), and its exit status; `nil` when they parse.
    func ending(_ arguments: [String]) -> (message: String, status: Int32)? {
        do {
            var command = try NotiplayCommand.parseAsRoot(arguments)
            // `--help` parses as ArgumentParser's `help` command, which throws the help.
            guard Swift.type(of: command).configuration.commandName == "help" else { return nil }
            try command.run()
            return nil
        } catch {
            return (NotiplayCommand.fullMessage(for: error), NotiplayCommand.exitCode(for: error).rawValue)
        }
    }

    @Test func playReadsItsValues() throws {
        let play = try parse(["play", "a.wav", "--audio=pcm:out.wav", "--untimed", "--events", "jsonl"], as: PlayCommand.self)
        #expect(play.file == "a.wav")
        #expect(play.output.audio == .pcm("out.wav"))
        #expect(play.output.untimed)
        #expect(play.events == .jsonl)

        let plain = try parse(["play", "a.wav"], as: PlayCommand.self)
        #expect(plain.output.audio == .auto && !plain.output.untimed && plain.events == nil)
    }

    @Test func deliverReadsItsValues() throws {
        let deliver = try parse(
            [
                "deliver", "p.apns", "--attach", "x.wav", "--headless", "--attach", "y.png", "--keys", "space ~end q",
                "--response-timeout", "2.5", "--service-timeout=1", "--no-payload-limit", "--audio", "null",
            ], as: DeliverCommand.self)
        #expect(deliver.payload == "p.apns")
        #expect(deliver.attach == ["x.wav", "y.png"])
        #expect(deliver.headless && deliver.noPayloadLimit)
        #expect(deliver.keys?.steps.count == 3)
        #expect(deliver.responseTimeout == .milliseconds(2500))
        #expect(deliver.serviceTimeout == .seconds(1))
        #expect(deliver.output.audio == .null)
    }

    @Test func testAndValidateReadTheirValues() throws {
        let test = try parse(["test", "a.playback", "dir", "--jobs", "3", "--timeout", "90", "--tap"], as: TestCommand.self)
        #expect(test.scripts == ["a.playback", "dir"])
        #expect(test.jobs == 3 && test.timeout == .seconds(90) && test.tap && !test.untimed)

        let validate = try parse(["validate", "--json", "a.apns", "--", "--b.apns"], as: ValidateCommand.self)
        #expect(validate.files == ["a.apns", "--b.apns"])
        #expect(validate.json && !validate.noPayloadLimit)
    }

    @Test(
        "A value notiplay cannot use: 64, naming the option, the value and what it must be",
        arguments: [
            (["play", "x.wav", "--audio", "loud"], ["--audio", "'loud'", "must be null, auto or pcm:PATH"]),
            (["play", "x.wav", "--audio", "pcm:"], ["--audio", "'pcm:'", "must be null, auto or pcm:PATH"]),
            (["play", "x.wav", "--events", "xml"], ["--events", "'xml'", "'jsonl'"]),
            (["deliver", "p.apns", "--keys", "space jump"], ["--keys", "unknown key 'jump'"]),
            (["deliver", "p.apns", "--keys", "\u{1B}[31m"], ["--keys", #"unknown key '\u{1B}[31m'"#]),
            (["deliver", "p.apns", "--response-timeout", "0"], ["--response-timeout", "'0'", "must be a number of seconds"]),
            (["deliver", "p.apns", "--service-timeout", "3601"], ["--service-timeout", "'3601'", "at most 3600"]),
            (["test", "a.playback", "--timeout", "soon"], ["--timeout", "'soon'", "must be a number of seconds"]),
            (["test", "a.playback", "--jobs", "0"], ["--jobs", "'0'", "must be a number from 1 to 256"]),
        ])
    func badValues(arguments: [String], words: [String]) throws {
        let refusal = try #require(ending(arguments))
        #expect(refusal.status == ExitStatus.usage)
        for word in words { #expect(refusal.message.contains(word), "\(refusal.message)") }
        #expect(refusal.message.contains("Usage: notiplay \(arguments[0])"), "\(refusal.message)")
    }

    @Test(
        "A command line ArgumentParser cannot read: 64, naming what is wrong",
        arguments: [
            (["play", "x.wav", "--bogus"], "'--bogus'"),
            (["play"], "<file>"),
            (["play", "a.wav", "b.wav"], "'b.wav'"),
            (["deliver", "p.apns", "--attach"], "--attach"),
            (["validate", "--json"], "<file>"),
            (["frobnicate"], "'frobnicate'"),
        ])
    func usageErrors(arguments: [String], word: String) throws {
        let refusal = try #require(ending(arguments))
        #expect(refusal.status == ExitStatus.usage)
        #expect(refusal.message.contains(word), "\(refusal.message)")
        #expect(refusal.message.contains("Usage:"), "\(refusal.message)")
    }

    @Test func helpVersionAndCompletionsExitZero() throws {
        let version = try #require(ending(["--version"]))
        #expect(version.message == NotiplayCLI.version && version.status == 0)

        let help = try #require(ending(["--help"]))
        #expect(help.status == 0)
        for command in ["play", "deliver", "validate", "extensions", "test", "Exit status"] {
            #expect(help.message.contains(command), "\(command)")
        }
        let deliverHelp = try #require(ending(["deliver", "--help"]))
        #expect(deliverHelp.status == 0)
        for option in ["--attach <file>", "--keys <keys>", "--audio <null|auto|pcm:PATH>", "--response-timeout <seconds>"] {
            #expect(deliverHelp.message.contains(option), "\(option)")
        }
        let script = try #require(ending(["--generate-completion-script", "bash"]))
        #expect(script.status == 0 && script.message.contains("deliver"))
    }

    @Test func runReturnsTheStatusOfWhatWentWrong() async {
        #expect(await NotiplayCLI.run(["frobnicate"]) == ExitStatus.usage)
        #expect(await NotiplayCLI.run([]) == ExitStatus.usage)
        // Help for a command that does not exist is a usage error, not the overall help.
        #expect(await NotiplayCLI.run(["frobnicate", "--help"]) == ExitStatus.usage)
        #expect(await NotiplayCLI.run(["help", "frobnicate"]) == ExitStatus.usage)
        #expect(await NotiplayCLI.run(["play", "--audio", "loud", "x.wav"]) == ExitStatus.usage)
        #expect(await NotiplayCLI.run(["validate", "/no/such/file.apns"]) == ExitStatus.missingInput)
        #expect(await NotiplayCLI.run(["test", "/no/such/folder"]) == ExitStatus.missingInput)
    }
}

@Suite struct ManyPathsTests {
    @Test("validate and test: the paths are set aside from the options; an option's value stays with it")
    func setAside() throws {
        let split = try #require(ManyPaths.setAside(["test", "a", "--jobs", "2", "b", "--tap", "--", "-c"]))
        #expect(split.parse == ["test", "--jobs", "2", "--tap", "--", "a"])
        #expect(split.paths == ["a", "b", "-c"])
        #expect(ManyPaths.setAside(["validate", "--json"])?.parse == ["validate", "--json"])
        #expect(ManyPaths.setAside(["play", "x.wav"]) == nil)
    }

    @Test("10,000 paths reach validate whole and in order")
    func manyReachTheCommand() async throws {
        let paths = (1...10_000).map { "p\($0).apns" }
        let split = try #require(ManyPaths.setAside(["validate", "--json"] + paths))
        let command = ManyPaths.giveBack(split.paths, to: try NotiplayCommand.parseAsRoot(split.parse))
        let validate = try #require(command as? ValidateCommand)
        #expect(validate.files == paths && validate.json)
    }
}
