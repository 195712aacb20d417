import Foundation
@testable import NotiplayPlayback
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The capture's reader alone, fed by a writer thread of the test's instead of libmpv: it reads in
/// real time, never more than one block ahead, earns no credit while the pipe is empty, and while
/// muted it reads at once and keeps nothing.
@Suite(.timeLimit(.minutes(1)))
struct PacedCaptureReaderTests {
    static let rate = 44_100
    static let frameBytes = 4
    static let bytesPerSecond = rate * frameBytes
    let clock = ContinuousClock()

    /// A recognizable byte pattern: byte `i` of the stream is `i % 251`.
    static func pattern(from offset: Int, count: Int) -> [UInt8] {
        (offset..<offset + count).map { UInt8($0 % 251) }
    }

    /// Writes `parts` into the capture's pipe on a thread of its own (the writes block, as
    /// libmpv's do): each part is a number of bytes, or a pause in seconds before the next part.
    /// Returns once the thread started; `done` is signalled when all was written.
    final class Writer: @unchecked Sendable {
        enum Part { case bytes(Int), pause(Double) }
        let done = DispatchSemaphore(value: 0)
        // Read after `done` only.
        private(set) var written = 0

        init(fifo: String, parts: [Part]) {
            let thread = Thread { [self] in
                let fd = open(fifo, O_WRONLY | O_CLOEXEC)
                precondition(fd >= 0, "cannot open \(fifo)")
                for part in parts {
                    switch part {
                    case .pause(let seconds):
                        usleep(UInt32(seconds * 1_000_000))
                    case .bytes(let count):
                        let bytes = PacedCaptureReaderTests.pattern(from: written, count: count)
                        var offset = 0
                        while offset < bytes.count {
                            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                            precondition(n > 0, "write failed: \(errno)")
                            offset += n
                        }
                        written += count
                    }
                }
                close(fd)
                done.signal()
            }
            thread.start()
        }

        /// Waits for the writer without blocking a thread of the concurrency pool.
        func finished() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    self.done.wait()
                    continuation.resume()
                }
            }
        }
    }

    func makeCapture() throws -> (PacedCapture, String) {
        let path = try TestMedia.scratch().appendingPathComponent("heard.wav").path
        return (try PacedCapture(path: path, sampleRate: Self.rate, channels: 2), path)
    }

    @Test func readsInRealTimeNeverAheadByMoreThanABlock() async throws {
        let (capture, path) = try makeCapture()
        let total = Self.bytesPerSecond  // 1 s
        let writer = Writer(fifo: capture.fifoPath, parts: [.bytes(total)])
        let begin = clock.now
        capture.setMode(.playing)
        var samples: [(elapsed: Double, heard: Double)] = []
        while clock.now - begin < .milliseconds(800) {
            // Heard first, then the time: heard can only be under-estimated against the clock.
            let heard = capture.heardSeconds
            samples.append(((clock.now - begin).seconds, heard))
            try await Task.sleep(for: .milliseconds(20))
        }
        await writer.finished()
        while capture.playedBytes < Int64(total) && clock.now - begin < .seconds(3) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let ended = (clock.now - begin).seconds
        capture.finish()

        let block = Double(capture.blockBytes) / Double(Self.bytesPerSecond)
        for sample in samples {
            #expect(sample.heard <= sample.elapsed + block + 0.001, "heard \(sample.heard) s after \(sample.elapsed) s")
            #expect(sample.heard >= sample.elapsed - 0.15, "heard only \(sample.heard) s after \(sample.elapsed) s")
        }
        #expect(ended >= 1.0 - block - 0.001 && ended < 1.3, "1 s of audio read in \(ended) s")
        let wav = try WAVFile(contentsOf: path)
        #expect(wav.frames == Self.rate)
        #expect(Array(wav.samples) == Self.pattern(from: 0, count: total), "the bytes came through whole and in order")
    }

    /// While the pipe is empty the clock stops: a writer that pauses 300 ms is not made up for
    /// by a burst afterwards.
    @Test func aGapInTheAudioEarnsNoCredit() async throws {
        let (capture, path) = try makeCapture()
        let part = Self.bytesPerSecond * 3 / 10  // 0.3 s
        capture.setMode(.playing)
        let writer = Writer(fifo: capture.fifoPath, parts: [.bytes(part), .pause(0.6), .bytes(part)])
        // The first 0.3 s is heard, then nothing until the writer goes on.
        while capture.playedBytes < Int64(part) { try await Task.sleep(for: .milliseconds(5)) }
        let firstDone = clock.now
        while capture.playedBytes == Int64(part) && clock.now - firstDone < .seconds(2) {
            try await Task.sleep(for: .milliseconds(2))
        }
        let resumed = clock.now
        #expect(resumed - firstDone > .milliseconds(150), "the writer paused, yet audio came after \(resumed - firstDone)")
        try await Task.sleep(until: resumed + .milliseconds(100), clock: clock)
        let heard = capture.heardSeconds
        let since = (clock.now - resumed).seconds
        let block = Double(capture.blockBytes) / Double(Self.bytesPerSecond)
        #expect(heard - 0.3 <= since + block + 0.001, "\(heard - 0.3) s heard \(since) s after the audio came back")
        await writer.finished()
        while capture.playedBytes < Int64(2 * part) && clock.now - resumed < .seconds(3) {
            try await Task.sleep(for: .milliseconds(10))
        }
        capture.finish()
        #expect(try WAVFile(contentsOf: path).frames == 2 * part / Self.frameBytes)
    }

    /// Muted, the capture reads as fast as the writer writes and keeps nothing; the frames after
    /// it are whole again (a partial frame read while muted is completed and dropped).
    @Test func mutedReadsAtOnceAndKeepsNothing() async throws {
        let (capture, path) = try makeCapture()
        let writer = Writer(fifo: capture.fifoPath, parts: [.bytes(2 * Self.bytesPerSecond + 2)])
        let begin = clock.now
        await writer.finished()
        #expect(clock.now - begin < .milliseconds(500), "2 s written into a muted capture in \(clock.now - begin)")
        #expect(capture.heardSeconds == 0)
        // The 2 bytes of a frame begun are dropped with it when the writer completes the frame.
        let rest = Writer(fifo: capture.fifoPath, parts: [.bytes(2)])
        await rest.finished()
        capture.discard()
        #expect(capture.isDrained)
        capture.setMode(.playing)
        let after = Writer(fifo: capture.fifoPath, parts: [.bytes(Self.bytesPerSecond / 10)])
        await after.finished()
        while capture.playedBytes < Int64(Self.bytesPerSecond / 10) && clock.now - begin < .seconds(3) {
            try await Task.sleep(for: .milliseconds(10))
        }
        capture.finish()
        let wav = try WAVFile(contentsOf: path)
        #expect(wav.frames == Self.rate / 10)
        // Each writer counts its pattern from 0: the capture kept the last one's bytes only.
        #expect(Array(wav.samples) == Self.pattern(from: 0, count: Self.bytesPerSecond / 10))
        #expect(!FileManager.default.fileExists(atPath: capture.fifoPath))
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
