import Foundation
import NotiplayCore
import Testing

@testable import NotiplayCommandLine

/// `notiplay validate` on `.playback` scripts that use the notification center.
@Suite struct ScriptValidationTests {
    /// A new folder holding `files` (name → text).
    func folder(_ files: [String: String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-validate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
        }
        return path
    }

    @Test("A center script: the steps counted, a missing payload and attachment of send named at their step")
    func centerScript() throws {
        let dir = try folder([
            "center.playback": """
                app app.json
                serve at 2026-01-05T09:00
                send here.apns attach here.wav id one after 30s
                send gone.apns attach missing.wav at 2026-01-06T08:00 repeat daily
                advance 1d
                expect delivered one
                """,
            "app.json": #"{"name": "Memo"}"#,
            "here.apns": #"{"aps": {"alert": "memo"}}"#,
            "here.wav": "not really audio",
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = ScriptValidation.validate(dir + "/center.playback")
        #expect(result.kind == .script && !result.isMissing)
        #expect(result.details["steps"] == .integer(6))
        #expect(
            result.errors == [
                Diagnostic(line: 4, column: 1, "payload \(dir)/gone.apns: no such file"),
                Diagnostic(line: 4, column: 1, "attachment \(dir)/missing.wav: no such file"),
            ])
    }

    @Test("A center script that breaks the language's rules is reported at the parser's line and column")
    func centerSyntax() throws {
        let dir = try folder(["bad.playback": "serve\nsend p.apns after 30s repeats\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = ScriptValidation.validate(dir + "/bad.playback")
        #expect(result.details["steps"] == .null)
        #expect(result.errors == [Diagnostic(line: 2, column: 19, "time interval must be at least 60 if repeating")])
    }
}
