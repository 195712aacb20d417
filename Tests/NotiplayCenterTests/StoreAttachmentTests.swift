import Foundation
import NotiplayCenter
import Testing

@Suite("Store: attachment files, one per content, deleted when nothing refers to them")
struct StoreAttachmentTests {
    @Test("the bytes come back intact after reopening, from a file named by their SHA-256")
    func bytesIntact() throws {
        try withScratchFolder { folder in
            let bytes = sampleBytes(200_000, seed: 7)
            let attachment = IncomingAttachment(name: "alarm.mp3", kind: "public.mp3", bytes: bytes)
            _ = try CenterStore.open(folder: folder).add(.sample("alarm", attachments: [attachment]))
            let reopened = try CenterStore.open(folder: folder)
            let stored = try #require(try reopened.notification("alarm")?.attachments.first)
            let path = reopened.attachmentPath(for: stored)
            #expect(path == folder + "/attachments/" + stored.sha256)
            #expect(reopened.attachmentURL(for: stored) == URL(fileURLWithPath: path))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
            #expect(stored.byteCount == bytes.count && stored.sha256.count == 64)
            #expect(names(in: folder + "/attachments") == [stored.sha256])
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test("identical content is stored once, within one notification and across notifications")
    func storedOnce() throws {
        try withScratchFolder { folder in
            let store = try CenterStore.open(folder: folder)
            let same = IncomingAttachment(name: "a.wav", kind: "com.microsoft.waveform-audio", bytes: sampleBytes(5000, seed: 1))
            let renamed = IncomingAttachment(name: "b.wav", kind: "com.microsoft.waveform-audio", bytes: same.bytes)
            let other = IncomingAttachment(name: "c.wav", kind: "com.microsoft.waveform-audio", bytes: sampleBytes(5000, seed: 2))
            let first = try store.add(.sample("one", attachments: [same, renamed]))
            let second = try store.add(.sample("two", attachments: [same, other]))
            #expect(first.attachments[0].sha256 == first.attachments[1].sha256)
            #expect(second.attachments[0].sha256 == first.attachments[0].sha256)
            #expect(names(in: folder + "/attachments") == [first.attachments[0].sha256, second.attachments[1].sha256].sorted())
        }
    }

    @Test("a removed notification's file goes at prune, only once no other notification refers to it")
    func pruneDeletesUnreferenced() throws {
        try withScratchFolder { folder in
            let store = try CenterStore.open(folder: folder)
            let shared = IncomingAttachment(name: "s.wav", kind: "com.microsoft.waveform-audio", bytes: sampleBytes(800, seed: 3))
            let own = IncomingAttachment(name: "o.wav", kind: "com.microsoft.waveform-audio", bytes: sampleBytes(800, seed: 4))
            let first = try store.add(.sample("first", attachments: [shared, own]))
            try store.add(.sample("second", attachments: [shared]))
            let sharedFile = store.attachmentPath(for: first.attachments[0])
            let ownFile = store.attachmentPath(for: first.attachments[1])

            try store.remove(identifiers: ["first"])
            #expect(FileManager.default.fileExists(atPath: ownFile), "kept while the history row refers to it")
            #expect(try store.prune(keepingHistory: 0) == .init(notifications: 1, files: 1))
            #expect(!FileManager.default.fileExists(atPath: ownFile))
            #expect(FileManager.default.fileExists(atPath: sharedFile), "\"second\" still refers to it")

            try store.remove(identifiers: ["second"])
            #expect(try store.prune(keepingHistory: 0) == .init(notifications: 1, files: 1))
            #expect(names(in: folder + "/attachments").isEmpty)
        }
    }

    @Test("prune deletes the temporary file a killed process left, and leaves live attachments")
    func pruneDeletesLeftovers() throws {
        try withScratchFolder { folder in
            let store = try CenterStore.open(folder: folder)
            let live = try store.add(
                .sample("live", attachments: [IncomingAttachment(name: "l.wav", kind: "public.audio", bytes: [1, 2, 3])]))
            #expect(FileManager.default.createFile(atPath: folder + "/attachments/.tmp-12345", contents: Data([9, 9])))
            #expect(try store.prune(keepingHistory: 0) == .init(notifications: 0, files: 1))
            #expect(names(in: folder + "/attachments") == [live.attachments[0].sha256])
        }
    }
}
