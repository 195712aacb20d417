import NotiplayCore
import NotiplayPlayback
import NotiplayTestSupport
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension RealEngine {
    /// On an unpaced output a file can end before the engine reads its events: the duration must
    /// still come with `loaded`.
    @Suite(.timeLimit(.minutes(1)))
    struct MPVEngineDurationTests {
        @Test(arguments: [AudioOutput.null(untimed: true), .pcm(path: "")])
        func loadedCarriesTheDurationOnUnpacedOutput(_ output: AudioOutput) async throws {
            var output = output
            if case .pcm = output { output = .pcm(path: try TestMedia.scratch().appendingPathComponent("out.wav").path) }
            let engine = try MPVEngine(output: output)
            let file = try AudioFileValidator().validate(TestMedia.path("tone-1s.wav"))
            var durations: [Double?] = []
            for _ in 0..<30 {
                _ = try await engine.playToEnd(file) { event in
                    if case .loaded(let duration) = event.kind { durations.append(duration) }
                }
            }
            await engine.shutdown()
            #expect(durations == Array(repeating: 1.0, count: 30))
        }
    }
}
