import NotiplayCore
import Notiplay

/// Arrival sounds: each delivered notification's `aps.sound`, played through the sound engine
/// (``arrivalSounds``), held back while the card's media plays.
extension CenterService {
    /// Plays (or holds back, or silences) the arrival sound of `stored`, just delivered.
    func playArrivalSound(_ stored: StoredNotification, notification: UNNotification) {
        guard let player = arrivalSounds else { return }
        let content = notification.request.content
        player.arrive(
            identifier: stored.identifier, app: stored.app, sound: content.sound, level: content.interruptionLevel,
            focus: focus)
    }
}
