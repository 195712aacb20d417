import Foundation
import Glibc
import NotiplayCenter
import Testing

/// Opening the store never deletes a file no row names: it moves it aside and says so.
@Suite("Store: attachment files no row names are moved aside, never deleted, when it opens")
struct StoreOrphanTests {
    @Test("a store whose database lost its rows keeps their files: moved aside, never deleted, with a warning")
    func lostDatabaseKeepsAttachments() throws {
        try withScratchFolder { folder in
            let digests: [String]
            do {
                let store = try CenterStore.open(folder: folder)
                let first = try store.add(.sample("a", attachments: [sampleAudio("a.wav", seed: 1)]))
                let second = try store.add(.sample("b", attachments: [sampleAudio("b.wav", seed: 2)]))
                digests = (first.attachments + second.attachments).map(\.sha256).sorted()
                #expect(!store.warnings.contains { $0.file == folder + "/attachments" })
            }
            // The database lost: its main file truncated to nothing, its journal gone.
            try #require(truncate(folder + "/center.sqlite", 0) == 0)
            for suffix in ["-wal", "-shm"] { unlink(folder + "/center.sqlite" + suffix) }

            let reopened = try CenterStore.open(folder: folder)
            #expect(try reopened.history(limit: 10).isEmpty)
            #expect(names(in: folder + "/attachments").isEmpty)
            let aside = names(in: folder).filter { $0.hasPrefix("attachments.orphaned-") }
            try #require(aside.count == 1, "nothing moved aside: \(names(in: folder))")
            #expect(names(in: folder + "/" + aside[0]) == digests)
            #expect(permissionBits(folder + "/" + aside[0]) == 0o700)
            try #require(reopened.warnings.count == 1)
            let warning = reopened.warnings[0]
            #expect(warning.file == folder + "/attachments")
            #expect(warning.reason.contains("2 files no notification names"), "\(warning)")
            #expect(warning.reason.contains(folder + "/" + aside[0]), "\(warning)")

            // Opening again finds nothing more to move, and leaves what was moved.
            let again = try CenterStore.open(folder: folder)
            #expect(again.warnings.isEmpty)
            #expect(names(in: folder + "/" + aside[0]) == digests)
        }
    }

    @Test("what a process killed in an add left: its temporary file is deleted, content no row names is moved aside")
    func openKeepsContentNoRowNames() throws {
        try withScratchFolder { folder in
            let live = try CenterStore.open(folder: folder).add(.sample("live", attachments: [sampleAudio("l.wav", seed: 3)]))
            let orphan = String(repeating: "ab", count: 32)  // renamed into place, its row never committed
            #expect(FileManager.default.createFile(atPath: folder + "/attachments/.tmp-12345", contents: Data([9, 9])))
            #expect(FileManager.default.createFile(atPath: folder + "/attachments/" + orphan, contents: Data([7])))
            let store = try CenterStore.open(folder: folder)
            #expect(names(in: folder + "/attachments") == [live.attachments[0].sha256])
            #expect(try store.history(limit: 10) == [live])
            let aside = names(in: folder).filter { $0.hasPrefix("attachments.orphaned-") }
            try #require(aside.count == 1)
            #expect(names(in: folder + "/" + aside[0]) == [orphan])
            #expect(store.warnings.first?.reason.contains("1 file no notification names") == true, "\(store.warnings)")
        }
    }
}
