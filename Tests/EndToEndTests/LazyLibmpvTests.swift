import Foundation
import NotiplayTestSupport
import Testing

/// libmpv is loaded when something plays, never at start: the dynamic loader's own record
/// (`LD_DEBUG=files`) says which libraries a run mapped, and `NOTIPLAY_LIBMPV` points the binary
/// at a library that is not there.
@Suite("libmpv loads only when something plays", .tags(.endToEnd))
struct LazyLibmpvTests {
    static let missing = "/nonexistent/notiplay-test/libmpv.so.2"

    /// Runs `notiplay arguments` with `environment` added.
    func notiplay(_ arguments: [String], adding environment: [String: String]) async throws -> RunResult {
        var all = E2E.childEnvironment
        all.merge(environment) { _, added in added }
        return try await run(try E2E.binary(), arguments, environment: all)
    }

    /// What the dynamic loader wrote about the files it mapped during `notiplay arguments`.
    func loaderRecord(_ arguments: [String]) async throws -> (RunResult, String) {
        let folder = try E2E.scratch()
        defer { E2E.remove(folder) }
        let result = try await notiplay(
            arguments, adding: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": folder.appendingPathComponent("ld").path])
        var record = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            record += try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        #expect(!record.isEmpty, "the loader wrote no record of \(arguments)")
        return (result, record)
    }

    @Test(
        "Commands that play nothing never map libmpv",
        arguments: [
            ["--version"], ["--help"], ["validate", E2E.media("voice-memo.apns")],
            ["extensions", "--extensions", E2E.media("Extensions")],
        ])
    func noLibmpv(_ arguments: [String]) async throws {
        let (result, record) = try await loaderRecord(arguments)
        #expect(result.status == 0, "\(result)")
        #expect(!record.contains("libmpv"))
    }

    @Test("play maps libmpv, with dlopen")
    func playLoadsIt() async throws {
        let (result, record) = try await loaderRecord(["play", E2E.media("tone-1s.wav"), "--audio", "null", "--untimed"])
        #expect(result.status == 0, "\(result)")
        #expect(record.contains("file=libmpv.so.2 [0];  dynamically loaded by"))
    }

    @Test(
        "Without libmpv, what plays exits 69 naming the library and its package",
        arguments: [
            ["play", E2E.media("tone-1s.wav"), "--audio", "null"],
            ["deliver", E2E.media("voice-memo.apns"), "--headless", "--audio", "null"],
            ["test", E2E.root.appendingPathComponent("Samples/Balance").path],
        ])
    func missingLibmpv(_ arguments: [String]) async throws {
        let result = try await notiplay(arguments, adding: ["NOTIPLAY_LIBMPV": Self.missing])
        #expect(result.status == 69, "\(result)")
        let lines = result.stderrLines.filter { $0.contains(Self.missing) }
        #expect(lines.count == 1, "\(result)")
        #expect(lines.first?.contains("install the libmpv2 package") == true, "\(result)")
    }

    @Test(
        "Without libmpv, what plays nothing works",
        arguments: [["--version"], ["validate", E2E.media("voice-memo.apns")], ["extensions", "--extensions", E2E.media("Extensions")]])
    func worksWithout(_ arguments: [String]) async throws {
        let result = try await notiplay(arguments, adding: ["NOTIPLAY_LIBMPV": Self.missing])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderrText.contains("libmpv"), "\(result)")
    }

    @Test("A library that is not libmpv: exit 69, the function it lacks")
    func notLibmpv() async throws {
        let result = try await notiplay(
            ["play", E2E.media("tone-1s.wav"), "--audio", "null"], adding: ["NOTIPLAY_LIBMPV": "libc.so.6"])
        #expect(result.status == 69, "\(result)")
        #expect(result.stderrText.contains("libc.so.6 has no function mpv_client_api_version"), "\(result)")
    }
}
