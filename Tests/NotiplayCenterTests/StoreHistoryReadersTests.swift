import Foundation
import NotiplayCenter
import Synchronization
import Testing

/// `history --json` read by two readers at once: the same bytes as one, from one snapshot.
@Suite("Store: the history written by two readers")
struct StoreHistoryReadersTests {
    /// A store of 40 notifications, some with attachments, some ended and then forgotten (gaps
    /// in the sequence numbers), one replaced.
    private func filledStore(in folder: String) throws -> CenterStore {
        let dates = TestDates()
        let store = try CenterStore.open(folder: folder, now: dates.now)
        let sound = IncomingAttachment(name: "a \"quoted\".wav", kind: "public.audio", bytes: [1, 2, 3])
        for index in 0..<40 {
            dates.advance(by: .milliseconds(1700))
            let attachments = index % 3 == 0 ? [sound, IncomingAttachment(name: "b\(index).wav", kind: "public.audio", bytes: [UInt8(index)])] : []
            try store.add(.sample("n\(index)", sender: index % 5 == 0 ? "tab\there" : nil, attachments: attachments))
            if index % 4 == 1 { try store.markDismissed("n\(index)", response: #"{"action":"ok"}"#) }
        }
        try store.add(.sample("n7"))
        try store.forget(identifiers: ["n1", "n5", "n9", "n13", "n29", "n33"])
        return store
    }

    private func written(
        _ store: CenterStore, limit: Int, chunkSize: Int = 100, reading: CenterStore.HistoryReadOptions
    ) throws -> (text: String, readers: CenterStore.HistoryReaders) {
        var bytes: [UInt8] = []
        let readers = try store.writeHistoryJSON(limit: limit, chunkSize: chunkSize, reading: reading) {
            bytes.append(contentsOf: $0)
        }
        return (String(decoding: bytes, as: UTF8.self), readers)
    }

    @Test("two readers write the bytes jsonArray makes of history(limit:), for every limit and cut")
    func sameBytes() throws {
        try withScratchFolder { folder in
            let store = try filledStore(in: folder)
            for segments in [2, 3, 7, 16, 100] {
                for limit in [0, 1, 2, 5, 13, 34, 35, 1000] {
                    let reading = CenterStore.HistoryReadOptions(twoReadersFrom: 0, segments: segments)
                    let (text, readers) = try written(store, limit: limit, reading: reading)
                    #expect(text == StoredNotification.jsonArray(try store.history(limit: limit)), "\(segments) segments, limit \(limit)")
                    #expect(readers == (limit > 1 ? .two : .one), "\(segments) segments, limit \(limit)")
                }
            }
        }
    }

    @Test("a write between the two readers' starts: one reader writes it all, from after the write")
    func writeBetween() throws {
        try withScratchFolder { folder in
            let store = try filledStore(in: folder)
            let writes = Mutex(0)
            let reading = CenterStore.HistoryReadOptions(twoReadersFrom: 0, segments: 4) {
                writes.withLock { $0 += 1 }
                _ = try? store.markDismissed("n0")
                _ = try? store.add(.sample("late"))
            }
            let (text, readers) = try written(store, limit: 1000, reading: reading)
            #expect(writes.withLock { $0 } == 1)
            #expect(readers == .oneAfterAWrite)
            #expect(text == StoredNotification.jsonArray(try store.history(limit: 1000)))
            #expect(text.contains(#""identifier":"late""#))
        }
    }

    @Test("what the output throws comes out as it was thrown, and the readers stop", arguments: [0, 1, 5, 12, 28])
    func outputFails(after chunks: Int) throws {
        struct Broken: Error, Equatable {}
        try withScratchFolder { folder in
            let store = try filledStore(in: folder)
            var taken = 0
            #expect(throws: Broken()) {
                _ = try store.writeHistoryJSON(limit: 1000, chunkSize: 1, reading: .init(twoReadersFrom: 0, segments: 16)) { _ in
                    taken += 1
                    if taken > chunks { throw Broken() }
                }
            }
            #expect(taken == chunks + 1)
        }
    }

    @Test("segments: consecutive, newest first, covering the range once")
    func segments() {
        for (range, count) in [(1...1, 16), (1...100_000, 16), (5...20, 3), (7...8, 5), (1...17, 16)] as [(ClosedRange<Int64>, Int)] {
            let parts = CenterStore.segments(of: range, count: count)
            #expect(parts.count <= count && !parts.isEmpty)
            #expect(parts.first?.upperBound == range.upperBound && parts.last?.lowerBound == range.lowerBound)
            for (newer, older) in zip(parts, parts.dropFirst()) { #expect(older.upperBound == newer.lowerBound - 1) }
        }
        #expect(CenterStore.segments(of: Int64.min...Int64.max, count: 4) == [Int64.min...Int64.max])
    }
}
