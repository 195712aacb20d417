import NotiplayCore
import Testing

@testable import NotiplayCommandLine

@Suite struct CommandLineParserTests {
    let spec = CommandSpec(
        name: "try",
        abstract: "A test command.",
        positionals: [PositionalSpec(name: "FILE", help: "a file", variadic: true)],
        options: [
            OptionSpec(name: "audio", value: "OUT", help: "output"),
            OptionSpec(name: "attach", value: "FILE", help: "attachment", repeatable: true),
            OptionSpec(name: "untimed", value: nil, help: "fast"),
        ],
        run: { _ in }
    )

    @Test func parsesValuesFlagsAndPositionals() throws {
        let parsed = try spec.parse(["a.wav", "--audio=null", "--attach", "x", "--untimed", "--attach", "y", "b.wav"])
        #expect(parsed.positionals == ["a.wav", "b.wav"])
        #expect(parsed.value("audio") == "null")
        #expect(parsed.all("attach") == ["x", "y"])
        #expect(parsed.flag("untimed"))
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try spec.parse(["--", "--untimed", "-x"])
        #expect(parsed.positionals == ["--untimed", "-x"])
        #expect(!parsed.flag("untimed"))
    }

    @Test(arguments: [
        (["a", "--bogus"], "unknown option '--bogus'"),
        (["a", "-x"], "unknown option '-x'"),
        (["a", "--audio"], "--audio needs a value"),
        (["a", "--audio", "x", "--audio", "y"], "more than once"),
        (["a", "--untimed=yes"], "takes no value"),
        ([], "missing FILE"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let error = #expect(throws: UsageError.self) { try spec.parse(arguments) }
        #expect(error?.reason.contains(message) == true, "\(error?.reason ?? "")")
        #expect(error?.reason.contains("Usage: notiplay try") == true)
    }

    @Test func helpListsEverything() {
        for word in ["Usage: notiplay try FILE...", "--audio OUT", "[--attach FILE]...", "--untimed", "--help"] {
            #expect(spec.help.contains(word), "\(word)")
        }
    }

    @Test func unknownCommandsAndHelpExitAsDocumented() async {
        #expect(await NotiplayCLI.run(["frobnicate"]) == 64)
        #expect(await NotiplayCLI.run([]) == 64)
        #expect(await NotiplayCLI.run(["play", "--audio", "loud", "x.wav"]) == 64)
        #expect(await NotiplayCLI.run(["play", "x.wav", "--events", "xml"]) == 64)
    }
}
