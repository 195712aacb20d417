// A measurement, not a test: skipped unless NOTIPLAY_STORE_BENCH=1. It fills a store with 100,000
// notifications (payloads of about 170 bytes, one in ten with an attachment, half of them ended)
// and times what `notiplay history --json` does with them, two ways:
// - `history(limit:)` then `StoredNotification.writeJSONArray` (notifications read into values
//   first, as `list --json` does with a few);
// - `writeHistoryJSON(limit:)` (rows written as JSON straight from SQLite, what `history --json`
//   should use).
// The target is 100 ms. Figures are printed, never asserted (they depend on the machine). The
// JSON goes to /dev/null in chunks, as to a pipe.
//
//     NOTIPLAY_STORE_BENCH=1 swift test --skip-build --filter StoreBenchmark
//
// That is a debug build, five to seven times slower here than release. The release figure needs
// this code built with -O, and `swift build -c release --build-tests -Xswiftc -enable-testing`
// does not build on Swift 6.3.1 today (swift-frontend crashes on NotiplayPlaybackTests with -O):
// the same code in a throwaway executable target built with `swift build -c release` measures it.
import Foundation
import NotiplayCenter
import Testing

@Suite("Store benchmark (NOTIPLAY_STORE_BENCH=1)")
struct StoreBenchmark {
    static let enabled = ProcessInfo.processInfo.environment["NOTIPLAY_STORE_BENCH"] == "1"

    @Test(
        "history of 100,000 notifications as JSON, timed",
        .enabled(if: enabled, "a measurement: set NOTIPLAY_STORE_BENCH=1 to run it"))
    func historyAsJSON() throws {
        try withScratchFolder { folder in
            let count = 100_000
            let dates = TestDates()
            let store = try CenterStore.open(folder: folder, now: dates.now)
            let sound = IncomingAttachment(name: "chime.wav", kind: "com.microsoft.waveform-audio", bytes: sampleBytes(4096, seed: 9))
            for batch in stride(from: 0, to: count, by: 10_000) {
                try store.add(contentsOf: (batch..<batch + 10_000).map { index in
                    IncomingNotification(
                        identifier: "bench-\(index)", app: "Bench",
                        payload: #"{"aps":{"alert":{"title":"Build \#(index)","body":"The build of main finished: 1,024 tests passed."},"thread-id":"ci","category":"build"},"run":\#(index)}"#,
                        threadIdentifier: "ci", categoryIdentifier: "build",
                        attachments: index % 10 == 0 ? [sound] : [], sender: "sender \(index % 8)")
                })
                dates.advance(by: .seconds(1))
            }
            try store.removeAll(states: [.delivered])

            let output = try #require(FileHandle(forWritingAtPath: "/dev/null"))
            defer { try? output.close() }
            func write(_ chunk: UnsafeRawBufferPointer) {
                output.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: chunk.baseAddress!), count: chunk.count, deallocator: .none))
            }
            let runs = 7
            var throughValues: [Duration] = []
            var streamed: [Duration] = []
            var bytes = 0
            for _ in 0..<runs {
                let start = ContinuousClock.now
                let history = try store.history(limit: count)
                StoredNotification.writeJSONArray(history) { chunk in
                    bytes += chunk.count
                    write(chunk)
                }
                let middle = ContinuousClock.now
                try store.writeHistoryJSON(limit: count, to: write)
                streamed.append(ContinuousClock.now - middle)
                throughValues.append(middle - start)
                #expect(history.count == count)
            }
            func median(_ times: [Duration]) -> String {
                let time = times.sorted()[runs / 2]
                return String(format: "%.1f ms", Double(time.components.seconds) * 1000 + Double(time.components.attoseconds) * 1e-15)
            }
            print(
                """
                StoreBenchmark: \(count) notifications, \(bytes / runs) bytes of JSON; medians of \(runs) runs: \
                writeHistoryJSON(limit:) \(median(streamed)), history(limit:) + writeJSONArray \(median(throughValues)); \
                target 100 ms
                """)
        }
    }
}
