import Dispatch
import NotiplaySystem

/// Runs a handler at every delivery of one signal instead of its default action (a headless
/// server's `SIGHUP`: reload the configuration), until cancelled.
public final class SignalWatch: Sendable {
    nonisolated(unsafe) private let source: any DispatchSourceSignal
    private let number: Int32

    /// Starts watching signal `number`; `handler` runs on a queue of its own each time it comes.
    public init(_ number: Int32, _ handler: @escaping @Sendable () -> Void) {
        self.number = number
        Posix.setDisposition(.ignore, for: number)
        source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "notiplay.signal.\(number)"))
        source.setEventHandler(handler: handler)
        source.resume()
    }

    /// Stops watching; the signal's default action is restored.
    public func cancel() {
        source.cancel()
        Posix.setDisposition(.systemDefault, for: number)
    }
}
