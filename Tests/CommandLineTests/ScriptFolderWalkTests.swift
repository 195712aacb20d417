import Foundation
import Testing

@testable import NotiplayCommandLine

/// `notiplay test FOLDER`: which scripts a folder gives, links to folders included.
@Suite struct ScriptFolderWalkTests {
    /// A new folder, removed by the caller.
    func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-walk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func write(_ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("wait 1s\n".utf8).write(to: URL(fileURLWithPath: path))
    }

    func link(_ path: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: destination)
    }

    /// The walk's first `budget` scripts: a walk that loops gives the whole budget, never hangs.
    func walk(_ folder: String, budget: Int = 100) -> [String] {
        Array(ScriptFolderWalk(folder).prefix(budget))
    }

    @Test("Two links to the folder itself: each script once (the walk grew exponentially and never ended)")
    func linksToItself() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(dir + "/a.playback")
        try write(dir + "/sub/b.playback")
        try link(dir + "/again", to: ".")
        try link(dir + "/loop", to: ".")
        try link(dir + "/sub/up", to: "..")
        // Within a budget first: a walk that loops fails here rather than hanging below.
        try #require(walk(dir) == [dir + "/a.playback", dir + "/sub/b.playback"])
        #expect(TestCommand.scripts(under: dir) == [dir + "/a.playback", dir + "/sub/b.playback"])
    }

    @Test("A folder outside reached through two links: followed, its scripts given once")
    func outsideFolderTwice() throws {
        let dir = try scratch()
        let outside = try scratch()
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try write(outside + "/shared.playback")
        try write(dir + "/own.playback")
        try link(dir + "/first", to: outside)
        try link(dir + "/second", to: outside)
        #expect(walk(dir) == [dir + "/first/shared.playback", dir + "/own.playback"])
    }

    @Test("Names sorted, depth first, hidden names and other files skipped, a dangling script link kept")
    func order() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["b.playback", "a/z.playback", "a/c/y.playback", ".hidden/x.playback", ".h.playback", "notes.txt"] {
            try write(dir + "/" + name)
        }
        try link(dir + "/gone.playback", to: dir + "/nowhere.playback")
        #expect(walk(dir) == [dir + "/a/c/y.playback", dir + "/a/z.playback", dir + "/b.playback", dir + "/gone.playback"])
    }

    @Test("A script under two names (a link, a hard link): run once, under the first name met")
    func scriptTwice() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(dir + "/b.playback")
        try link(dir + "/a.playback", to: "b.playback")
        try link(dir + "/c.playback", to: dir + "/b.playback")
        try FileManager.default.linkItem(atPath: dir + "/b.playback", toPath: dir + "/d.playback")
        try write(dir + "/e.playback")
        #expect(walk(dir) == [dir + "/a.playback", dir + "/e.playback"])
    }
}
