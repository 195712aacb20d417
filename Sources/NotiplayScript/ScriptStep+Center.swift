extension ScriptStep {
    /// When the center delivers a `send`'s notification (Apple: `UNNotificationTrigger`).
    public enum Trigger: Sendable, Equatable {
        /// `after DURATION [repeats]`: once the duration has passed on the virtual clock, and with
        /// `repeats` every such duration after that (Apple: `UNTimeIntervalNotificationTrigger`).
        /// The parser keeps only what Apple allows: more than 0, and at least 60 s when repeating.
        case timeInterval(Duration, repeats: Bool)
        /// `at DATE [repeat UNIT]`: when the virtual clock reaches the date, read in the local time
        /// zone (Apple: `UNCalendarNotificationTrigger`). With `repeating`, the trigger matches
        /// only the components the unit keeps (see ``ScriptStep/Recurrence``), every time they match.
        case calendar(ScriptDate, repeating: Recurrence?)
    }

    /// How often an `at DATE` trigger repeats: which of the date's components it keeps to match.
    public enum Recurrence: String, Sendable, CaseIterable {
        /// `repeat hourly`: the minute and second.
        case hourly
        /// `repeat daily`: the hour, minute and second.
        case daily
        /// `repeat weekly`: the weekday (``ScriptDate/weekday``), hour, minute and second.
        case weekly
        /// `repeat monthly`: the day of the month, hour, minute and second.
        case monthly
        /// `repeat yearly`: the month, day, hour, minute and second.
        case yearly
    }
}
