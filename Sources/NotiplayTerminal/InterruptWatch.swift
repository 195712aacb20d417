import Dispatch
import NotiplaySystem
import Synchronization

/// Runs a handler once on SIGINT, SIGTERM or SIGHUP instead of dying, for a program that shows
/// no card (``TerminalEvents`` watches these signals while a card is shown): what it was doing
/// can then end properly — an audio capture finished, a status line ended. A second signal ends
/// the process by that signal at once.
public final class InterruptWatch: Sendable {
    private static let signals = [SignalNumber.interrupt, SignalNumber.terminate, SignalNumber.hangUp]
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]
    private let signalNumber = Atomic<Int32>(0)
    private let numbers: [Int32]

    /// Starts watching; `handler` runs on a queue of its own at the first signal.
    public convenience init(_ handler: @escaping @Sendable () -> Void) {
        self.init(signal: { _ in handler() })
    }

    /// Starts watching; `handler` runs on a queue of its own at the first signal, with its number.
    /// - Parameter hangUp: Whether `SIGHUP` is one of the signals (a headless server leaves it
    ///   to a ``SignalWatch`` that reloads its configuration).
    public init(hangUp: Bool = true, signal handler: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "notiplay.signals")
        let numbers = hangUp ? Self.signals : Self.signals.filter { $0 != SignalNumber.hangUp }
        self.numbers = numbers
        var sources: [any DispatchSourceSignal] = []
        for number in numbers {
            Posix.setDisposition(.ignore, for: number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            sources.append(source)
        }
        self.sources = sources
        for (source, number) in zip(sources, numbers) {
            source.setEventHandler { [weak self] in
                guard let self else { return }
                if self.signalNumber.exchange(number, ordering: .acquiringAndReleasing) != 0 {
                    Posix.setDisposition(.systemDefault, for: number)
                    Posix.raise(number)
                }
                handler(number)
            }
            source.resume()
        }
    }

    /// The first signal that arrived, if one did.
    public var fired: Int32? {
        let number = signalNumber.load(ordering: .acquiring)
        return number == 0 ? nil : number
    }

    /// Stops watching; the signals' default actions are restored.
    public func cancel() {
        sources.forEach { $0.cancel() }
        for number in numbers { Posix.setDisposition(.systemDefault, for: number) }
    }
}
