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

    /// Writes `parts` into the capture's pipe on a thread of its own, in 4 KiB writes that block as
    /// libmpv's do: each part is a number of bytes, or a pause in seconds before the next part.
    /// After each write it notes the time and what the capture had heard (read first), so that
    /// timings are taken on a thread that a busy test pool does not hold up.
    final class Writer: @unchecked Sendable {
        enum Part { case bytes(Int), pause(Double) }
        struct Sample {
            var time: ContinuousClock.Instant
            var heard: Double
        }
        let done = DispatchSemaphore(value: 0)
        // Read after `done` only.
        private(set) var written = 0
        private(set) var samples: [Sample] = []
        /// When each `bytes` part began.
        private(set) var partStarts: [ContinuousClock.Instant] = []

        init(fifo: String, capture: PacedCapture? = nil, parts: [Part]) {
            let thread = Thread { [self] in
                let clock = ContinuousClock()
                let fd = open(fifo, O_WRONLY | O_CLOEXEC)
                precondition(fd >= 0, "cannot open \(fifo)")
                for part in parts {
                    switch part {
                    case .pause(let seconds):
                        usleep(UInt32(seconds * 1_000_000))
                    case .bytes(let count):
                        partStarts.append(clock.now)
                        let bytes = PacedCaptureReaderTests.pattern(from: written, count: count)
                        var offset = 0
                        while offset < bytes.count {
                            let end = min(bytes.count, offset + 4096)
                            let n = bytes[offset..<end].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                            precondition(n > 0, "write failed: \(errno)")
                            offset += n
                            if let capture {
                                let heard = capture.heardSeconds
                                samples.append(Sample(time: clock.now, heard: heard))
                            }
                        }
                        written += count
                    }
                }
                close(fd)
                done.signal()
            }
            thread.start()
        }

        /// Waits for the writer without blocking a thread of the concurrency pool: the semaphore
        /// is waited for on a thread started for it. (Not on `DispatchQueue.global()`: on Linux
        /// that is the pool itself, one thread per core, and a writer runs for a second or more.)
        func finished() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread {
                    self.done.wait()
                    continuation.resume()
                }.start()
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
        capture.setMode(.playing)
        let writer = Writer(fifo: capture.fifoPath, capture: capture, parts: [.bytes(total)])
        await writer.finished()
        while capture.playedBytes < Int64(total) { try await Task.sleep(for: .milliseconds(5)) }
        capture.finish()

        // Nothing can be heard before the first write; from then on, real time.
        let begin = try #require(writer.partStarts.first)
        let block = Double(capture.blockBytes) / Double(Self.bytesPerSecond)
        #expect(writer.samples.count > 40)
        for sample in writer.samples {
            let elapsed = (sample.time - begin).seconds
            #expect(sample.heard <= elapsed + block + 0.001, "heard \(sample.heard) s \(elapsed) s after the first write")
            #expect(sample.heard >= elapsed - 0.25, "heard only \(sample.heard) s \(elapsed) s after the first write")
        }
        // The last write returned once the pipe took it: 1 s minus the pipe (4 KiB) at the least.
        let last = try #require(writer.samples.last)
        #expect((last.time - begin).seconds >= 1.0 - 4096.0 / Double(Self.bytesPerSecond) - block - 0.001)
        let wav = try WAVFile(contentsOf: path)
        #expect(wav.frames == Self.rate)
        let intact = Array(wav.samples) == Self.pattern(from: 0, count: total)
        #expect(intact, "the bytes came through whole and in order")
    }

    /// While the pipe is empty the clock stops: a writer that pauses 600 ms is not made up for
    /// by a burst afterwards.
    @Test func aGapInTheAudioEarnsNoCredit() async throws {
        let (capture, path) = try makeCapture()
        let part = Self.bytesPerSecond * 3 / 10  // 0.3 s
        capture.setMode(.playing)
        let writer = Writer(fifo: capture.fifoPath, capture: capture, parts: [.bytes(part), .pause(0.6), .bytes(part)])
        await writer.finished()
        while capture.playedBytes < Int64(2 * part) { try await Task.sleep(for: .milliseconds(5)) }
        capture.finish()

        let resumed = try #require(writer.partStarts.last)
        let block = Double(capture.blockBytes) / Double(Self.bytesPerSecond)
        let after = writer.samples.filter { $0.time > resumed }
        #expect(after.count > 10)
        for sample in after {
            let since = (sample.time - resumed).seconds
            #expect(sample.heard - 0.3 <= since + block + 0.001, "\(sample.heard - 0.3) s heard \(since) s after the audio came back")
        }
        #expect(try WAVFile(contentsOf: path).frames == 2 * part / Self.frameBytes)
    }

    /// Muted, the capture reads as fast as the writer writes and keeps nothing; the frames after
    /// it are whole again (a partial frame read while muted is completed and dropped).
    @Test func mutedReadsAtOnceAndKeepsNothing() async throws {
        let (capture, path) = try makeCapture()
        let writer = Writer(fifo: capture.fifoPath, capture: capture, parts: [.bytes(2 * Self.bytesPerSecond + 2)])
        await writer.finished()
        let took = try #require(writer.samples.last).time - (try #require(writer.partStarts.first))
        #expect(took < .seconds(1), "2 s written into a muted capture in \(took)")
        #expect(capture.heardSeconds == 0)
        // The 2 bytes of a frame begun are dropped with it when the writer completes the frame.
        let rest = Writer(fifo: capture.fifoPath, parts: [.bytes(2)])
        await rest.finished()
        capture.discard()
        #expect(capture.isDrained)
        capture.setMode(.playing)
        let after = Writer(fifo: capture.fifoPath, parts: [.bytes(Self.bytesPerSecond / 10)])
        await after.finished()
        while capture.playedBytes < Int64(Self.bytesPerSecond / 10) { try await Task.sleep(for: .milliseconds(5)) }
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
