import Foundation
import NotiplayTestSupport
import Testing

@testable import NotiplayCore

/// What `validate` takes a file for, and what told it: the name first, then a folder, then the
/// content, else the payload fallback.
@Suite struct FileValidatorBasisTests {
    /// A scratch folder with `files` (relative path → bytes), removed by the caller.
    func folder(_ files: [String: [UInt8]]) throws -> URL {
        let dir = try Fixtures.scratch()
        for (name, bytes) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Fixtures.write(bytes, to: url)
        }
        return dir
    }

    @Test("An *.app.json that does not parse is an app file by its name: the syntax error, not a payload's 4096-byte limit")
    func appFileByName() throws {
        let big = "{\"name\": \"Memo\", \"junk\": \"" + String(repeating: "y", count: 5000) + "\",\n  ,}"
        let dir = try folder(["x.app.json": Array("{\n \"name\": \"X\",\n \"categories\": [,\n".utf8), "big.app.json": Array(big.utf8)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = FileValidator().validate(dir.appendingPathComponent("x.app.json").path)
        #expect(small.kind == .app && small.basis == .name && !small.isMissing, "\(small)")
        #expect(small.errors == [Diagnostic(line: 3, column: 17, "unexpected ','; expected a value")], "\(small)")
        let large = FileValidator().validate(dir.appendingPathComponent("big.app.json").path)
        #expect(large.kind == .app && large.basis == .name, "\(large)")
        #expect(large.errors.count == 1 && large.errors[0].line == 2, "\(large)")
        #expect(!large.errors.contains { $0.message.contains("4096") }, "\(large)")
    }

    @Test("A folder is taken for an extension bundle: without an Info.plist it says so, with one it is judged")
    func folders() throws {
        let plist = ExtensionPlist.content(category: "memo", principalClass: "MemoView")
        let dir = try folder([
            "Empty/README": Array("nothing here".utf8),
            "Memo/Info.plist": Array(plist.utf8),
            "Bare.appex/Info.plist": Array("<plist><dict></dict></plist>".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = FileValidator().validate(dir.appendingPathComponent("Empty").path)
        #expect(empty.basis == .folder && empty.pointUnknown && !empty.valid && !empty.isMissing, "\(empty)")
        #expect(empty.errors == [Diagnostic(key: nil, "has no Info.plist; an extension bundle holds one")], "\(empty)")
        let memo = FileValidator().validate(dir.appendingPathComponent("Memo").path)
        #expect(memo.kind == .contentExtension && memo.basis == .folder && memo.valid && !memo.pointUnknown, "\(memo)")
        let bare = FileValidator().validate(dir.appendingPathComponent("Bare.appex").path)
        #expect(bare.basis == .name && bare.pointUnknown && !bare.valid, "\(bare)")
    }

    @Test("By name, by content, or by neither", arguments: [
        ("memo.apns", #"{"name": "not an app"}"#, ValidatedKind.payload, ValidationBasis.name),
        ("memo.json", #"{"aps": {"alert": "hi"}}"#, .payload, .content),
        ("memo.json", #"{"name": "Memo"}"#, .app, .content),
        ("memo.json", "<plist><dict/></plist>", .contentExtension, .content),
        ("memo.json", "not JSON", .payload, .fallback),
        ("memo.json", #"{"alert": "hi"}"#, .payload, .fallback),
        ("song.flac", #"{"aps": {}}"#, .attachment, .name),
        ("Info.plist", "{}", .contentExtension, .name),
    ])
    func basis(name: String, content: String, kind: ValidatedKind, basis: ValidationBasis) throws {
        let dir = try folder([name: Array(content.utf8)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = FileValidator().validate(dir.appendingPathComponent(name).path)
        #expect(result.kind == kind && result.basis == basis, "\(result)")
        #expect(result.jsonObject["judgedBy"] == .string(basis.rawValue))
    }

    @Test("An image under any name is an attachment by its content; a missing file of no known name is the fallback")
    func attachmentAndMissing() throws {
        let dir = try folder(["picture.data": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = FileValidator().validate(dir.appendingPathComponent("picture.data").path)
        #expect(image.kind == .attachment && image.basis == .content && image.valid, "\(image)")
        let missing = FileValidator().validate(dir.appendingPathComponent("gone").path)
        #expect(missing.kind == .payload && missing.basis == .fallback && missing.isMissing, "\(missing)")
    }
}
