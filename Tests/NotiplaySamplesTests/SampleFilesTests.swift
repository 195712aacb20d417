import NotiplayCore
import Foundation
import Notiplay
import NotiplayTestSupport
import Testing

@testable import NotiplaySamples

/// The built `notiplay` binary: `$NOTIPLAY_BIN`, else the one next to the running tests
/// (`swift build --build-tests` puts both in `.build/debug/`).
enum Binary {
    static let path: String = {
        if let path = ProcessInfo.processInfo.environment["NOTIPLAY_BIN"], !path.isEmpty { return path }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // An .xctest bundle on Linux is the executable itself, in the build folder.
        if folder.lastPathComponent.hasSuffix(".xctest") { folder = folder.deletingLastPathComponent() }
        return folder.appendingPathComponent("notiplay").path
    }()

    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "status \(status)\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)" }

        /// `--events jsonl` output, one object per line.
        var events: [[String: Any]] {
            stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        /// The `event` names of ``events``.
        var names: [String] { events.compactMap { $0["event"] as? String } }
    }

    /// Runs `notiplay arguments` from the repository's root with `environment` added, killing it
    /// after `timeout` seconds.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) async throws -> Result {
        try #require(FileManager.default.isExecutableFile(atPath: path), "no notiplay binary at \(path): swift build --build-tests first")
        let scratch = try TestMedia.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out")
        let err = scratch.appendingPathComponent("err")
        try Data().write(to: out)
        try Data().write(to: err)
        // Through swift-subprocess, not Foundation's Process (see Tests/Support/SpawnAndWait.swift):
        // `sh` sets the folder and the environment, then becomes notiplay.
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted($0.value))" }
        let command = "cd \(quoted(TestMedia.root.path)) && exec env -u NOTIPLAY_LOG \(assignments.joined(separator: " ")) "
            + "\(quoted(path)) \(arguments.map(quoted).joined(separator: " ")) </dev/null"
        guard case .exited(let status)? = await TestChild.run("/bin/sh", ["-c", command], stdout: out.path, stderr: err.path, seconds: timeout)
        else { throw SampleRunFailed(arguments: arguments) }
        return Result(
            status: status,
            stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }
}

@Suite("The samples' files: valid, registered, small, and delivered by the notiplay binary")
struct SampleFilesTests {
    /// Every payload, app file and bundle of every sample.
    static var files: [String] {
        SampleFiles.names.flatMap { name -> [String] in
            let folder = SampleFiles.path(name)
            let payloads = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".apns") }.sorted()
            return payloads.map { "\(folder)/\($0)" } + ["\(folder)/\(name).app.json", "\(folder)/Extensions/\(name).appex"]
        }
    }

    @Test("Every payload, app file and Info.plist passes the validator, without warnings")
    func validate() {
        #expect(Self.files.count >= 20)
        for file in Self.files {
            let result = FileValidator().validate(file)
            #expect(result.valid && result.warnings.isEmpty, "\(file): \(result.errors) \(result.warnings)")
        }
    }

    @Test("notiplay validate accepts them all (exit 0)")
    func validateCommand() async throws {
        let result = try await Binary.run(["validate"] + Self.files)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.split(separator: "\n").filter { $0.contains(": valid ") }.count == Self.files.count, "\(result)")
    }

    @Test("Each sample's bundle names a type Samples.register(in:) registers; an author's type of the same name wins")
    @MainActor
    func registration() throws {
        var types = ExtensionTypes()
        Samples.register(in: &types)
        #expect(Set(Samples.typeNames).isSubset(of: Set(types.names)) && Samples.typeNames.count == 5)
        for name in SampleFiles.names {
            let registry = try ExtensionRegistry.load(folder: SampleFiles.path("\(name)/Extensions"))
            try types.check(registry)
            let manifest = try #require(registry.extensions.first)
            #expect(manifest.bundleName == name)
            let factory = try #require(types.factory(for: manifest.typeName))
            let made = factory()
            #expect(String(describing: type(of: made)).hasPrefix(name), "\(name): \(type(of: made))")
        }
        // NagMe's bundle (Media/Extensions) is not a sample: still unknown to the plain types.
        let nagme = try ExtensionRegistry.load(folder: TestMedia.path("Extensions"))
        #expect(throws: RegistryError.self) { try types.check(nagme) }

        var own = ExtensionTypes()
        own.register(DefaultContentExtension.self, as: "Reminder.ReminderViewController")
        Samples.register(in: &own)
        let mine = try #require(own.factory(for: "Reminder.ReminderViewController"))
        #expect(mine() is DefaultContentExtension)
        #expect(own.factory(for: "Balance.BalanceViewController") != nil)
    }

    @Test("Each sample stays under 300 KB")
    func sizes() throws {
        for name in SampleFiles.names {
            let folder = SampleFiles.path(name)
            var total = 0
            let items = try #require(FileManager.default.enumerator(atPath: folder))
            for case let item as String in items {
                let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + item)
                if attributes[.type] as? FileAttributeType == .typeRegular {
                    total += try URL(fileURLWithPath: folder + "/" + item).resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 1_000_000
                }
            }
            #expect(total > 1_000 && total < 300_000, "\(name): \(total) bytes")
        }
    }

    // MARK: The binary

    func environment(_ scratch: URL) -> [String: String] {
        ["NOTIPLAY_SAMPLES_STORE": scratch.appendingPathComponent("store").path, "NOTIPLAY_CACHE_DIR": scratch.appendingPathComponent("cache").path]
    }

    func deliver(_ name: String, _ payload: String, keys: String, extra: [String] = [], scratch: URL) async throws -> Binary.Result {
        try await Binary.run(
            ["deliver", "Samples/\(name)/\(payload)", "--app", "Samples/\(name)/\(name).app.json", "--headless", "--keys", keys,
             "--audio", "null", "--events", "jsonl"] + extra,
            environment: environment(scratch))
    }

    @Test("notiplay deliver: Reminder presents with its extension, swaps its action and saves to $NOTIPLAY_SAMPLES_STORE")
    func deliverReminder() async throws {
        let scratch = try TestMedia.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let before = try FileManager.default.contentsOfDirectory(atPath: SampleFiles.path("Reminder")).sorted()
        let result = try await deliver("Reminder", "reminder.apns", keys: "1 1 1", scratch: scratch)
        #expect(result.status == 0, "\(result)")
        #expect(result.events.first?["extension"] as? String == "Reminder", "\(result)")
        #expect(result.events.filter { $0["event"] as? String == "actions" }.compactMap { $0["identifiers"] as? String }
            == ["complete-reminder", "pending-reminder", "complete-reminder", "pending-reminder"], "\(result)")
        #expect(result.events.filter { $0["event"] as? String == "response" }.allSatisfy { $0["option"] as? String == "doNotDismiss" })
        let store = try String(contentsOfFile: scratch.appendingPathComponent("store/reminders.json").path, encoding: .utf8)
        #expect(store.contains("\"isCompleted\" : true"), "\(store)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: SampleFiles.path("Reminder")).sorted() == before, "nothing written next to the payload")
        // A second process sees the status.
        let again = try await deliver("Reminder", "reminder.apns", keys: "", scratch: scratch)
        #expect(again.events.first { $0["event"] as? String == "actions" }?["identifiers"] as? String == "pending-reminder", "\(again)")
    }

    @Test("notiplay deliver: Balance tops up asynchronously and keeps the card")
    func deliverBalance() async throws {
        let scratch = try TestMedia.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try await deliver("Balance", "balance.apns", keys: "2", scratch: scratch)
        #expect(result.status == 0, "\(result)")
        #expect(result.names == ["didReceive", "buttonState", "action", "response"], "\(result)")
        #expect(result.events.first?["extension"] as? String == "Balance")
        #expect(result.events.last?["option"] as? String == "doNotDismiss")
        let waited = (result.events[3]["t"] as? Double ?? 0) - (result.events[2]["t"] as? Double ?? 0)
        // A lower bound only: the binary's provider sleeps 400 ms on the real clock, which never
        // ends early; a busy machine makes it longer, never shorter.
        #expect(waited >= 0.3, "the top-up took \(waited) s")
    }

    @Test("notiplay deliver, not on a terminal: CustomNumber's card as text with the number in block digits")
    func deliverCustomNumber() async throws {
        let result = try await Binary.run(
            ["deliver", "Samples/CustomNumber/custom-number.apns", "--app", "Samples/CustomNumber/CustomNumber.app.json",
             "--keys", "enter", "--audio", "null"], environment: ["COLUMNS": "60"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("███ ███") && result.stdout.contains("customNumber"), "\(result)")
        #expect(result.stdout.contains("extension=CustomNumber") && result.stdout.contains("forwarded  action=com.apple.UNNotificationDefaultActionIdentifier"), "\(result)")
    }

    @Test("notiplay deliver: VoiceMemo fetches its memo, plays it to the end and reports start and end")
    func deliverVoiceMemo() async throws {
        let scratch = try TestMedia.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try await deliver("VoiceMemo", "voice-memo.apns", keys: "space ~end q", extra: ["--untimed"], scratch: scratch)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.names == [
                "service", "didReceive", "buttonState", "mediaPlay", "buttonState", "playback", "mediaPlayingStarted", "playback",
                "mediaPlayingPaused", "buttonState",
            ], "\(result)")
        #expect(result.events[1]["extension"] as? String == "VoiceMemo")
        #expect(result.events.compactMap { $0["state"] as? String } == ["play", "pause", "started", "ended", "play"], "\(result)")
    }

    @Test("notiplay extensions lists a sample's bundle without a note; NagMe's gets one on standard error")
    func extensionsCommand() async throws {
        let sample = try await Binary.run(["extensions", "--extensions", "Samples/Preview/Extensions"])
        #expect(sample.status == 0 && sample.stderr.isEmpty, "\(sample)")
        #expect(sample.stdout.contains("Preview.PreviewViewController  preview"), "\(sample)")
        let nagme = try await Binary.run(["extensions", "--extensions", "Media/Extensions"])
        #expect(nagme.status == 0 && nagme.stdout.split(separator: "\n").count == 3, "\(nagme)")
        #expect(nagme.stderr.contains("note:") && nagme.stderr.contains("NagMe.NotificationViewController"), "\(nagme)")
    }
}

extension RealTime {
    /// The binary delivering Preview with a tap while it plays in real time.
    @Suite("The samples' files: Preview delivered in real time", .tags(.realEngine))
    struct SampleFilesTimeTests {
        func deliver(_ name: String, _ payload: String, keys: String, scratch: URL) async throws -> Binary.Result {
            try await SampleFilesTests().deliver(name, payload, keys: keys, scratch: scratch)
        }

        /// The tap comes 0.5 s into the 3 s ringtone: on a 2-core machine with two busy loops
        /// beside it, still while it plays. It catches a tap that does not pause (no `mediaPause`,
        /// or the end reported last) and an overlay not hidden while playing.
        @Test("notiplay deliver: Preview's overlay hides while playing and a tap pauses it")
        func deliverPreview() async throws {
            let scratch = try TestMedia.scratch()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let result = try await deliver("Preview", "preview.apns", keys: "space ~500ms tap ~200ms q", scratch: scratch)
            #expect(result.status == 0, "\(result)")
            #expect(result.events[1]["extension"] as? String == "Preview", "\(result)")
            let buttons = result.events.filter { $0["event"] as? String == "buttonState" }.compactMap { $0["state"] as? String }
            #expect(buttons == ["play", "hidden", "play"], "\(result)")
            #expect(result.names.contains("mediaPause") && result.names.last == "mediaPlayingPaused", "\(result)")
        }
    }
}

/// `text` as one word for `sh`.
private func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// notiplay did not end by itself in time, or could not be started.
struct SampleRunFailed: Error, CustomStringConvertible {
    var arguments: [String]
    var description: String { "notiplay \(arguments.joined(separator: " ")) did not run to its end" }
}
