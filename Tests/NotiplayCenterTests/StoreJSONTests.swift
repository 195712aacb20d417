import Foundation
import NotiplayCenter
import Testing

@Suite("Store: notifications as JSON text")
struct StoreJSONTests {
    @Test("JSON text: keys in order, dates in UTC with milliseconds, the payload and response embedded")
    func json() throws {
        try withScratchFolder { folder in
            let dates = TestDates(start: Date(timeIntervalSince1970: 1_795_000_000.123_9))
            let store = try CenterStore.open(folder: folder, now: dates.now)
            try store.add(
                IncomingNotification(
                    identifier: "tab\t\"quote\"", app: "Kitchen", payload: #"{"aps":{"alert":"Soup"}}"#,
                    attachments: [IncomingAttachment(name: "a.wav", kind: "com.microsoft.waveform-audio", bytes: [1])],
                    sender: "me"))
            try store.recordResponse("tab\t\"quote\"", json: #"{"action":"ok"}"#)
            let history = try store.history(limit: 1)
            let text = try #require(history.first).jsonText
            #expect(text.hasPrefix(#"{"sequence":1,"identifier":"tab\t\"quote\"","app":"Kitchen","state":"delivered","sender":"me","#))
            #expect(text.contains(#""arrivedAt":"2026-11-18T11:06:40.123Z","deliveredAt":"2026-11-18T11:06:40.123Z","endedAt":null"#))
            #expect(text.contains(#""attachments":[{"name":"a.wav","kind":"com.microsoft.waveform-audio","sha256":"4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a","byteCount":1}]"#))
            #expect(text.hasSuffix(#","trigger":null,"response":{"action":"ok"}}"#))
            let array = StoredNotification.jsonArray(history + history)
            let parsed = try JSONSerialization.jsonObject(with: Data(array.utf8)) as? [[String: Any]]
            #expect(parsed?.count == 2)
            #expect((parsed?.first?["payload"] as? [String: Any])?["aps"] != nil)
            #expect(StoredNotification.jsonArray([]) == "[]")
        }
    }

    @Test("escapes what JSON needs escaped, keeps other text, and dates before 1970 and past 9999 stay well-formed")
    func edges() throws {
        let notification = StoredNotification(
            sequence: 9_223_372_036_854_775_807, identifier: "ctl\u{01}\u{7F}\u{85}\u{2028}é😀", app: #"back\slash"#,
            payload: "{}", state: .removed, sender: "line\nbreak",
            arrivedAt: Date(timeIntervalSince1970: -0.5), deliveredAt: Date(timeIntervalSince1970: 1e15),
            endedAt: Date(timeIntervalSince1970: -1e15), replacedBy: 1)
        let text = notification.jsonText
        #expect(text.hasPrefix(#"{"sequence":9223372036854775807,"identifier":"ctl\u0001\u007f\u0085\u2028é😀","app":"back\\slash","state":"removed","sender":"line\nbreak","#))
        #expect(text.contains(#""arrivedAt":"1969-12-31T23:59:59.500Z","deliveredAt":"9999-12-31T23:59:59.999Z","endedAt":"0000-01-01T00:00:00.000Z","nextDate":null,"dueAt":null,"replacedBy":1,"#))
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?["identifier"] as? String == notification.identifier)
        #expect(object?["sender"] as? String == "line\nbreak")
    }

    @Test("writeJSONArray hands on the same bytes as jsonArray, in chunks, whatever the chunk size")
    func chunks() throws {
        let notifications = (0..<300).map { index in
            StoredNotification(
                sequence: Int64(index), identifier: "n\(index)", app: "App",
                payload: #"{"aps":{"alert":"\#(String(repeating: "x", count: index * 37))"}}"#,
                attachments: [StoredAttachment(name: "a\(index).wav", kind: "public.audio", sha256: String(repeating: "0", count: 64), byteCount: index)],
                state: .delivered, arrivedAt: Date(timeIntervalSince1970: Double(index)))
        }
        + [StoredNotification(
            sequence: 300, identifier: String(repeating: "\u{01}", count: 5000), app: "App", payload: "{}",
            state: .pending, arrivedAt: Date(timeIntervalSince1970: 0))]
        let whole = StoredNotification.jsonArray(notifications)
        #expect(whole.contains(String(repeating: "\\u0001", count: 5000)), "30,000 bytes escaped: more than a 4096-byte chunk")
        for chunkSize in [1, 5000, 1 << 20] {
            var bytes: [UInt8] = []
            var chunks = 0
            StoredNotification.writeJSONArray(notifications, chunkSize: chunkSize) {
                bytes.append(contentsOf: $0)
                chunks += 1
            }
            #expect(String(decoding: bytes, as: UTF8.self) == whole)
            #expect(chunks > 1, "about 1.7 MB in chunks of \(chunkSize) bytes (4096 at least)")
        }
        let parsed = try JSONSerialization.jsonObject(with: Data(whole.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 301)
    }

    @Test("writeHistoryJSON writes the bytes jsonArray makes of history(limit:), for every limit")
    func historyStreamed() throws {
        try withScratchFolder { folder in
            let dates = TestDates()
            let store = try CenterStore.open(folder: folder, now: dates.now)
            let a = IncomingAttachment(name: "a \"quoted\".wav", kind: "public.audio", bytes: [1, 2, 3])
            let b = IncomingAttachment(name: "b.wav", kind: "public.audio", bytes: [4])
            try store.add(.sample("one", attachments: [a, b]))
            try store.add(.sample("two", sender: "tab\there", delivery: .pending))
            dates.advance(by: .milliseconds(1234))
            try store.add(.sample("one", attachments: [b]))
            try store.markDismissed("one", response: #"{"action":"ok"}"#)
            try store.add(.sample("three"))
            try store.add(.sample("four", attachments: [a]))
            for limit in [0, 1, 2, 3, 5, 100] {
                var bytes: [UInt8] = []
                try store.writeHistoryJSON(limit: limit, chunkSize: 100) { bytes.append(contentsOf: $0) }
                #expect(String(decoding: bytes, as: UTF8.self) == StoredNotification.jsonArray(try store.history(limit: limit)))
            }
        }
    }

    @Test("what the output throws comes out of writeHistoryJSON as it was thrown")
    func historySinkFails() throws {
        struct Broken: Error, Equatable {}
        try withScratchFolder { folder in
            let store = try CenterStore.open(folder: folder)
            try store.add(.sample("one"))
            #expect(throws: Broken()) { try store.writeHistoryJSON(limit: 10) { _ in throw Broken() } }
        }
    }
}
