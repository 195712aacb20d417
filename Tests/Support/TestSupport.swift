public import Foundation
import Synchronization

/// Sample files and scratch folders for tests.
public enum TestMedia {
    /// The package's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The path of `Media/NAME`.
    public static func path(_ name: String) -> String { root.appendingPathComponent("Media/\(name)").path }

    /// A new empty folder under the temporary directory.
    public static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Whether this machine has a sound card (tests of the silent fallback need none).
    public static var hasSoundDevice: Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []).contains { $0.hasPrefix("pcm") }
    }
}

/// Thrown by ``withTimeout(_:_:)`` when the work did not finish in time.
public struct TimedOut: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "timed out after \(seconds) s" }
}

/// Runs `work`, failing with ``TimedOut`` if it takes longer than `seconds`.
///
/// The sleep here is a guard against a hang, not a stand-in for an event: `work` waits on events.
/// At the limit `work` is cancelled and the call returns at once, even when `work` does not
/// answer cancellation (a task group would wait for it).
public func withTimeout<T: Sendable>(
    _ seconds: Double, _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    let gate = TimeoutGate<T>()
    return try await withCheckedThrowingContinuation { continuation in
        gate.start(continuation)
        let worker = Task {
            do { gate.finish(.success(try await work())) } catch { gate.finish(.failure(error)) }
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            guard !Task.isCancelled else { return }
            if gate.finish(.failure(TimedOut(seconds: seconds))) { worker.cancel() }
        }
        gate.onFinish { timer.cancel() }
    }
}

/// The first of the work's result and the time limit, delivered once.
private final class TimeoutGate<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var finished: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Runs `action` once the gate is passed (at once if it was).
    func onFinish(_ action: @escaping @Sendable () -> Void) {
        let now: Bool = state.withLock { s in
            if s.result != nil { return true }
            s.finished = action
            return false
        }
        if now { action() }
    }

    /// Delivers `result` unless something was delivered before; says whether it was this.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let taken: (CheckedContinuation<T, any Error>, (@Sendable () -> Void)?)? = state.withLock { s in
            guard s.result == nil, let continuation = s.continuation else { return nil }
            s.result = result
            s.continuation = nil
            return (continuation, s.finished)
        }
        guard let (continuation, finished) = taken else { return false }
        continuation.resume(with: result)
        finished?()
        return true
    }
}
