import Foundation
import NotiplayCenter
import Testing

@Suite("Store: every field round-trips, and survives reopening")
struct StoreRoundTripTests {
    @Test("every field of every state comes back as stored, from the same store and from a reopened one")
    func everyField() throws {
        try withScratchFolder { folder in
            let dates = TestDates()
            let voice = sampleBytes(3000, seed: 1)
            var expected: [StoredNotification] = []
            do {
                let store = try CenterStore.open(folder: folder, now: dates.now)
                let full = IncomingNotification(
                    identifier: "lunch", app: "Kitchen ✓", payload: #"{"aps":{"alert":"Soup","thread-id":"kitchen","category":"meal"},"table":4}"#,
                    threadIdentifier: "kitchen", categoryIdentifier: "meal", trigger: #"{"timeInterval":60,"repeats":false}"#,
                    attachments: [
                        IncomingAttachment(name: "voice memo.m4a", kind: "com.apple.m4a-audio", bytes: voice),
                        IncomingAttachment(name: "empty.wav", kind: "com.microsoft.waveform-audio", bytes: []),
                    ],
                    sender: "pid 4242", delivery: .pending)
                let added = try store.add(full)
                #expect(added.state == .pending && added.deliveredAt == nil && added.arrivedAt == dates.current)
                dates.advance(by: .seconds(5))
                let delivered = try #require(try store.markDelivered("lunch"))
                #expect(delivered.deliveredAt == dates.current)
                dates.advance(by: .milliseconds(1500))
                let dismissed = try #require(try store.markDismissed("lunch", response: #"{"action":"eat"}"#))
                #expect(dismissed.endedAt == dates.current && dismissed.response == #"{"action":"eat"}"#)
                let bare = try store.add(.sample("bare"))
                expected = [dismissed, bare]

                #expect(dismissed.sequence == added.sequence)
                #expect(dismissed.identifier == "lunch" && dismissed.app == "Kitchen ✓" && dismissed.payload == full.payload)
                #expect(dismissed.threadIdentifier == "kitchen" && dismissed.categoryIdentifier == "meal")
                #expect(dismissed.trigger == full.trigger && dismissed.sender == "pid 4242")
                #expect(dismissed.attachments.map(\.name) == ["voice memo.m4a", "empty.wav"])
                #expect(dismissed.attachments.map(\.byteCount) == [3000, 0])
                #expect(dismissed.attachments[1].sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
                #expect(bare.threadIdentifier == nil && bare.categoryIdentifier == nil && bare.trigger == nil)
                #expect(bare.sender == nil && bare.response == nil && bare.endedAt == nil && bare.attachments.isEmpty)
                #expect(bare.state == .delivered && bare.deliveredAt == bare.arrivedAt && bare.sequence > added.sequence)
                #expect(try store.history(limit: 10) == expected.reversed())
            }
            let reopened = try CenterStore.open(folder: folder, now: dates.now)
            #expect(try reopened.history(limit: 10) == expected.reversed())
            #expect(try reopened.notification("lunch") == expected[0])
            #expect(try reopened.notification(sequence: expected[1].sequence) == expected[1])
            #expect(try reopened.delivered() == [expected[1]])
            #expect(try reopened.pending().isEmpty)
            #expect(try reopened.notification("unknown") == nil)
        }
    }

    @Test("with the system's clock too, what each operation returns equals what is read back")
    func systemClock() throws {
        try withScratchFolder { folder in
            let store = try CenterStore.open(folder: folder)
            var returned: [StoredNotification] = []
            for index in 0..<20 { returned.append(try store.add(.sample("n\(index)", delivery: .pending))) }
            for index in 0..<10 { returned[index] = try #require(try store.markDelivered("n\(index)")) }
            for index in 0..<5 { returned[index] = try #require(try store.markDismissed("n\(index)")) }
            #expect(try store.history(limit: 100) == returned.reversed())
        }
    }

    @Test("the writing connection is in WAL mode with synchronous = FULL, after opening and reopening")
    func durability() throws {
        try withScratchFolder { folder in
            for _ in 0..<2 {
                let settings = try CenterStore.open(folder: folder).durabilitySettings()
                #expect(settings.journalMode == "wal")
                #expect(settings.synchronous == 2)
            }
        }
    }

    @Test("a missing folder is made with mode 0700, parents included, and holds center.sqlite and attachments/")
    func folderMade() throws {
        try withScratchFolder { scratch in
            let folder = scratch + "/state/notiplay/"
            let store = try CenterStore.open(folder: folder)
            #expect(store.folder == scratch + "/state/notiplay")
            #expect(store.databasePath == scratch + "/state/notiplay/center.sqlite")
            for path in [scratch + "/state", scratch + "/state/notiplay", scratch + "/state/notiplay/attachments"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                #expect((attributes[.posixPermissions] as? Int) == 0o700, "\(path)")
            }
            #expect(names(in: store.folder).contains("center.sqlite"))
        }
    }
}
