import Foundation
import NotiplayCore
import NotiplayTestSupport
import Testing

/// Writes `files` (name → content) into a new scratch folder and returns it.
private func folder(_ files: [String: [UInt8]]) throws -> URL {
    let dir = try E2E.scratch()
    for (name, bytes) in files {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }
    return dir
}

private func text(_ s: String) -> [UInt8] { Array(s.utf8) }

private func jsonLines(_ result: RunResult) throws -> [[String: Any]] {
    try result.stdoutText.split(separator: "\n").map {
        try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
}

@Suite("validate and extensions: the real binary", .tags(.endToEnd))
struct ValidateTests {
    @Test("The bundled samples are all valid")
    func samples() async throws {
        let result = try await notiplay(
            "validate", E2E.media("nagme.apns"), E2E.media("voice-memo.apns"), E2E.media("NagMe.app.json"),
            E2E.media("Extensions/NagMe.appex"))
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 4, "\(result)")
        #expect(lines[0].hasSuffix(#"nagme.apns: valid payload (category "reminder", thread "chores", 223 bytes)"#), "\(result)")
        #expect(lines[2].contains(#"valid app file ("NagMe", categories reminder, voice-memo)"#), "\(result)")
        #expect(lines[3].contains(#"valid content extension ("NagMe.NotificationViewController" for reminder"#), "\(result)")
    }

    @Test("--json: one object per file with the fields of its kind; exit 65 when one is invalid")
    func json() async throws {
        let dir = try folder([
            "lunch.apns": text(#"{"aps": {"alert": {"title": "Lunch is ready"}, "thread-id": "kitchen", "category": "meal", "mutable-content": 1}, "table": 4}"#),
            "broken.apns": text(#"{"aps": {"alert": "no closing brace"}"#),
            "Ext/Info.plist": text(try String(contentsOfFile: E2E.media("Extensions/NagMe.appex/Info.plist"), encoding: .utf8)),
            "app.json": text(#"{"name": "Kitchen", "categories": [{"identifier": "meal"}]}"#),
        ])
        defer { E2E.remove(dir) }
        let paths = ["lunch.apns", "broken.apns", "Ext/Info.plist", "app.json"].map { dir.appendingPathComponent($0).path }
        let result = try await notiplay("validate", "--json", paths[0], paths[1], paths[2], paths[3])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let objects = try jsonLines(result)
        try #require(objects.count == 4, "\(result)")
        let lunch = objects[0]
        #expect(lunch["file"] as? String == paths[0] && lunch["kind"] as? String == "payload")
        #expect(lunch["valid"] as? Bool == true && (lunch["errors"] as? [Any])?.isEmpty == true)
        #expect(lunch["category"] as? String == "meal" && lunch["threadIdentifier"] as? String == "kitchen")
        #expect(lunch["mutableContent"] as? Bool == true && lunch["bytes"] as? Int == 114)
        let broken = objects[1]
        #expect(broken["valid"] as? Bool == false)
        #expect((broken["errors"] as? [String])?.first?.hasPrefix("line 1, column 38:") == true, "\(broken)")
        let ext = objects[2]
        #expect(ext["kind"] as? String == "content-extension" && ext["valid"] as? Bool == true)
        #expect(ext["categories"] as? [String] == ["reminder"] && ext["contentSizeRatio"] as? Double == 0.1)
        #expect(ext["defaultContentHidden"] as? Bool == true && ext["overridesDefaultTitle"] as? Bool == false)
        #expect(ext["userInteractionEnabled"] as? Bool == false)
        #expect(ext["principalClass"] as? String == "NagMe.NotificationViewController")
        let app = objects[3]
        #expect(app["kind"] as? String == "app" && app["name"] as? String == "Kitchen")
    }

    @Test(
        "Bad payloads: a clear error, exit 65, no crash",
        arguments: [
            ("malformed.apns", text("{\n  \"aps\": {\"alert\": }\n}"), "line 2, column 20"),
            ("comments.apns", text("{\n  /* hi */ \"aps\": {}\n}"), "comments are not allowed"),
            ("trailing.apns", text(#"{"aps": {"alert": "x",}}"#), "trailing comma"),
            ("array.apns", text(#"[{"aps": {}}]"#), "a payload is a JSON object"),
            ("noaps.apns", text(#"{"alert": "x"}"#), "aps: missing"),
            ("badge.apns", text(#"{"aps": {"alert": "x", "badge": "3"}}"#), #"aps.badge: expected an integer"#),
            ("big.apns", text(#"{"aps": {"alert": ""# + String(repeating: "y", count: 5000) + #""}}"#), "APNs accepts at most 4096"),
            ("latin1.apns", text(#"{"aps": {"alert": "caf"#) + [0xE9] + text(#""}}"#), "UTF-8"),
            ("deep.apns", text(String(repeating: "[", count: 100_000)), "nesting deeper than 512"),
            ("empty.apns", [], "empty"),
        ])
    func badPayloads(_ name: String, _ bytes: [UInt8], _ expected: String) async throws {
        let dir = try folder([name: bytes])
        defer { E2E.remove(dir) }
        let path = dir.appendingPathComponent(name).path
        let result = try await notiplay("validate", path)
        #expect(result.status == 65 && !result.signaled, "\(result)")
        #expect(result.stdoutText.contains("\(name): invalid payload"), "\(result)")
        #expect(result.stdoutText.contains(expected), "\(result)")
        let json = try await notiplay("validate", "--json", path)
        #expect(json.status == 65, "\(json)")
        let object = try #require(try jsonLines(json).first)
        #expect((object["errors"] as? [String])?.contains { $0.contains(expected) } == true, "\(json)")
    }

    @Test("--no-payload-limit lifts the 4096-byte limit")
    func payloadLimit() async throws {
        let dir = try folder(["big.apns": text(#"{"aps": {"alert": ""# + String(repeating: "y", count: 5000) + #""}}"#)])
        defer { E2E.remove(dir) }
        let result = try await notiplay("validate", "--no-payload-limit", dir.appendingPathComponent("big.apns").path)
        #expect(result.status == 0, "\(result)")
    }

    @Test("Escape sequences in a payload never reach the terminal raw")
    func escapes() async throws {
        let dir = try folder(["evil.apns": text(#"{"aps": {"alert": "x", "category": "\u001b]52;c;aGk=\u0007\u001b[2J"}}"#)])
        defer { E2E.remove(dir) }
        let result = try await notiplay("validate", dir.appendingPathComponent("evil.apns").path)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains(0x1B) && !result.stdout.contains(0x07), "\(result)")
    }

    @Test("A binary Info.plist is read like the XML one; a broken one names its byte offset")
    func binaryPlist() async throws {
        let xml = try String(contentsOfFile: E2E.media("Extensions/NagMe.appex/Info.plist"), encoding: .utf8)
        let binary = PropertyListWriter.binary(try PropertyListParser.parse(Array(xml.utf8)).value)
        let dir = try folder(["Bin.appex/Info.plist": binary, "Cut.appex/Info.plist": Array(binary.prefix(binary.count - 10))])
        defer { E2E.remove(dir) }
        let result = try await notiplay(
            "validate", "--json", dir.appendingPathComponent("Bin.appex").path, dir.appendingPathComponent("Cut.appex").path)
        #expect(result.status == 65, "\(result)")
        let objects = try jsonLines(result)
        try #require(objects.count == 2, "\(result)")
        #expect(objects[0]["valid"] as? Bool == true && objects[0]["categories"] as? [String] == ["reminder"], "\(result)")
        #expect(objects[0]["principalClass"] as? String == "Bin.NotificationViewController", "\(result)")
        #expect(objects[1]["valid"] as? Bool == false, "\(result)")
        #expect((objects[1]["errors"] as? [String])?.first?.hasPrefix("byte ") == true, "\(result)")
    }

    @Test("A key written twice: a warning naming it and both lines, the file still valid (exit 0)")
    func duplicateKeys() async throws {
        let dir = try folder([
            "twice.apns": text("{\n  \"aps\": {\"alert\": \"a\"},\n  \"aps\": {\"alert\": \"b\",\n    \"alert\": \"c\"}\n}\n"),
            "Memo.app.json": text("{\"name\": \"A\",\n \"name\": \"B\"}"),
        ])
        defer { E2E.remove(dir) }
        let paths = ["twice.apns", "Memo.app.json"].map { dir.appendingPathComponent($0).path }
        let result = try await notiplay("validate", paths[0], paths[1])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(
            result.stdoutText == """
                \(paths[0]): valid payload (no category, 53 bytes)
                  warning: line 3, column 3: duplicate key "aps" (first at line 2); the last one is used
                  warning: line 4, column 5: duplicate key "alert" in aps (first at line 3); the last one is used
                \(paths[1]): valid app file ("B", no categories)
                  warning: line 2, column 2: duplicate key "name" (first at line 1); the last one is used

                """, "\(result)")
        let json = try await notiplay("validate", "--json", paths[0])
        let object = try #require(try jsonLines(json).first)
        #expect(object["valid"] as? Bool == true && (object["warnings"] as? [String])?.count == 2, "\(json)")
    }

    @Test("What an invalid file was taken for: an *.app.json by its name, a folder as an extension bundle, other text as a payload")
    func takenFor() async throws {
        let dir = try folder([
            "x.app.json": text("{\"name\": \"X\", \"junk\": \"" + String(repeating: "y", count: 5000) + "\",\n ,}"),
            "Stuff/README": text("not an extension"),
            "notes.json": text("not JSON"),
        ])
        defer { E2E.remove(dir) }
        let paths = ["x.app.json", "Stuff", "notes.json"].map { dir.appendingPathComponent($0).path }
        let result = try await notiplay("validate", paths[0], paths[1], paths[2])
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stdoutText == """
                \(paths[0]): invalid app file (taken for one by its name)
                  error: line 2, column 2: unexpected ','; expected a member name in double quotes
                \(paths[1]): invalid extension bundle (taken for one as a folder)
                  error: has no Info.plist; an extension bundle holds one
                \(paths[2]): invalid payload (taken for one: neither its name nor its content says otherwise)
                  error: line 1, column 1: unexpected 'n'; expected a value (true, false, null, a number, a string, an array or an object)

                """, "\(result)")
        let json = try await notiplay("validate", "--json", paths[0], paths[1])
        let objects = try jsonLines(json)
        try #require(objects.count == 2, "\(json)")
        #expect(objects[0]["kind"] as? String == "app" && objects[0]["judgedBy"] as? String == "name", "\(json)")
        #expect(objects[1]["kind"] as? String == "content-extension" && objects[1]["judgedBy"] as? String == "folder", "\(json)")
    }

    @Test("A missing file: exit 66, naming it")
    func missing() async throws {
        let result = try await notiplay("validate", "/no/such/file.apns")
        #expect(result.status == 66, "\(result)")
        #expect(result.stdoutText.contains("/no/such/file.apns: invalid payload (taken for one by its name)\n  error: no such file"), "\(result)")
    }

    /// A folder with three scripts (good, with a syntax error, naming missing files) and the files
    /// the good one names.
    private func scripts() throws -> URL {
        try folder([
            "good.playback": text("# plays the memo\napp app.json\nextensions Ext\ndeliver p.apns attach \"memo 1.wav\"\npress play\nexpect button pause\n"),
            "syntax.playback": text("deliver p.apns\nwait 1x\n"),
            "missing.playback": text("deliver p.apns attach gone.wav\n\n  app nope.json\nextensions p.apns\n"),
            "app.json": text(#"{"name": "Memo"}"#),
            "Ext/README": text("extensions go here"),
            "p.apns": text(#"{"aps": {"alert": "memo"}}"#),
            "memo 1.wav": text("not really audio"),
        ])
    }

    @Test("Scripts: valid with its step count, a syntax error by line and column, missing files by step; exit 65")
    func scriptsText() async throws {
        let dir = try scripts()
        defer { E2E.remove(dir) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let good = try await notiplay("validate", path("good.playback"))
        #expect(good.status == 0, "\(good)")
        #expect(good.stdoutText == "\(path("good.playback")): valid playback script (5 steps)\n", "\(good)")

        let syntax = try await notiplay("validate", path("syntax.playback"))
        #expect(syntax.status == 65 && !syntax.signaled, "\(syntax)")
        #expect(
            syntax.stdoutText == """
                \(path("syntax.playback")): invalid playback script (taken for one by its name)
                  error: line 2, column 6: bad duration "1x"; write 250ms, 1.5s or a number of seconds

                """, "\(syntax)")

        let missing = try await notiplay("validate", path("missing.playback"), path("good.playback"))
        #expect(missing.status == 65, "\(missing)")
        #expect(
            missing.stdoutText == """
                \(path("missing.playback")): invalid playback script (taken for one by its name)
                  error: line 1, column 1: attachment \(path("gone.wav")): no such file
                  error: line 3, column 3: app file \(path("nope.json")): no such file
                  error: line 4, column 1: extensions folder \(path("p.apns")): is not a folder
                \(path("good.playback")): valid playback script (5 steps)

                """, "\(missing)")

        let absent = try await notiplay("validate", path("absent.playback"))
        #expect(absent.status == 66, "\(absent)")
        #expect(
            absent.stdoutText == "\(path("absent.playback")): invalid playback script (taken for one by its name)\n  error: no such file\n",
            "\(absent)")
    }

    @Test("Scripts with --json: kind script, errors with line and column, steps")
    func scriptsJSON() async throws {
        let dir = try scripts()
        defer { E2E.remove(dir) }
        let paths = ["good.playback", "syntax.playback", "missing.playback"].map { dir.appendingPathComponent($0).path }
        let result = try await notiplay("validate", "--json", paths[0], paths[1], paths[2])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let objects = try jsonLines(result)
        try #require(objects.count == 3, "\(result)")
        for (object, path) in zip(objects, paths) {
            #expect(object["file"] as? String == path && object["kind"] as? String == "script", "\(object)")
            #expect((object["warnings"] as? [Any])?.isEmpty == true, "\(object)")
        }
        #expect(objects[0]["valid"] as? Bool == true && (objects[0]["errors"] as? [Any])?.isEmpty == true)
        #expect(objects[0]["steps"] as? Int == 5, "\(objects[0])")
        #expect(objects[1]["valid"] as? Bool == false && objects[1]["steps"] is NSNull, "\(objects[1])")
        #expect(
            objects[1]["errors"] as? [String] == [#"line 2, column 6: bad duration "1x"; write 250ms, 1.5s or a number of seconds"#],
            "\(objects[1])")
        #expect(objects[2]["valid"] as? Bool == false && objects[2]["steps"] as? Int == 3, "\(objects[2])")
        #expect(
            objects[2]["errors"] as? [String] == [
                "line 1, column 1: attachment \(dir.path)/gone.wav: no such file",
                "line 3, column 3: app file \(dir.path)/nope.json: no such file",
                "line 4, column 1: extensions folder \(dir.path)/p.apns: is not a folder",
            ], "\(objects[2])")
    }

    @Test("extensions: a table of the bundles found; a category claimed twice names both, exit 65")
    func extensionsTable() async throws {
        let plist = try String(contentsOfFile: E2E.media("Extensions/NagMe.appex/Info.plist"), encoding: .utf8)
        let dir = try folder([
            "NagMe.appex/Info.plist": text(plist),
            "Copy.appex/Info.plist": text(plist.replacingOccurrences(of: "<string>reminder</string>", with: "<array><string>memo</string><string>reminder</string></array>")),
        ])
        defer { E2E.remove(dir) }
        let clash = try await notiplay("extensions", "--extensions", dir.path)
        #expect(clash.status == 65, "\(clash)")
        #expect(clash.stderrText.contains(#"category "reminder" is claimed by both Copy.appex and NagMe.appex"#), "\(clash)")

        try FileManager.default.removeItem(at: dir.appendingPathComponent("Copy.appex"))
        let result = try await notiplay("extensions", "--extensions", dir.path)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result)")
        #expect(lines[0].hasPrefix("NAME") && lines[0].contains("POINT") && lines[0].contains("CLASS") && lines[0].contains("CATEGORIES"))
        #expect(lines[1].contains("DefaultContentExtension"), "\(result)")
        #expect(lines[2].split(separator: " ", omittingEmptySubsequences: true) == ["NagMe", "content", "NagMe.NotificationViewController", "reminder"])

        let missing = try await notiplay("extensions", "--extensions", "/no/such/folder")
        #expect(missing.status == 66 && missing.stderrText.contains("/no/such/folder: no such folder"), "\(missing)")
    }

    @Test("An audio file is judged as an attachment, not as a payload over 1 MB: valid, too large, not audio, missing")
    func audioFiles() async throws {
        // 1.1 MB of silence in an AIFF (over the payload cap, under audio's 5 MB limit), 6 MB in
        // a WAV, and text named like audio.
        let aiff = text("FORM") + [0, 0x10, 0xC8, 0xE0] + text("AIFF") + [UInt8](repeating: 0, count: 1_100_000)
        let wav = text("RIFF") + [0, 0, 0x5C, 0] + text("WAVE") + [UInt8](repeating: 0, count: 6_000_000)
        let dir = try folder(["loop.aif": aiff, "long.wav": wav, "notes.mp3": text("not audio at all\n")])
        defer { E2E.remove(dir) }
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

        let valid = try await notiplay("validate", path("loop.aif"), E2E.media("chime.m4a"))
        #expect(valid.status == 0 && valid.stderr.isEmpty, "\(valid)")
        let lines = valid.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(valid)")
        #expect(lines.first == "\(path("loop.aif")): valid audio attachment (aiff, 1100012 bytes)", "\(valid)")
        #expect(lines.last?.hasPrefix("\(E2E.media("chime.m4a")): valid audio attachment (m4a, ") == true, "\(valid)")

        let json = try await notiplay("validate", "--json", path("loop.aif"))
        let object = try #require(try jsonLines(json).first)
        #expect(object["kind"] as? String == "attachment" && object["valid"] as? Bool == true, "\(json)")
        #expect(object["media"] as? String == "audio" && object["format"] as? String == "aiff", "\(json)")
        #expect(object["type"] as? String == "public.aiff-audio" && object["bytes"] as? Int == 1_100_012, "\(json)")

        let bad = try await notiplay("validate", path("long.wav"), path("notes.mp3"))
        #expect(bad.status == 65, "\(bad)")
        #expect(
            bad.stdoutText.contains(
                "long.wav: invalid audio attachment (taken for one by its name)\n  error: is 5.7 MB; the limit for audio attachments is 5.0 MB"),
            "\(bad)")
        #expect(bad.stdoutText.contains("notes.mp3: invalid attachment (taken for one by its name)\n  error: is text, not audio"), "\(bad)")
        #expect(!bad.stdoutText.contains("payload"), "\(bad)")

        let missing = try await notiplay("validate", path("gone.aif"))
        #expect(
            missing.status == 66 && missing.stdoutText.contains("gone.aif: invalid attachment (taken for one by its name)\n  error: no such file"),
            "\(missing)")
    }
}
