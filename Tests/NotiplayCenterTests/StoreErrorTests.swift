import Foundation
import Glibc
import NotiplayCenter
import NotiplayTestSupport
import Testing

@Suite("Store: a folder or file that cannot be made or read is a typed error naming it")
struct StoreErrorTests {
    @Test("the folder's path is a regular file: cannot create (73), the path in the message")
    func folderIsAFile() throws {
        try withScratchFolder { scratch in
            let path = scratch + "/state"
            #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
            let error = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: path) }
            #expect(error.kind == .cannotCreate && error.file == path)
            #expect(error.description == "\(path): is not a folder, and the store needs a folder there")

            let below = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: path + "/notiplay") }
            #expect(below.kind == .cannotCreate && below.file == path)
            let empty = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: "") }
            #expect(empty.kind == .cannotCreate && empty.reason == "the store's folder has an empty path")
        }
    }

    @Test("attachments/ is a regular file, or center.sqlite a folder: cannot create (73), naming it")
    func partsInTheWay() throws {
        try withScratchFolder { scratch in
            #expect(FileManager.default.createFile(atPath: scratch + "/attachments", contents: Data()))
            let error = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: scratch) }
            #expect(error.kind == .cannotCreate && error.file == scratch + "/attachments")
        }
        try withScratchFolder { scratch in
            try FileManager.default.createDirectory(atPath: scratch + "/center.sqlite", withIntermediateDirectories: false)
            let error = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: scratch) }
            #expect(error.kind == .cannotCreate && error.file == scratch + "/center.sqlite")
            #expect(error.description.hasPrefix(scratch + "/center.sqlite: cannot be opened for writing"))
        }
    }

    @Test(
        "a folder without write permission: cannot create (73), naming the folder to make",
        .enabled(if: getuid() != 0, "root ignores permissions: the read-only file system test covers it for root"))
    func noPermission() throws {
        try withScratchFolder { scratch in
            #expect(chmod(scratch, 0o500) == 0)
            defer { _ = chmod(scratch, 0o700) }
            let error = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: scratch + "/state") }
            #expect(error.kind == .cannotCreate && error.file == scratch + "/state")
            #expect(error.reason.contains("Permission denied"))
        }
    }

    @Test("a read-only file system: cannot create (73) for a new store; an existing store cannot be opened to write",
          .enabled(if: Tmpfs.works, Tmpfs.note))
    func readOnlyFileSystem() throws {
        try withScratchFolder { scratch in
            let disk = try Tmpfs(in: scratch, size: "1m")
            defer { disk.unmount() }
            do {
                let store = try CenterStore.open(folder: disk.path + "/made")
                try store.add(.sample("kept"))
            }
            try disk.remount(readOnly: true)
            let new = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: disk.path + "/new") }
            #expect(new.kind == .cannotCreate && new.file == disk.path + "/new")
            #expect(new.reason.contains("Read-only file system"))
            let existing = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: disk.path + "/made") }
            #expect(existing.kind == .cannotCreate, "\(existing)")
        }
    }

    @Test("a store a killed process left (its -wal and -shm there) on a read-only file system: cannot create (73) too",
          .enabled(if: Tmpfs.works, Tmpfs.note))
    func readOnlyAfterKill() throws {
        try withScratchFolder { scratch in
            let disk = try Tmpfs(in: scratch, size: "1m")
            defer { disk.unmount() }
            // Made 0700, as a store's folders are (one open to others would be refused for not
            // being made private on a read-only disk, before its database is looked at).
            try FileManager.default.createDirectory(
                atPath: disk.path + "/left/attachments", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: disk.path + "/left")
            do {
                // The files as they are while the store is open: what `kill -9` leaves.
                let store = try CenterStore.open(folder: disk.path + "/open")
                try store.add(.sample("kept"))
                for name in ["center.sqlite", "center.sqlite-wal", "center.sqlite-shm"] {
                    try FileManager.default.copyItem(atPath: disk.path + "/open/" + name, toPath: disk.path + "/left/" + name)
                }
            }
            try disk.remount(readOnly: true)
            let error = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: disk.path + "/left") }
            #expect(error.kind == .cannotCreate && error.file == disk.path + "/left/center.sqlite", "\(error)")
        }
    }

    @Test("a damaged database: bad data (65), naming center.sqlite")
    func corrupt() throws {
        try withScratchFolder { scratch in
            let path = scratch + "/center.sqlite"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(sampleBytes(8192, seed: 5))))
            let error = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: scratch) }
            #expect(error.kind == .badData && error.file == path)
            #expect(error.reason.hasPrefix("is damaged or is not a notiplay store"))
        }
    }

    @Test("a payload that is not a JSON object, or a response that is not JSON: bad data (65), nothing stored")
    func notJSON() throws {
        try withScratchFolder { scratch in
            let store = try CenterStore.open(folder: scratch)
            var broken = IncomingNotification.sample("broken")
            broken.payload = #"{"aps": {"alert": "no closing brace"}"#
            let attachment = IncomingAttachment(name: "a.wav", kind: "public.audio", bytes: [1, 2])
            broken.attachments = [attachment]
            #expect(throws: CenterStoreError.self) { try store.add(broken) }
            broken.payload = "[1, 2]"
            let error = try #require(throws: CenterStoreError.self) { try store.add(broken) }
            #expect(error.kind == .badData && error.reason == #"cannot store the payload of "broken": it is not a JSON object"#)
            try store.add(.sample("fine"))
            #expect(throws: CenterStoreError.self) { try store.recordResponse("fine", json: "{nope") }
            #expect(try store.history(limit: 10).map(\.identifier) == ["fine"])
            #expect(try store.notification("fine")?.response == nil)
            #expect(names(in: scratch + "/attachments").isEmpty)
        }
    }

    @Test("reading a store the path to which is not a folder: cannot create (73), naming the store, not an empty history")
    func unreadableStoreForReading() throws {
        try withScratchFolder { scratch in
            #expect(FileManager.default.createFile(atPath: scratch + "/state", contents: Data("x".utf8)))
            let error = try #require(throws: CenterStoreError.self) { try CenterStore.openForReading(folder: scratch + "/state/notiplay") }
            #expect(error.kind == .cannotCreate && error.file == scratch + "/state/notiplay", "\(error)")
            #expect(try CenterStore.openForReading(folder: scratch + "/none") == nil, "no store yet is no error")
        }
    }
}
