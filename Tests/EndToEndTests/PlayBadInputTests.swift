import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif


/// An input `notiplay play` must refuse: how to make it, and what the refusal must say.
struct BadInput: Sendable, CustomTestStringConvertible {
    var name: String
    var status: Int32
    /// Words stderr must contain (case-insensitive) on the line that names the input.
    var words: [String]
    /// Makes the input in a scratch folder; returns the argument to pass.
    var make: @Sendable (URL) throws -> String

    var testDescription: String { name }

    static func file(_ name: String, _ bytes: [UInt8]) -> @Sendable (URL) throws -> String {
        { folder in
            let url = folder.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
    }

    static let all: [BadInput] = [
        BadInput(name: "missing file", status: 66, words: ["no such file"]) { folder in
            folder.appendingPathComponent("missing.wav").path
        },
        BadInput(name: "empty file", status: 65, words: ["empty"], make: file("empty.wav", [])),
        BadInput(
            name: "4 KB of random bytes starting with 0x00", status: 65, words: ["not a recognised audio format"],
            make: file("noise.wav", [0] + pseudoRandomBytes(4095, seed: 42))),
        BadInput(name: "directory", status: 65, words: ["directory"]) { folder in
            let url = folder.appendingPathComponent("folder.wav")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            try Data().write(to: url.appendingPathComponent("inside.wav"))
            return url.path
        },
        BadInput(
            name: "text renamed to .mp3", status: 65, words: ["text"],
            make: file("notes.mp3", Array("Meeting notes\nBring the chime files.\n".utf8))),
        BadInput(name: "http URL", status: 65, words: ["URL"]) { _ in "http://example.com/x.mp3" },
        BadInput(name: "av://lavfi URL", status: 65, words: ["URL"]) { _ in "av://lavfi:sine=frequency=440" },
        BadInput(name: "file URL", status: 65, words: ["URL"]) { _ in "file:///dev/zero" },
        BadInput(name: "/dev/zero", status: 65, words: ["character device"]) { _ in "/dev/zero" },
        BadInput(
            name: "WAV header followed by garbage", status: 65, words: ["libmpv cannot play it", "unrecognized file format"],
            make: file("broken.wav", Array("RIFF".utf8) + [0x04, 0x10, 0, 0] + Array("WAVE".utf8) + pseudoRandomBytes(4096, seed: 7))),
    ]
}

@Suite("play refuses bad input", .tags(.endToEnd))
struct PlayBadInputTests {
    @Test("Bad input: exit status, a message naming it, nothing on stdout", arguments: BadInput.all)
    func refuse(input: BadInput) async throws {
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let argument = try input.make(scratch)

        let result = try await notiplay("play", argument, "--audio", "null", "--untimed")
        check(result, argument: argument, status: input.status, words: input.words)
    }

    @Test("An unreadable file (mode 000): 65 and permission denied")
    func unreadable() async throws {
        var binary = try E2E.binary()
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let path = scratch.appendingPathComponent("locked.wav").path
        try FileManager.default.copyItem(atPath: E2E.media("tone-1s.wav"), toPath: path)
        #expect(chmod(path, 0) == 0)

        var command: [String] = []
        if geteuid() == 0 {
            // Root reads anything: run as nobody (65534) instead.
            let setpriv = try #require(E2E.which("setpriv"), "setpriv (util-linux) is needed to run as a non-root user")
            let asNobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
            let probe = try await run(asNobody[0], Array(asNobody.dropFirst()) + [binary, "--version"])
            if probe.status != 0 {
                // The binary is not reachable by that user (a 0700 folder on its path): use a copy.
                let copy = scratch.appendingPathComponent("notiplay").path
                try FileManager.default.copyItem(atPath: binary, toPath: copy)
                #expect(chmod(copy, 0o755) == 0)
                binary = copy
                let again = try await run(asNobody[0], Array(asNobody.dropFirst()) + [binary, "--version"])
                try #require(again.status == 0, "user 65534 cannot run \(binary): \(again)")
            }
            command = asNobody
        }
        command += [binary, "play", path, "--audio", "null", "--untimed"]
        let result = try await run(command[0], Array(command.dropFirst()))
        check(result, argument: path, status: 65, words: ["permission denied"])
    }

    func check(
        _ result: RunResult, argument: String, status: Int32, words: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status && !result.signaled, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        let named = result.stderrLines.filter { $0.contains(argument) }
        #expect(!named.isEmpty, "stderr does not name \(argument): \(result)", sourceLocation: sourceLocation)
        for word in words {
            #expect(
                named.contains { $0.localizedCaseInsensitiveContains(word) },
                "stderr does not say \"\(word)\" about \(argument): \(result)", sourceLocation: sourceLocation)
        }
    }
}

extension RealTime {
    /// How soon a bad input is refused, measured in real time.
    @Suite("play refuses bad input quickly", .tags(.endToEnd))
    struct PlayBadInputTimeTests {
        /// 3 s, on a 2-core machine with two busy loops beside it: refusing takes a start-up of
        /// the binary (well under 1 s then). The bound catches a refusal that waits for something
        /// first: a URL fetched before it is refused, a device or a file read to its end before it
        /// is judged, a libmpv engine started and left to time out on an input it cannot play. A
        /// hang is caught without it, by the deterministic test's guard.
        static let bound = 3.0

        @Test("Bad input is refused within 3 s", arguments: BadInput.all)
        func refusedQuickly(input: BadInput) async throws {
            let scratch = try E2E.scratch()
            defer { E2E.remove(scratch) }
            let argument = try input.make(scratch)
            let result = try await notiplay("play", argument, "--audio", "null", "--untimed")
            PlayBadInputTests().check(result, argument: argument, status: input.status, words: input.words)
            #expect(result.wallSeconds <= Self.bound, "took \(result.wallSeconds) s: \(result)")
        }
    }
}
