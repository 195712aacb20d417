import NotiplayCore
import Notiplay

/// The configuration's rules, turned into a notification's traits; reloading the configuration.
extension CenterService {
    /// What happened when the configuration was reloaded.
    package enum ConfigurationChange: Sendable, Equatable {
        /// The new configuration is in force, with this many rules.
        case reloaded(rules: Int)
        /// The new configuration could not be used (the lines say why, `FILE:LINE:COLUMN: …`);
        /// the one in force stays.
        case kept(problems: [String])
    }

    /// `traits` with what the rules of ``config`` say about `notification` of app `app`: the
    /// app matched is the desktop sender when there is one (``NotificationTraits/sender``), the
    /// category its ``NotificationTraits/ruleCategory`` when it has one.
    func applyingRules(to traits: NotificationTraits, of notification: UNNotification, app: String) -> NotificationTraits {
        let content = notification.request.content
        let subject = RuleSubject(
            app: traits.sender ?? app, urgency: Self.urgency(of: content.interruptionLevel),
            category: traits.ruleCategory ?? content.categoryIdentifier, summary: content.title, body: content.body)
        let actions = config.actions(for: subject)
        var traits = traits
        if let autoplay = actions.autoplay { traits.startsMedia = autoplay }
        if let timeout = actions.timeout { traits.lifetime = timeout == 0 ? nil : .milliseconds(Int64((timeout * 1000).rounded())) }
        if let history = actions.history { traits.transient = !history }
        traits.sound = actions.sound
        traits.soundVolume = actions.volume ?? config.defaults.volume
        traits.silenced = actions.silence ?? false
        traits.skipsQueue = actions.skipQueue ?? false
        return traits
    }

    /// A notification's urgency as rules name it: passive is low, critical is critical, the rest normal.
    static func urgency(of level: UNNotificationInterruptionLevel) -> RuleUrgency {
        switch level {
        case .passive: .low
        case .critical: .critical
        default: .normal
        }
    }

    /// Reads the configuration again (``configLoader``): a valid one is in force for what arrives
    /// from now on; an invalid one is refused and the one in force stays. Live cards keep their
    /// traits either way. Emits ``Event/configuration(_:)`` and returns it.
    @discardableResult
    package func reloadConfiguration() -> ConfigurationChange {
        guard let configLoader else { return .reloaded(rules: config.rules.count) }
        let change: ConfigurationChange
        do {
            config = try configLoader()
            change = .reloaded(rules: config.rules.count)
        } catch {
            change = .kept(problems: error.lines)
        }
        emit(.configuration(change))
        return change
    }
}
