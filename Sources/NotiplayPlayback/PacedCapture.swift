#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Synchronization

/// A sound card made of a named pipe: libmpv's `pcm` output writes raw samples into the pipe, a
/// thread of its own reads them at the rate a sound card plays, and what it reads is what a
/// listener heard; it goes into a WAV file.
///
/// libmpv's `pcm` output writes as fast as it can, so with a small pipe read in real time its
/// writes block and libmpv advances in real time. While ``Mode/muted`` the reader reads as fast
/// as libmpv writes and throws it away: what a sound card drops on a pause, a seek or a stop.
///
/// The reader never waits for the engine or for libmpv, only for the clock, the pipe and its
/// wakeup pipe: every write of libmpv's ends, in real time while playing, at once while muted.
///
/// Thread safety: the mode, the clock and every read of the audio pipe are guarded by one mutex;
/// the WAV file is written by the reader thread only, and by ``finish()`` after it ended.
final class PacedCapture: @unchecked Sendable {
    /// What the capture does with what libmpv writes.
    enum Mode: Sendable, Equatable {
        /// Read in real time: heard, and written to the WAV file.
        case playing
        /// Read at once and thrown away: nothing is heard.
        case muted
    }

    /// Frames per second in the pipe and in the WAV file.
    let sampleRate: Int
    /// Interleaved channels.
    let channels: Int
    /// Bytes per frame (16-bit samples).
    let frameBytes: Int
    /// Bytes per second of audio.
    let bytesPerSecond: Int
    /// How far ahead of real time the reader may read, in bytes: 5 ms of audio.
    let blockBytes: Int
    /// The pipe libmpv writes into.
    let fifoPath: String
    /// The WAV file.
    let path: String

    private let folder: String
    private let pipeFD: Int32
    private let keepAliveFD: Int32
    private let fileFD: Int32
    private let wakeReadFD: Int32
    private let wakeWriteFD: Int32
    private let shared: Mutex<Shared>
    private let clock: any PacingClock
    private let played = Atomic<Int64>(0)
    private let threadState = Mutex<ThreadState>(ThreadState())

    private struct ThreadState {
        var thread: pthread_t?
        var finished = false
    }

    private struct Shared {
        var mode: Mode = .muted
        /// The first bytes of a frame whose rest is still to come (fewer than `frameBytes`).
        var carry: [UInt8] = []
        /// The pacing: `anchorPlayed` bytes had been played at `anchor` (the clock's ns).
        var anchor: Int64 = 0
        var anchorPlayed: Int64 = 0
        var stopping = false
        var notify: (@Sendable () -> Void)?
        var notifyInterval: Int64 = 50_000_000
        /// Bytes put into the WAV file, header excluded.
        var written: Int64 = 0
    }

    /// Opens (creates or truncates) the WAV file at `path`, makes the pipe in a new private
    /// temporary folder and starts the reader thread, muted. The reader paces itself by `clock`.
    /// - Throws: ``PlaybackFailure`` (``PlaybackFailure/captureFailed``) if the file cannot be
    ///   written, or the folder, the pipe or the thread cannot be made.
    init(
        path: String, sampleRate: Int, channels: Int, clock: any PacingClock = MonotonicPacingClock()
    ) throws(PlaybackFailure) {
        self.path = path
        self.clock = clock
        self.sampleRate = sampleRate
        self.channels = channels
        frameBytes = 2 * channels
        bytesPerSecond = sampleRate * frameBytes
        blockBytes = max(1, sampleRate / 200) * frameBytes

        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0o644)
        guard file >= 0 else { throw Self.failure("cannot write the audio capture file \(path)", errno: errno) }
        var undo: [() -> Void] = [{ close(file) }]
        func fail(_ what: String, _ code: Int32) -> PlaybackFailure {
            for step in undo.reversed() { step() }
            return Self.failure(what, errno: code)
        }

        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/notiplay-capture-XXXXXX".utf8CString)
        // mkdtemp makes the folder with mode 0700: no one else can open the pipe.
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw fail("cannot make a private temporary folder in \(base) for the audio pipe", errno)
        }
        let folder = String(cString: made)
        undo.append { rmdir(folder) }
        let fifo = folder + "/audio.pipe"
        guard mkfifo(fifo, 0o600) == 0 else { throw fail("cannot make the audio pipe \(fifo)", errno) }
        undo.append { unlink(fifo) }
        // The read end first (non-blocking, so opening it waits for no writer), then a write end
        // of our own: libmpv's open never waits for a reader, and the pipe never reports end of
        // file while libmpv closes and reopens its output between files.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard reader >= 0 else { throw fail("cannot open the audio pipe \(fifo)", errno) }
        undo.append { close(reader) }
        let keepAlive = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard keepAlive >= 0 else { throw fail("cannot open the audio pipe \(fifo) for writing", errno) }
        undo.append { close(keepAlive) }
        // One page: libmpv's writes block once 4 KiB (23 ms at 44.1 kHz stereo) wait unread.
        _ = fcntl(reader, Self.setPipeSize, 4096)
        var wake: [Int32] = [0, 0]
        guard pipe(&wake) == 0 else { throw fail("cannot make the capture's wakeup pipe", errno) }
        undo.append { close(wake[0]); close(wake[1]) }
        for fd in wake {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let header = Self.waveHeader(dataBytes: 0, sampleRate: sampleRate, channels: channels)
        guard Self.writeAll(file, header) else { throw fail("cannot write the audio capture file \(path)", errno) }

        self.folder = folder
        fifoPath = fifo
        pipeFD = reader
        keepAliveFD = keepAlive
        fileFD = file
        wakeReadFD = wake[0]
        wakeWriteFD = wake[1]
        shared = Mutex(Shared())

        let context = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, runPacedCaptureReader, context.toOpaque())
        guard status == 0 else {
            context.release()
            // Everything is closed already: `finish()` must do nothing.
            threadState.withLock { $0.finished = true }
            throw fail("cannot start the audio capture thread", status)
        }
        threadState.withLock { $0.thread = thread }
    }

    // MARK: Control (any thread)

    /// Seconds heard so far: everything played, over every file, since the capture began.
    var heardSeconds: Double { Double(playedBytes) / Double(bytesPerSecond) }

    /// Bytes heard so far.
    var playedBytes: Int64 { played.load(ordering: .acquiring) }

    /// The current mode.
    var mode: Mode { shared.withLock { $0.mode } }

    /// Switches the mode. ``Mode/muted`` stops what is heard at once; ``Mode/playing`` starts the
    /// pacing clock afresh (a pause earns no credit).
    func setMode(_ mode: Mode) {
        shared.withLock { s in
            guard s.mode != mode else { return }
            if mode == .playing {
                s.anchor = clock.now()
                s.anchorPlayed = played.load(ordering: .relaxed)
            }
            s.mode = mode
        }
        wake()
    }

    /// Throws away, now, what waits in the pipe. Call it while libmpv writes nothing (paused),
    /// or it may also throw away what comes next.
    func discard() {
        shared.withLock { s in dropAvailable(&s, limit: Int.max) }
    }

    /// Whether everything libmpv wrote into the pipe has been read.
    var isDrained: Bool {
        shared.withLock { s in s.carry.isEmpty && Self.pending(pipeFD) == 0 }
    }

    /// Calls `notify` from the reader thread at most every `interval` while audio is heard, and
    /// each time the audio runs out while playing. `notify` must return at once.
    func setNotify(interval: Duration, _ notify: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = interval.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        shared.withLock {
            $0.notify = notify
            $0.notifyInterval = max(1_000_000, nanoseconds)
        }
        wake()
    }

    /// Stops the reader, writes the WAV header with the final sizes, closes everything and
    /// removes the pipe and its folder. Call it once libmpv closed its output (its handle was
    /// destroyed); what is still in the pipe is not heard. Idempotent.
    func finish() {
        let thread: pthread_t? = threadState.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            return state.thread
        }
        guard let thread else { return }
        shared.withLock { $0.stopping = true }
        wake()
        pthread_join(thread, nil)
        let written = shared.withLock { $0.written }
        let header = Self.waveHeader(dataBytes: Int(written), sampleRate: sampleRate, channels: channels)
        _ = header.withUnsafeBytes { pwrite(fileFD, $0.baseAddress, $0.count, 0) }
        close(fileFD)
        close(pipeFD)
        close(keepAliveFD)
        close(wakeReadFD)
        close(wakeWriteFD)
        unlink(fifoPath)
        rmdir(folder)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)
    }

    // MARK: The reader thread

    /// What the reader waits for after a turn: its wakeup pipe always, the audio pipe when
    /// `data`, and at most `nanoseconds` (`nil`: no limit).
    private struct Wait {
        var data: Bool
        var nanoseconds: Int64? = nil
    }

    /// The most a muted turn reads while holding the lock.
    private static let mutedTurnLimit = 1 << 20

    fileprivate func run() {
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
                let n = read(pipeFD, scratch.baseAddress! + carried, allowed - carried)
                if n > 0 { got += n }
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
    private func dropAvailable(_ s: inout Shared, limit: Int) {
        let frame = frameBytes
        var total = 0
        withUnsafeTemporaryAllocation(byteCount: 1 << 16, alignment: 8) { buffer in
            var kept = s.carry.count
            if kept > 0 { s.carry.withUnsafeBytes { buffer.copyMemory(from: $0) } }
            while total < limit {
                let n = read(pipeFD, buffer.baseAddress! + kept, buffer.count - kept)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                total += n
                let end = kept + n
                kept = end % frame
                if kept > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + (end - kept), byteCount: kept) }
            }
            s.carry = Array(UnsafeRawBufferPointer(rebasing: buffer[0..<kept]))
        }
    }

    private func writeToFile(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let n = write(fileFD, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            offset += n
        }
        // Only whole frames count: a short write (a full disk) leaves the WAV file consistent.
        let whole = offset - offset % frameBytes
        if whole < offset { _ = ftruncate(fileFD, off_t(44 + shared.withLock { $0.written } + Int64(whole))) }
        shared.withLock { $0.written += Int64(whole) }
    }

    private func sleep(until wait: Wait, turnBegan: Int64) {
        var fds = [pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0)]
        if wait.data { fds.append(pollfd(fd: pipeFD, events: Int16(POLLIN), revents: 0)) }
        clock.wait(&fds, until: wait.nanoseconds.map { turnBegan + $0 }, turnBegan: turnBegan)
        if fds[0].revents != 0 {
            var buffer = (UInt64(0), UInt64(0))
            _ = withUnsafeMutableBytes(of: &buffer) { read(wakeReadFD, $0.baseAddress, $0.count) }
        }
    }

    // MARK: Helpers

    /// `F_SETPIPE_SZ` (Linux), which Glibc's Swift module does not export.
    private static let setPipeSize: Int32 = 1031

    /// Bytes waiting in a pipe.
    private static func pending(_ fd: Int32) -> Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    private static func failure(_ what: String, errno code: Int32) -> PlaybackFailure {
        let reason = String(cString: strerror(code)).lowercased()
        return PlaybackFailure(code: PlaybackFailure.captureFailed, message: "\(what): \(reason)", operation: "paced capture")
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    /// The 44-byte RIFF/WAVE header of 16-bit integer PCM with `dataBytes` of samples.
    static func waveHeader(dataBytes: Int, sampleRate: Int, channels: Int) -> [UInt8] {
        let data = UInt32(clamping: min(dataBytes, Int(UInt32.max) - 36))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44)
        func tag(_ text: String) { bytes += Array(text.utf8) }
        func u16(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: UInt32) { bytes += (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        tag("RIFF"); u32(36 + data); tag("WAVE")
        tag("fmt "); u32(16); u16(1); u16(channels); u32(UInt32(sampleRate))
        u32(UInt32(sampleRate * channels * 2)); u16(channels * 2); u16(16)
        tag("data"); u32(data)
        return bytes
    }
}

private func runPacedCaptureReader(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let capture = Unmanaged<PacedCapture>.fromOpaque(context).takeRetainedValue()
    capture.run()
    return nil
}
