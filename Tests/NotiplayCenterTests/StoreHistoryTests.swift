import Foundation
import NotiplayCenter
import Testing

@Suite("Store: the history's order and limit, and retention by count and by age")
struct StoreHistoryTests {
    @Test("history is newest first, every state, at most `limit`")
    func orderAndLimit() throws {
        try withScratchFolder { folder in
            let store = try CenterStore.open(folder: folder)
            for index in 0..<6 { try store.add(.sample("n\(index)", delivery: index == 5 ? .pending : .now)) }
            try store.markDismissed("n1")
            try store.remove(identifiers: ["n2"])
            #expect(try store.history(limit: 100).map(\.identifier) == ["n5", "n4", "n3", "n2", "n1", "n0"])
            #expect(try store.history(limit: 100).map(\.state) == [.pending, .delivered, .delivered, .removed, .dismissed, .delivered])
            #expect(try store.history(limit: 2).map(\.identifier) == ["n5", "n4"])
            #expect(try store.history(limit: 0).isEmpty)
            #expect(try store.history(limit: -1).isEmpty)
        }
    }

    @Test("retention by count keeps the ended notifications that ended last, and every live one")
    func byCount() throws {
        try withScratchFolder { folder in
            let dates = TestDates()
            let store = try CenterStore.open(folder: folder, now: dates.now)
            for index in 0..<5 { try store.add(.sample("e\(index)")) }
            try store.add(.sample("live"))
            try store.add(.sample("waiting", delivery: .pending))
            // End them out of arrival order: e3 first, e0 last.
            for identifier in ["e3", "e1", "e4", "e2", "e0"] {
                dates.advance(by: .seconds(1))
                try store.markDismissed(identifier)
            }
            #expect(try store.prune(keepingHistory: 2).notifications == 3)
            #expect(try store.history(limit: 10).map(\.identifier) == ["waiting", "live", "e2", "e0"])
            #expect(try store.prune(keepingHistory: 2).notifications == 0)
            #expect(try store.prune(keepingHistory: 0).notifications == 2)
            #expect(try store.history(limit: 10).map(\.identifier) == ["waiting", "live"])
        }
    }

    @Test("retention by age deletes what ended longer ago than the age, by the store's clock, even within the count")
    func byAge() throws {
        try withScratchFolder { folder in
            let dates = TestDates()
            let store = try CenterStore.open(folder: folder, now: dates.now)
            try store.add(.sample("old"))
            try store.add(.sample("recent"))
            try store.add(.sample("live"))
            try store.markDismissed("old")
            dates.advance(by: .seconds(3600))
            try store.remove(identifiers: ["recent"])
            dates.advance(by: .seconds(1800))

            #expect(try store.prune(keepingHistory: 100, olderThan: .seconds(5401)).notifications == 0)
            #expect(try store.prune(keepingHistory: 100, olderThan: .seconds(5399)).notifications == 1)
            #expect(try store.history(limit: 10).map(\.identifier) == ["live", "recent"])
            dates.advance(by: .seconds(3600))
            #expect(try store.prune(keepingHistory: 100, olderThan: .seconds(3600)).notifications == 1)
            #expect(try store.history(limit: 10).map(\.identifier) == ["live"])
            dates.advance(by: .seconds(1_000_000))
            #expect(try store.prune(keepingHistory: 0, olderThan: .zero).notifications == 0, "live ones are never pruned")
        }
    }

    @Test("a replaced notification ended when it was replaced, so it is pruned before the one that replaced it")
    func prunedReplacement() throws {
        try withScratchFolder { folder in
            let dates = TestDates()
            let store = try CenterStore.open(folder: folder, now: dates.now)
            try store.add(.sample("x"))
            dates.advance(by: .seconds(1))
            try store.add(.sample("x"))
            dates.advance(by: .seconds(1))
            try store.markDismissed("x")  // the replacer ended after the one it replaced
            #expect(try store.prune(keepingHistory: 1).notifications == 1)
            let history = try store.history(limit: 10)
            #expect(history.count == 1 && history[0].sequence == 2 && history[0].state == .dismissed)

            try store.add(.sample("y"))
            try store.add(.sample("y"))
            try store.remove(identifiers: ["y"])
            let ended = try store.history(limit: 10)
            #expect(ended.map(\.state) == [.removed, .replaced, .dismissed] && ended[1].replacedBy == ended[0].sequence)
            #expect(try store.prune(keepingHistory: 0).notifications == 3)
        }
    }
}
