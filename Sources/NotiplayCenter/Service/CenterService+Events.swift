/// The center's events reach any number of observers, each in the order they happened.
extension CenterService {
    /// A registration made by ``observe(_:)``; ``cancel()`` ends it.
    package struct Observation: Sendable, Hashable {
        let token: UInt64
    }

    /// Calls `handler` with every center event from now on, after the observers registered
    /// before it. Observers do not replace one another.
    @discardableResult
    package func observe(_ handler: @escaping @MainActor (Event) -> Void) -> Observation {
        observerTokens += 1
        observers.append((observerTokens, handler))
        return Observation(token: observerTokens)
    }

    /// Stops calling the observer `observation` registered.
    package func cancel(_ observation: Observation) {
        observers.removeAll { $0.token == observation.token }
    }

    /// Hands `event` to every observer.
    func emit(_ event: Event) {
        for observer in observers { observer.handler(event) }
    }
}
