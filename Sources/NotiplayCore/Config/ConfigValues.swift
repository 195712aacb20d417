/// One `key = value` of a configuration file checked and stored: the value's type and range for
/// its key, each problem at the value's line and column.
struct ConfigValues {
    let value: String
    let line: Int
    let column: Int
    private(set) var problems: [CenterConfigError.Problem] = []

    init(value: String, line: Int, column: Int) {
        self.value = value
        self.line = line
        self.column = column
    }

    private mutating func fail(_ message: String) {
        problems.append(CenterConfigError.Problem(line: line, column: column, message))
    }

    /// A key of `[global]`.
    mutating func global(_ key: String, into defaults: inout ConfigDefaults) {
        switch key {
        case "expire": defaults.expire = seconds(key, upTo: 86_400)
        case "expire-critical": defaults.expireCritical = seconds(key, upTo: 86_400)
        case "sounds": defaults.sounds = flag(key)
        case "volume": defaults.volume = volume(key)
        case "sound-theme":
            if value.isEmpty || value.contains("/") || value == "." || value == ".." {
                fail("sound-theme must be a theme's folder name (freedesktop, say), not \"\(value)\"")
            } else {
                defaults.soundTheme = value
            }
        case "store":
            if value.hasPrefix("/") && !value.utf8.contains(0) {
                defaults.store = value
            } else {
                fail("store must be an absolute path, not \"\(value)\"")
            }
        case "keep-history":
            if let count = Int(value), count >= 0 { defaults.keepHistory = count } else {
                fail("keep-history must be a whole number, 0 or more, not \"\(value)\"")
            }
        case "keep-days":
            if let days = Double(value), days > 0, days <= 36_500 { defaults.keepDays = days } else {
                fail("keep-days must be more than 0 and at most 36500, not \"\(value)\"")
            }
        default: break
        }
    }

    /// A key of a rule.
    mutating func rule(_ key: String, match: inout RuleMatch, actions: inout RuleActions) {
        switch key {
        case "app": match.app = glob(key)
        case "category": match.category = glob(key)
        case "summary": match.summary = glob(key)
        case "body": match.body = glob(key)
        case "urgency":
            if let urgency = RuleUrgency(rawValue: value) { match.urgency = urgency } else {
                fail("urgency must be low, normal or critical, not \"\(value)\"")
            }
        case "sound": actions.sound = sound()
        case "volume": actions.volume = volume(key)
        case "autoplay": actions.autoplay = flag(key)
        case "timeout": actions.timeout = seconds(key, upTo: 86_400)
        case "skip-queue": actions.skipQueue = flag(key)
        case "history": actions.history = flag(key)
        case "silence": actions.silence = flag(key)
        default: break
        }
    }

    private mutating func glob(_ key: String) -> ConfigGlob? {
        guard !value.isEmpty else {
            fail("\(key) needs a pattern (\"*\" matches anything)")
            return nil
        }
        return ConfigGlob(value)
    }

    private mutating func flag(_ key: String) -> Bool? {
        switch value {
        case "yes", "true", "on": return true
        case "no", "false", "off": return false
        default:
            fail("\(key) must be yes or no, not \"\(value)\"")
            return nil
        }
    }

    private mutating func volume(_ key: String) -> Int? {
        guard let number = Int(value), (0...100).contains(number) else {
            fail("\(key) must be a whole number from 0 to 100, not \"\(value)\"")
            return nil
        }
        return number
    }

    private mutating func seconds(_ key: String, upTo limit: Double) -> Double? {
        guard let number = Double(value), number >= 0, number <= limit else {
            fail("\(key) must be 0 (until dismissed) or a number of seconds up to \(Int(limit)), not \"\(value)\"")
            return nil
        }
        return number
    }

    private mutating func sound() -> RuleSound? {
        switch value {
        case "none": return RuleSound.none
        case "default": return .default
        case _ where value.hasPrefix("/"): return .file(value)
        case _ where !value.isEmpty && !value.contains("/") && value != "." && value != "..": return .named(value)
        default:
            fail("sound must be none, default, a sound's file name, or an absolute path, not \"\(value)\"")
            return nil
        }
    }
}
