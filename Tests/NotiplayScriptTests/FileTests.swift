import Foundation
import Testing

@testable import NotiplayScript

/// A new scratch folder, removed by the caller.
func scratchFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-script-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite("Reading script files")
struct FileTests {
    /// Writes `bytes` to `name` in a new folder and returns the error parsing it gives (nil if none).
    func fileError(_ bytes: [UInt8], name: String = "t.playback") throws -> ScriptError? {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ScriptParser.parse(contentsOf: path)
            return nil
        } catch {
            #expect(error.path == path)
            return error
        }
    }

    @Test("A good file parses, with paths resolved against its folder")
    func good() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/ok.playback"
        try Data("deliver p.apns attach ../m.ogg\nexpect button play\n".utf8).write(to: URL(fileURLWithPath: path))
        let script = try ScriptParser.parse(contentsOf: path)
        #expect(script.path == path)
        #expect(
            script.steps == [
                ScriptStep(line: 1, column: 1, kind: .deliver(payload: folder + "/p.apns", attachments: [folder + "/../m.ogg"])),
                ScriptStep(line: 2, column: 1, kind: .expectButton(.play)),
            ])
    }

    @Test("A missing file, a directory, an unusable path: line 0, column 0")
    func unreadable() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func error(_ path: String) -> ScriptError? {
            do {
                _ = try ScriptParser.parse(contentsOf: path)
                return nil
            } catch {
                return error
            }
        }
        #expect(error(folder + "/none.playback") == ScriptError(path: folder + "/none.playback", line: 0, column: 0, message: "no such file"))
        #expect(error(folder + "/none/x.playback")?.message == "no such file")
        #expect(error(folder) == ScriptError(path: folder, line: 0, column: 0, message: "is a directory, not a playback script"))
        #expect(error("")?.message == "is not a usable path")
        #expect(error("a\0b")?.message == "is not a usable path")
        #expect(error("/dev/null")?.message == "is not a regular file, so not a playback script")
        if getuid() != 0 {
            let locked = folder + "/locked.playback"
            try Data("deliver p.apns".utf8).write(to: URL(fileURLWithPath: locked))
            chmod(locked, 0)
            #expect(error(locked)?.message == "cannot be read: Permission denied")
        }
    }

    @Test("NUL bytes and bad UTF-8: at the line and column of the byte")
    func badBytes() throws {
        #expect(
            try fileError(Array("deliver p.apns\nwait 1\0s".utf8))?.with(path: "")
                == ScriptError(
                    path: "", line: 2, column: 7,
                    message: "NUL byte: a playback script is text, and this looks like a binary file"))
        let latin1 = Array("deliver p.apns\n# old caf".utf8) + [0xE9, 0x0A]
        let error = try #require(try fileError(latin1))
        #expect(error.line == 2 && error.column == 10, "\(error)")
        #expect(error.message == "not UTF-8 text (byte 0xE9); save the script as UTF-8")
        // Columns count scalars, as the parser's do.
        #expect(try fileError(Array("é🔊".utf8) + [0xFF])?.column == 3)
        // A byte-order mark is accepted and not counted.
        #expect(try fileError([0xEF, 0xBB, 0xBF] + Array("deliver p.apns\n".utf8)) == nil)
        #expect(try fileError([0xEF, 0xBB, 0xBF, 0x80])?.column == 1)
        // Overlong forms, surrogates, values past U+10FFFF, cut-off sequences.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            let error = try fileError(Array("deliver p.apns\nwait 1".utf8) + bad)
            #expect(error?.line == 2 && error?.column == 7 && error?.message.hasPrefix("not UTF-8 text") == true, "\(bad)")
        }
    }

    @Test("A file over 1 MB is refused; one of exactly 1 MB is read")
    func size() throws {
        let line = Array("# padding padding padding padding padding padding padding padding\n".utf8)
        var big = Array("deliver p.apns\n".utf8)
        while big.count + line.count <= ScriptParser.maximumFileSize { big += line }
        big += Array(repeating: 0x20, count: ScriptParser.maximumFileSize - big.count)
        #expect(big.count == 1_048_576)
        #expect(try fileError(big) == nil)
        let error = try #require(try fileError(big + [0x0A]))
        #expect(error.line == 0 && error.column == 0)
        #expect(error.message == "is 1048577 bytes; a playback script may be at most 1 MB (1048576 bytes)")
    }
}

extension ScriptError {
    /// The same error with another path (for comparing errors from scratch folders).
    func with(path: String) -> ScriptError {
        var copy = self
        copy.path = path
        return copy
    }
}
