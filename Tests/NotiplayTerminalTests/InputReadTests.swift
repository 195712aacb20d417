#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import Synchronization
import Testing

@testable import NotiplayTerminal
import NotiplayViews

/// The event reader's one read: what `poll()` said is readable may be gone by the time of the
/// read (input flushed by `TCSAFLUSH`, or read by someone else); the read must never wait for
/// more, or `TerminalEvents.stop()` waits for its thread forever.
@Suite("InputRead: a read that never waits")
struct InputReadTests {
    /// `InputRead.available` on a thread of its own; `nil` when it has not returned after
    /// `seconds` (a hang guard: a correct read returns at once), and then `release` unblocks the
    /// thread.
    private func readOnItsOwnThread(
        _ fd: Int32, revents: Int16, seconds: Double = 20, release: @escaping @Sendable () -> Void
    ) async -> InputRead.Outcome? {
        let answered = Once()
        return await withCheckedContinuation { (continuation: CheckedContinuation<InputRead.Outcome?, Never>) in
            Thread {
                var buffer = [UInt8](repeating: 0, count: 16)
                let outcome = InputRead.available(fd, revents: revents, into: &buffer)
                if answered.claim() { continuation.resume(returning: outcome) }
            }.start()
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                if answered.claim() {
                    continuation.resume(returning: nil)
                    release()
                }
            }
        }
    }

    @Test("readiness that is stale on a pipe: nothing, at once")
    func stalePipe() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writer = ends[1]
        let outcome = await readOnItsOwnThread(ends[0], revents: Int16(POLLIN)) { close(writer) }
        #expect(outcome == .nothing, "the read waited for input that was not there")
        if outcome != nil { close(writer) }
    }

    @Test("readiness that is stale on a terminal (input flushed after poll): nothing, at once")
    func staleTerminal() async throws {
        let pty = try PseudoTerminal()
        var raw = pty.settings()
        cfmakeraw(&raw)
        try #require(tcsetattr(pty.slave, TCSANOW, &raw) == 0)  // as the guard leaves it: a byte is readable
        pty.type("x")
        var descriptor = pollfd(fd: pty.slave, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 20_000) == 1)
        #expect(tcflush(pty.slave, TCIFLUSH) == 0)  // gone, as TCSAFLUSH would take it
        let master = pty.master
        let outcome = await readOnItsOwnThread(pty.slave, revents: descriptor.revents) {
            _ = Array("\n".utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
        #expect(outcome == .nothing, "the read waited for input that was flushed")
    }

    @Test("what is there is read, no more than the buffer holds; the rest on the next read")
    func bytes() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        _ = Array("abcdef".utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(InputRead.available(ends[0], revents: Int16(POLLIN), into: &buffer) == .bytes(4))
        #expect(buffer == Array("abcd".utf8))
        #expect(InputRead.available(ends[0], revents: Int16(POLLIN), into: &buffer) == .bytes(2))
        #expect(buffer.prefix(2) == Array("ef".utf8)[...])
    }

    @Test("the end: a pipe whose writer is gone, a terminal hung up, a file at its end")
    func end() throws {
        var buffer = [UInt8](repeating: 0, count: 16)
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        _ = Array("z".utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 20_000) == 1)
        #expect(InputRead.available(ends[0], revents: descriptor.revents, into: &buffer) == .bytes(1))
        #expect(poll(&descriptor, 1, 20_000) == 1)
        #expect(InputRead.available(ends[0], revents: descriptor.revents, into: &buffer) == .end)

        let pty = try PseudoTerminal()
        pty.closeMaster()
        var hungUp = pollfd(fd: pty.slave, events: Int16(POLLIN), revents: 0)
        #expect(poll(&hungUp, 1, 20_000) == 1)
        #expect(InputRead.available(pty.slave, revents: hungUp.revents, into: &buffer) == .end)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString)").path
        try Data("q".utf8).write(to: URL(fileURLWithPath: file))
        defer { unlink(file) }
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(InputRead.available(fd, revents: Int16(POLLIN), into: &buffer) == .bytes(1))
        #expect(InputRead.available(fd, revents: Int16(POLLIN), into: &buffer) == .end)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(null) }
        #expect(InputRead.available(null, revents: Int16(POLLIN), into: &buffer) == .end)
    }
}

/// True for the first caller of ``claim()`` only.
private final class Once: Sendable {
    private let claimed = Mutex(false)

    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
