import Notiplay

/// Media that starts by itself when its notification arrives (the desktop bridge's sound files),
/// and notifications the history does not keep.
extension CenterService {
    /// The next arrival of `identifier` starts its card's media, as if the media button were
    /// pressed: its card is shown at once unless the shown card's media is playing, in which
    /// case it waits its turn and starts when it shows. Call it before ``receive(_:)``; whether
    /// it may play at all (Focus, the interruption level) is the caller's decision.
    package func playOnArrival(_ identifier: String) {
        autoPlay.insert(identifier)
    }

    /// Takes back ``playOnArrival(_:)`` for `identifier` (its arrival was refused).
    package func cancelPlayOnArrival(_ identifier: String) {
        autoPlay.remove(identifier)
    }

    /// Shows the card of `identifier`, which just arrived, and starts its media, unless other
    /// media is playing. Returns whether it did (the arrival then needs nothing else).
    func startsMediaOnArrival(_ identifier: String) -> Bool {
        if let session = shownSession, session.isPlaying, queue.shown?.identifiers.contains(identifier) != true {
            return false
        }
        guard queue.show(identifier: identifier) != nil else { return false }
        // Showing presents the card anew and presses its media button (see `showCurrent`).
        showCurrent()
        return true
    }

    /// Deletes from the store the notifications among `identifiers` that ``keepsInHistory``
    /// says the history does not keep, once they have ended.
    func forgetTransient(_ identifiers: [String]) {
        guard let keepsInHistory else { return }
        let forgotten = identifiers.filter { !keepsInHistory($0) }
        guard !forgotten.isEmpty else { return }
        _ = try? store.forget(identifiers: forgotten)
    }
}
