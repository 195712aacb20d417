internal import NotiplaySystem
internal import Synchronization
internal import SystemPackage

/// The reader thread: it reads the pipe at the rate a sound card plays while ``Mode/playing``
/// (never more than one block ahead of its clock, earning no credit while the pipe is empty),
/// and at once, throwing it away, while ``Mode/muted``; what it heard goes into the WAV file.
extension PacedCapture {
    /// What the reader waits for after a turn: its wakeup pipe always, the audio pipe when
    /// `data`, and at most `nanoseconds` (`nil`: no limit).
    private struct Wait {
        var data: Bool
        var nanoseconds: Int64? = nil
    }

    /// The most a muted turn reads while holding the lock.
    private static let mutedTurnLimit = 1 << 20

    func run() {
        let scratchSize = 1 << 16
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: scratchSize, alignment: 8)
        defer { scratch.deallocate() }
        let blockNanoseconds = Int64(blockBytes) * 1_000_000_000 / Int64(bytesPerSecond)
        // When the audio ran out while playing: the gap until more comes is silence, and earns
        // the clock no credit.
        var dryAt: Int64?
        var lastNotify: Int64 = 0
        while true {
            let now = clock.now()
            var toWrite = 0
            var stop = false
            var ranOut = false
            var notify: (@Sendable () -> Void)?
            var notifyInterval: Int64 = 0
            let wait: Wait = shared.withLock { s in
                if s.stopping {
                    stop = true
                    return Wait(data: false)
                }
                notify = s.notify
                notifyInterval = s.notifyInterval
                guard s.mode == .playing else {
                    dryAt = nil
                    dropAvailable(&s, limit: Self.mutedTurnLimit)
                    return Wait(data: true)
                }
                if let since = dryAt {
                    guard s.carry.count + Self.pending(pipeFD) >= frameBytes else { return Wait(data: true) }
                    s.anchor += now - since
                    dryAt = nil
                }
                // Real time allows `due` bytes since the anchor; one block more may be read ahead.
                let due = Int64((Double(now - s.anchor) * Double(bytesPerSecond) / 1e9).rounded(.down))
                let done = played.load(ordering: .relaxed) - s.anchorPlayed
                var allowed = Int(min(due - done + Int64(blockBytes), Int64(scratchSize)))
                allowed -= allowed % frameBytes
                guard allowed >= blockBytes else {
                    let missing = Int64(blockBytes - max(0, allowed))
                    return Wait(data: false, nanoseconds: missing * 1_000_000_000 / Int64(bytesPerSecond))
                }
                let carried = s.carry.count
                if carried > 0 { s.carry.withUnsafeBytes { scratch.copyMemory(from: $0) } }
                var got = carried
                let space = UnsafeMutableRawBufferPointer(rebasing: scratch[carried..<allowed])
                let n = (try? Posix.readOnce(FileDescriptor(rawValue: pipeFD), into: space)) ?? 0
                got += n
                let whole = got - got % frameBytes
                s.carry = Array(UnsafeRawBufferPointer(rebasing: scratch[whole..<got]))
                toWrite = whole
                played.wrappingAdd(Int64(whole), ordering: .releasing)
                if whole < allowed {
                    dryAt = now
                    ranOut = true
                    return Wait(data: true)
                }
                return Wait(data: false, nanoseconds: blockNanoseconds)
            }
            if toWrite > 0 { writeToFile(UnsafeRawBufferPointer(rebasing: scratch[0..<toWrite])) }
            if stop { break }
            if let notify {
                if ranOut || (toWrite > 0 && now - lastNotify >= notifyInterval) {
                    lastNotify = now
                    notify()
                }
            }
            sleep(until: wait, turnBegan: now)
        }
    }

    /// Reads and throws away what the pipe holds (up to `limit` bytes), in whole frames: the first
    /// bytes of a frame still being written stay in `carry`. Called with the lock held.
    func dropAvailable(_ s: inout Shared, limit: Int) {
        let frame = frameBytes
        var total = 0
        withUnsafeTemporaryAllocation(byteCount: 1 << 16, alignment: 8) { buffer in
            var kept = s.carry.count
            if kept > 0 { s.carry.withUnsafeBytes { buffer.copyMemory(from: $0) } }
            while total < limit {
                let space = UnsafeMutableRawBufferPointer(rebasing: buffer[kept...])
                guard let n = try? Posix.read(FileDescriptor(rawValue: pipeFD), into: space), n > 0 else { break }
                total += n
                let end = kept + n
                kept = end % frame
                if kept > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + (end - kept), byteCount: kept) }
            }
            s.carry = Array(UnsafeRawBufferPointer(rebasing: buffer[0..<kept]))
        }
    }

    /// Appends `bytes` to the WAV file. A write that fails (or makes no progress: a full disk)
    /// is kept as ``Shared/writeError``, and nothing more is written.
    private func writeToFile(_ bytes: UnsafeRawBufferPointer) {
        guard shared.withLock({ $0.writeError == nil }) else { return }
        var offset = 0
        var failed: SystemCallError?
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            do {
                let n = try Posix.write(FileDescriptor(rawValue: fileFD), rest)
                guard n > 0 else {
                    failed = SystemCallError("write", .noSpace)
                    break
                }
                offset += n
            } catch {
                failed = error
                break
            }
        }
        if let failed { shared.withLock { $0.writeError = failed } }
        // Only whole frames count: a short write (a full disk) leaves the WAV file consistent.
        let whole = offset - offset % frameBytes
        if whole < offset {
            try? Posix.truncate(FileDescriptor(rawValue: fileFD), to: 44 + shared.withLock { $0.written } + Int64(whole))
        }
        shared.withLock { $0.written += Int64(whole) }
    }

    private func sleep(until wait: Wait, turnBegan: Int64) {
        var fds = [Posix.PollEntry(file: FileDescriptor(rawValue: wakeReadFD), events: .readable)]
        if wait.data { fds.append(Posix.PollEntry(file: FileDescriptor(rawValue: pipeFD), events: .readable)) }
        clock.wait(&fds, until: wait.nanoseconds.map { turnBegan + $0 }, turnBegan: turnBegan)
        if !fds[0].found.isEmpty {
            var buffer = (UInt64(0), UInt64(0))
            _ = withUnsafeMutableBytes(of: &buffer) { try? Posix.readOnce(FileDescriptor(rawValue: wakeReadFD), into: $0) }
        }
    }
}
