internal import NotiplaySystem
internal import Synchronization
internal import SystemPackage

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
    let pipeFD: Int32
    private let keepAliveFD: Int32
    let fileFD: Int32
    let wakeReadFD: Int32
    private let wakeWriteFD: Int32
    let shared: Mutex<Shared>
    let clock: any PacingClock
    let played = Atomic<Int64>(0)
    private let threadState = Mutex<ThreadState>(ThreadState())

    private struct ThreadState {
        var thread: SystemThread?
        var finished = false
    }

    struct Shared {
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
        /// The first write to the WAV file that failed; nothing is written after it.
        var writeError: SystemCallError?
    }

    /// Opens (creates or empties) the WAV file at `path` (``CaptureFile/open(_:header:)``: a
    /// regular file on a disk), makes the pipe in a new private folder in `temporaryFolder` and
    /// starts the reader thread, muted. The reader paces itself by `clock`.
    /// - Throws: ``PlaybackFailure`` (``PlaybackFailure/captureFailed``) if the file cannot be
    ///   written, or the folder, the pipe or the thread cannot be made.
    init(
        path: String, sampleRate: Int, channels: Int, temporaryFolder: String,
        clock: any PacingClock = MonotonicPacingClock()
    ) throws(PlaybackFailure) {
        self.path = path
        self.clock = clock
        self.sampleRate = sampleRate
        self.channels = channels
        frameBytes = 2 * channels
        bytesPerSecond = sampleRate * frameBytes
        blockBytes = max(1, sampleRate / 200) * frameBytes

        var undo: [() -> Void] = []
        func fail(_ what: String, _ error: SystemCallError) -> PlaybackFailure {
            for step in undo.reversed() { step() }
            return Self.failure(what, error.errno)
        }
        let file = try CaptureFile.open(path, header: WAVHeader.bytes(dataBytes: 0, sampleRate: sampleRate, channels: channels))
        undo.append { Posix.close(file) }

        // mkdtemp makes the folder with mode 0700: no one else can open the pipe.
        let folder: String
        do {
            folder = try Posix.makeTemporaryFolder(prefix: "\(temporaryFolder)/notiplay-capture-")
        } catch {
            throw fail("cannot make a private temporary folder in \(temporaryFolder) for the audio pipe", error)
        }
        undo.append { try? Posix.removeFolder(folder) }
        let fifo = folder + "/audio.pipe"
        do { try Posix.makeFIFO(fifo, permissions: .ownerReadWrite) } catch { throw fail("cannot make the audio pipe \(fifo)", error) }
        undo.append { try? Posix.removeFile(fifo) }
        // The read end first (non-blocking, so opening it waits for no writer), then a write end
        // of our own: libmpv's open never waits for a reader, and the pipe never reports end of
        // file while libmpv closes and reopens its output between files.
        let reader: FileDescriptor
        do {
            reader = try Posix.open(fifo, .readOnly, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw fail("cannot open the audio pipe \(fifo)", error)
        }
        undo.append { Posix.close(reader) }
        let keepAlive: FileDescriptor
        do {
            keepAlive = try Posix.open(fifo, .writeOnly, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw fail("cannot open the audio pipe \(fifo) for writing", error)
        }
        undo.append { Posix.close(keepAlive) }
        // One page: libmpv's writes block once 4 KiB (23 ms at 44.1 kHz stereo) wait unread.
        try? Posix.setPipeSize(reader, 4096)
        let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do { wake = try Posix.pipe() } catch { throw fail("cannot make the capture's wakeup pipe", error) }
        undo.append { Posix.close(wake.readEnd); Posix.close(wake.writeEnd) }
        self.folder = folder
        fifoPath = fifo
        pipeFD = reader.rawValue
        keepAliveFD = keepAlive.rawValue
        fileFD = file.rawValue
        wakeReadFD = wake.readEnd.rawValue
        wakeWriteFD = wake.writeEnd.rawValue
        shared = Mutex(Shared())

        let thread: SystemThread
        do {
            thread = try SystemThread.start(name: "audio capture") { [self] in run() }
        } catch {
            // Everything is closed already: `finish()` must do nothing.
            threadState.withLock { $0.finished = true }
            throw fail("cannot start the audio capture thread", error)
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

    /// Why the WAV file lost audio, if a write to it failed (a full disk, an I/O error): from then
    /// on what is heard is no longer written.
    var writeFailure: PlaybackFailure? {
        shared.withLock { $0.writeError }.map { CaptureFile.failure(path, $0.reason.lowercased()) }
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
        let thread: SystemThread? = threadState.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            return state.thread
        }
        guard let thread else { return }
        shared.withLock { $0.stopping = true }
        wake()
        thread.join()
        let written = shared.withLock { $0.written }
        let header = WAVHeader.bytes(dataBytes: Int(written), sampleRate: sampleRate, channels: channels)
        try? Posix.write(FileDescriptor(rawValue: fileFD), header, at: 0)
        for fd in [fileFD, pipeFD, keepAliveFD, wakeReadFD, wakeWriteFD] { Posix.close(FileDescriptor(rawValue: fd)) }
        try? Posix.removeFile(fifoPath)
        try? Posix.removeFolder(folder)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = try? withUnsafeBytes(of: &byte) { try Posix.write(FileDescriptor(rawValue: wakeWriteFD), $0) }
    }

    // MARK: Helpers

    /// Bytes waiting in a pipe.
    static func pending(_ fd: Int32) -> Int {
        (try? Posix.bytesWaiting(FileDescriptor(rawValue: fd))) ?? 0
    }

    private static func failure(_ what: String, _ errno: Errno) -> PlaybackFailure {
        let reason = errno.description.lowercased()
        return PlaybackFailure(code: PlaybackFailure.captureFailed, message: "\(what): \(reason)", operation: "paced capture")
    }
}
