import Foundation
import NotiplayCenter
import Testing

@Suite("Store: replacement by identifier, the states a notification goes through, and order")
struct StoreLifecycleTests {
    @Test("a live identifier is replaced: the old one is replaced, says by which, and stays in the history")
    func replacement() throws {
        try withScratchFolder { folder in
            let dates = TestDates()
            let store = try CenterStore.open(folder: folder, now: dates.now)
            let old = try store.add(.sample("score", delivery: .pending))
            dates.advance(by: .seconds(1))
            let new = try store.add(.sample("score"))
            #expect(new.sequence > old.sequence && new.state == .delivered)
            let history = try store.history(limit: 10)
            #expect(history.map(\.sequence) == [new.sequence, old.sequence])
            #expect(history[1].state == .replaced && history[1].replacedBy == new.sequence)
            #expect(history[1].endedAt == dates.current)
            #expect(try store.notification("score") == new)
            #expect(try store.pending().isEmpty && store.delivered() == [new])

            // An ended one is not replaced: a new notification with its identifier stands beside it.
            _ = try #require(try store.markDismissed("score"))
            let third = try store.add(.sample("score"))
            #expect(try store.history(limit: 10).map(\.replacedBy) == [nil, nil, new.sequence])
            #expect(try store.history(limit: 10).map(\.state) == [.delivered, .dismissed, .replaced])
            #expect(try store.notification("score") == third)
        }
    }

    @Test("pending → delivered → dismissed; a response is kept; each step says what changed, or nil")
    func states() throws {
        try withScratchFolder { folder in
            let dates = TestDates()
            let store = try CenterStore.open(folder: folder, now: dates.now)
            try store.add(.sample("later", delivery: .pending))
            #expect(try store.markDismissed("later") == nil, "a pending notification was never shown")
            #expect(try store.recordResponse("later", json: "{}") == nil)
            dates.advance(by: .seconds(60))
            let delivered = try #require(try store.markDelivered("later"))
            #expect(delivered.state == .delivered && delivered.deliveredAt == dates.current)
            #expect(try store.markDelivered("later") == nil, "delivered already")
            let answered = try #require(try store.recordResponse("later", json: #"{"action":"snooze"}"#))
            #expect(answered.response == #"{"action":"snooze"}"# && answered.state == .delivered)
            let dismissed = try #require(try store.markDismissed("later"))
            #expect(dismissed.state == .dismissed && dismissed.response == #"{"action":"snooze"}"#)
            let late = try #require(try store.recordResponse("later", json: #""dismiss""#))
            #expect(late.response == #""dismiss""# && late.state == .dismissed)
            #expect(try store.markDelivered("nothing") == nil)
        }
    }

    @Test("remove(identifiers:) and removeAll(states:) end live notifications only and return them, oldest first")
    func removal() throws {
        try withScratchFolder { folder in
            let store = try CenterStore.open(folder: folder)
            for name in ["a", "b", "c"] { try store.add(.sample(name)) }
            for name in ["p", "q"] { try store.add(.sample(name, delivery: .pending)) }
            try store.markDismissed("c")

            let removed = try store.remove(identifiers: ["q", "a", "c", "zz", "a"])
            #expect(removed.map(\.identifier) == ["a", "q"])
            #expect(removed.allSatisfy { $0.state == .removed && $0.endedAt != nil })
            #expect(try store.removeAll(states: [.dismissed, .removed]).isEmpty)
            #expect(try store.removeAll(states: [.pending]).map(\.identifier) == ["p"])
            #expect(try store.delivered().map(\.identifier) == ["b"])
            #expect(try store.removeAll().map(\.identifier) == ["b"])
            #expect(try store.history(limit: 10).map(\.state) == [.removed, .removed, .dismissed, .removed, .removed])
        }
    }

    @Test("delivered() is oldest delivery first; pending() is arrival order")
    func listOrder() throws {
        try withScratchFolder { folder in
            let dates = TestDates()
            let store = try CenterStore.open(folder: folder, now: dates.now)
            try store.add(.sample("early", delivery: .pending))
            try store.add(.sample("waiting", delivery: .pending))
            dates.advance(by: .seconds(1))
            try store.add(.sample("now"))
            dates.advance(by: .seconds(1))
            try store.markDelivered("early")
            #expect(try store.delivered().map(\.identifier) == ["now", "early"])
            #expect(try store.pending().map(\.identifier) == ["waiting"])
        }
    }

    @Test("1,000 adds from 8 concurrent tasks: all stored, each sender's order kept by sequence")
    func concurrentSenders() async throws {
        try await withScratchFolder { folder in
            let store = try CenterStore.open(folder: folder)
            let senders = 8
            let each = 125
            try await withThrowingTaskGroup(of: Void.self) { group in
                for sender in 0..<senders {
                    group.addTask {
                        for index in 0..<each {
                            try store.add(.sample("s\(sender)-\(index)", sender: "sender \(sender)"))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let all = try store.history(limit: 2000)
            #expect(all.count == senders * each)
            #expect(Set(all.map(\.sequence)).count == all.count)
            for sender in 0..<senders {
                let mine = all.filter { $0.sender == "sender \(sender)" }.sorted { $0.sequence < $1.sequence }
                #expect(mine.map(\.identifier) == (0..<each).map { "s\(sender)-\($0)" })
            }
            let reopened = try CenterStore.open(folder: folder)
            #expect(try reopened.delivered().count == senders * each)
        }
    }
}
