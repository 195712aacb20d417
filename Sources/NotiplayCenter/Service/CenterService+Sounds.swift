import NotiplayCore
import Notiplay

/// Arrival sounds: each delivered notification's `aps.sound`, played through the sound engine
/// (``arrivalSounds``), held back while the card's media plays.
extension CenterService {
    /// Plays (or holds back, or silences) the arrival sound of `stored`, just delivered, as its
    /// traits say (a configuration rule's sound, volume or silence).
    func playArrivalSound(_ stored: StoredNotification, notification: UNNotification) {
        guard let player = arrivalSounds else { return }
        let content = notification.request.content
        let traits = live[stored.identifier]?.traits ?? NotificationTraits()
        var sound = content.sound
        var file: String?
        switch traits.sound {
        case nil: break
        case .none?: sound = nil
        case .default?: sound = .default
        case .named(let name)?: sound = UNNotificationSound(named: name)
        case .file(let path)?:
            sound = .default
            file = path
        }
        player.arrive(
            identifier: stored.identifier, app: stored.app, sound: sound, level: content.interruptionLevel,
            focus: focus, rule: SoundRule(silenced: traits.silenced, volume: traits.soundVolume, file: file))
    }
}
