import Foundation
import NotiplayCenter
import NotiplayTestSupport
import Testing

@Suite("Store: a full disk fails the write with an I/O error, stores nothing, and the store keeps working")
struct StoreDiskFullTests {
    @Test("an attachment larger than the free space: I/O error (74), no row, no file, reads and later adds work",
          .enabled(if: Tmpfs.works, Tmpfs.note))
    func attachmentTooLarge() throws {
        try withScratchFolder { scratch in
            let disk = try Tmpfs(in: scratch, size: "1m")
            defer { disk.unmount() }
            let store = try CenterStore.open(folder: disk.path + "/state")
            let first = try store.add(
                .sample("first", attachments: [IncomingAttachment(name: "a.wav", kind: "public.audio", bytes: sampleBytes(1000, seed: 1))]))

            let huge = IncomingAttachment(name: "huge.wav", kind: "public.audio", bytes: sampleBytes(2_000_000, seed: 2))
            let small = IncomingAttachment(name: "small.wav", kind: "public.audio", bytes: sampleBytes(1000, seed: 3))
            let error = try #require(throws: CenterStoreError.self) {
                try store.add(.sample("second", attachments: [small, huge]))
            }
            #expect(error.kind == .ioError)
            #expect(error.file == disk.path + "/state/attachments")
            #expect(error.reason == #"cannot store the attachment "huge.wav" (2000000 bytes): the disk is full"#)

            #expect(names(in: disk.path + "/state/attachments") == [first.attachments[0].sha256], "no temporary file, no half")
            #expect(try store.history(limit: 10) == [first])
            #expect(try store.notification("second") == nil)
            let third = try store.add(.sample("third", attachments: [small]))
            #expect(try CenterStore.open(folder: disk.path + "/state").history(limit: 10) == [third, first])
        }
    }

    @Test("a database that cannot grow (SQLITE_FULL): I/O error (74), nothing stored, the store works once there is room",
          .enabled(if: Tmpfs.works, Tmpfs.note))
    func databaseCannotGrow() throws {
        try withScratchFolder { scratch in
            let disk = try Tmpfs(in: scratch, size: "1m")
            defer { disk.unmount() }
            let store = try CenterStore.open(folder: disk.path + "/state")
            let first = try store.add(.sample("first"))
            let filler = disk.path + "/filler"
            try fill(filler)

            var big = IncomingNotification.sample("big")
            big.payload = #"{"aps":{"alert":"\#(String(repeating: "x", count: 300_000))"}}"#
            let error = try #require(throws: CenterStoreError.self) { try store.add(big) }
            #expect(error.kind == .ioError, "\(error)")
            #expect(error.reason.hasPrefix("the disk is full (SQLite: "))
            #expect(error.file == disk.path + "/state/center.sqlite")
            #expect(try store.history(limit: 10) == [first])

            try FileManager.default.removeItem(atPath: filler)
            let after = try store.add(.sample("after"))
            #expect(try CenterStore.open(folder: disk.path + "/state").history(limit: 10) == [after, first])
        }
    }

    /// Writes `path` until the file system has no room left.
    private func fill(_ path: String) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingAtPath: path).unwrapped()
        defer { try? handle.close() }
        let chunk = Data(count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
    }
}

extension Optional {
    /// The value, or a thrown error when there is none.
    fileprivate func unwrapped() throws -> Wrapped {
        guard let self else { throw CocoaError(.fileNoSuchFile) }
        return self
    }
}
