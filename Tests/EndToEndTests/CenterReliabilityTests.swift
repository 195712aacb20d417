import Foundation
import NotiplayTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What the center promises when many send at once, when it is killed, and when its disk fills up
/// or turns read-only, through the real binary: `Scripts/center-reliability.py` measures the same
/// at full scale. Every wait is for an event (a process's end, the server's `shown` line, a count
/// of exits); the only time limits are hang guards.
@Suite("the center's reliability: senders at once, kill -9 in a burst, a full or read-only disk", .tags(.endToEnd))
struct CenterReliabilityTests {
    @Test("8 senders x 25 at once: every send acknowledged, in list and history in each sender's order, its bytes stored")
    func burst() async throws {
        let center = try ReliabilityCenter()
        defer { center.tearDown() }
        let server = try await center.start().server
        let burst = try await center.burst(senders: 8, count: 25)
        for send in burst.sends.values where send.status != 0 { Issue.record("\(send.id): exit \(send.status): \(send.stderr)") }
        let sent = Set(burst.sends.keys)
        #expect(Set(try await center.identifiers("list")) == sent)
        let history = try await center.identifiers("history", "--limit", "100000")
        #expect(Set(history) == sent && history.count == sent.count)
        try await center.stop(server)
        burst.expectSendersInOrder(oldestFirst: history.reversed())
        try center.expectStored(burst, sent)
        if let dump = try await center.dump() {
            #expect(dump.integrity == "ok" && dump.leftovers.isEmpty, "\(dump.integrity), \(dump.leftovers)")
            for id in sent { burst.expectWhole(id, dump.rows[id]) }
        }
    }

    @Test("kill -9 once 60 of 200 sends are acknowledged: serve again has every one, only whole ones, and its queue back")
    func killMidBurst() async throws {
        let center = try ReliabilityCenter()
        defer { center.tearDown() }
        let server = try await center.start().server
        let burst = try await center.burst(senders: 8, count: 25, kill: (after: 60, server: server))
        let killed = try await server.finish(timeout: hangGuard)
        #expect(killed.signaled && killed.status == 128 + SIGKILL, "\(killed)")
        let kill = try #require(burst.killedAt, "the burst ended before 60 sends were acknowledged")
        let acknowledged = Set(burst.sends.values.filter { $0.status == 0 }.map(\.id))
        // Sends that started after the kill cannot be stored; those in flight at it may be, whole.
        let afterKill = Set(burst.sends.values.filter { $0.status != 0 && $0.started > kill }.map(\.id))
        for send in burst.sends.values where send.status != 0 {
            #expect(send.status == 69, "\(send.id): exit \(send.status): \(send.stderr)")
        }

        let (restarted, shown) = try await center.start()
        let delivered = try await center.identifiers("list", "--delivered")
        let history = try await center.identifiers("history", "--limit", "100000")
        try await center.stop(restarted)
        let present = Set(history)
        #expect(acknowledged.isSubset(of: present), "lost: \(acknowledged.subtracting(present).sorted())")
        #expect(present.isDisjoint(with: afterKill), "stored after the kill: \(present.intersection(afterKill).sorted())")
        #expect(present.isSubset(of: Set(burst.sends.keys)) && history.count == present.count)
        // Newest on top: the queue comes back with the last one delivered shown.
        #expect(Set(delivered) == present && shown != nil && shown == delivered.last, "shown \(shown ?? "none")")
        burst.expectSendersInOrder(oldestFirst: history.reversed())
        try center.expectStored(burst, acknowledged)
        if let dump = try await center.dump() {
            #expect(dump.integrity == "ok" && dump.leftovers.isEmpty, "\(dump.integrity), \(dump.leftovers)")
            #expect(dump.delivered == delivered, "list --delivered is the store's delivered, in order")
            for id in present { burst.expectWhole(id, dump.rows[id]) }
        }
    }

    @Test("a store on a full tmpfs: send exits 74 naming it, the server serves on; read-only: 73, and serve refuses it",
          .enabled(if: SmallDisk.works, "needs a tmpfs: mount(2) as root was refused here"))
    func fullAndReadOnlyDisk() async throws {
        let scratch = try E2E.scratch()
        let center = try ReliabilityCenter(scratch: scratch, state: scratch.appendingPathComponent("disk/state").path)
        defer { center.tearDown() }
        let disk = try #require(SmallDisk(in: scratch, size: "1m"))
        defer { SmallDisk.detach(disk.path) }
        let filler = disk.path + "/filler"
        try Data(count: 256 * 1024).write(to: URL(fileURLWithPath: filler))
        let server = try await center.start().server
        var acknowledged: [String] = []
        var made = 0
        func send(_ name: String, payload: String? = nil, attachment size: Int?) async throws -> RunResult {
            var arguments = ["send", payload ?? center.payload, "--id", name]
            if let size {
                made += 1
                let file = center.files + "/\(name).wav"
                try Data(tinyWAV(sender: 99, number: made, noise: size)).write(to: URL(fileURLWithPath: file))
                arguments += ["--attach", file]
            }
            let result = try await center.run(arguments)
            if result.status == 0 { acknowledged.append(name) }
            return result
        }
        func untilRefused(_ prefix: String, payload: String? = nil, attachment: Int?) async throws -> RunResult? {
            for n in 0..<300 {
                let result = try await send("\(prefix)-\(n)", payload: payload, attachment: attachment)
                if result.status != 0 { return result }
            }
            return nil
        }
        func expectServing(_ when: String) async throws {
            #expect(server.endedAt == nil, "the server ended \(when)")
            let listed = try await center.identifiers("list")
            #expect(Set(acknowledged).isSubset(of: Set(listed)), "\(when): list lacks some")
        }

        let attachmentFull = try #require(try await untilRefused("big", attachment: 64 * 1024), "300 x 64 KB fit in 1 MB")
        #expect(attachmentFull.status == 74 && attachmentFull.stderrText.contains(center.store), "\(attachmentFull)")
        #expect(attachmentFull.stderrText.contains("the disk is full"), "\(attachmentFull)")
        try await expectServing("once the disk was full")
        let plain = try await send("plain", attachment: nil)
        #expect(plain.status == 0 || plain.status == 74, "\(plain)")

        let fat = center.files + "/fat.apns"
        try Data(#"{"aps":{"alert":{"title":"Fat","body":"\#(String(repeating: "x", count: 3800))"}}}"#.utf8)
            .write(to: URL(fileURLWithPath: fat))
        let databaseFull = try #require(try await untilRefused("fat", payload: fat, attachment: nil), "300 x 4 KB fit")
        #expect(databaseFull.status == 74 && databaseFull.stderrText.contains(center.store + "/center.sqlite: the disk is full"),
                "\(databaseFull)")
        try await expectServing("once the database could not grow")
        try FileManager.default.removeItem(atPath: filler)
        let freed = try await send("freed", attachment: 64 * 1024)
        #expect(freed.status == 0, "once there is room again: \(freed)")

        // The tmpfs cannot turn read-only while the server writes to it (EBUSY), and root ignores
        // file modes: the store's folder bind-mounted read-only onto itself is what a folder
        // without write permission is to another user (no new file; the open database writable).
        try #require(SmallDisk.bindReadOnly(center.store), "cannot bind-mount the store read-only")
        let readOnly = try await send("read-only", attachment: 16)
        SmallDisk.detach(center.store)
        #expect(readOnly.status == 73 && readOnly.stderrText.contains(center.store), "\(readOnly)")
        #expect(readOnly.stderrText.contains("Read-only file system"), "\(readOnly)")
        try await expectServing("with its folder read-only")
        try await center.stop(server)

        try #require(disk.remount(readOnly: true), "cannot remount the tmpfs read-only")
        do {
            try await center.stop(try await center.start().server)
            Issue.record("serve started on a store it cannot write")
        } catch let refused as ServerDidNotStart {
            #expect(refused.result.status == 73 && refused.result.stderrText.contains(center.store), "\(refused.result)")
        }
        try #require(disk.remount(readOnly: false))
        let again = try await center.start().server
        #expect(Set(try await center.identifiers("list")) == Set(acknowledged))
        try await center.stop(again)
        if let dump = try await center.dump() { #expect(dump.integrity == "ok" && dump.leftovers.isEmpty) }
    }
}
