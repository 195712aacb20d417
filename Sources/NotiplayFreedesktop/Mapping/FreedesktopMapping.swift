public import NotiplayCore

/// Turns one `Notify` call into what the notification center stores and shows.
///
/// ``map(_:id:)`` does it all; it is ``content(for:id:)`` (pure: no files, no environment),
/// then ``FreedesktopSoundResolver`` (which looks at the sound files), then
/// ``FreedesktopMapped/complete(with:)`` (pure). <doc:Mapping> has the table of
/// every argument and hint.
public struct FreedesktopMapping: Sendable {
    /// What the server decides for every notification.
    public struct Options: Sendable, Hashable {
        /// The data folders `sound-name` is looked up in (`$XDG_DATA_HOME`, then
        /// `$XDG_DATA_DIRS`), as the caller read them.
        public var dataDirectories: [String]
        /// What `expire_timeout` -1 means, by urgency: 10 s for low and normal, never for
        /// critical by default.
        public var defaultExpiry: FreedesktopExpiryDefaults
        /// Whether a notification without sound hints gets the center's default arrival sound.
        public var playsDefaultSound: Bool
        /// The attachment limits sound files are held to.
        public var attachmentLimits: AttachmentLimits
        /// The longest body read, in UTF-8 bytes of markup; the rest is cut with a warning.
        public var bodyLimit: Int

        /// Options; by default: expire as dunst does, play the default sound, iOS's attachment limits,
        /// bodies up to 64 KiB.
        public init(
            dataDirectories: [String], defaultExpiry: FreedesktopExpiryDefaults = .init(), playsDefaultSound: Bool = true,
            attachmentLimits: AttachmentLimits = .default, bodyLimit: Int = 65_536
        ) {
            self.dataDirectories = dataDirectories
            self.defaultExpiry = defaultExpiry
            self.playsDefaultSound = playsDefaultSound
            self.attachmentLimits = attachmentLimits
            self.bodyLimit = bodyLimit
        }
    }

    /// The header of a card whose `app_name` is empty.
    public static let defaultAppName = "notiplay"

    /// The options.
    public var options: Options

    /// A mapping with these options.
    public init(options: Options) {
        self.options = options
    }

    /// Everything the center needs for the `Notify` call `notify`, given the `id` that
    /// ``FreedesktopIDs/assign(replacing:)`` chose: the content with its payload, the sound
    /// attachment, the category to register, and every warning. Looks at the sound files the
    /// hints name (and only at them); never fails.
    public func map(_ notify: FreedesktopNotify, id: UInt32) -> FreedesktopMapped {
        var mapped = content(for: notify, id: id)
        let resolver = FreedesktopSoundResolver(
            theme: SoundTheme(dataDirectories: options.dataDirectories),
            validator: AttachmentValidator(limits: options.attachmentLimits),
            playsDefaultSound: options.playsDefaultSound)
        mapped.complete(with: resolver.resolve(mapped.soundRequest))
        return mapped
    }

    /// The notification without its sound files looked at: pure.
    public func content(for notify: FreedesktopNotify, id: UInt32) -> FreedesktopMapped {
        var warnings: [Diagnostic] = []
        var notify = notify
        let skippedActions = Self.takeCuts(&notify, warnings: &warnings)
        var hints = HintReader(notify.hints)

        let app = FreedesktopActions.clean(notify.appName)
        var extras = FreedesktopExtras(id: id, app: app.isEmpty ? Self.defaultAppName : app)
        extras.icon = Self.nonEmpty(FreedesktopActions.clean(notify.appIcon))

        var body = notify.body
        let bodyBytes = notify.cutStrings["body"] ?? body.utf8.count
        if bodyBytes > options.bodyLimit {
            body = Self.prefix(body, bytes: options.bodyLimit)
            warnings.append(Diagnostic(key: "body", "is \(bodyBytes) bytes; the first \(min(options.bodyLimit, body.utf8.count)) are shown"))
        }
        let styled = BodyMarkup.parse(body)
        if styled.isStyled { extras.markup = styled }
        var title = FreedesktopActions.clean(notify.summary)
        if title.isEmpty && styled.runs.isEmpty { title = extras.app }

        let reply = ReplyPrompt(
            buttonTitle: hints.string("x-kde-reply-submit-button-text").map(FreedesktopActions.clean).flatMap(Self.nonEmpty)
                ?? ReplyPrompt.defaultButtonTitle,
            placeholder: hints.string("x-kde-reply-placeholder-text").map(FreedesktopActions.clean) ?? "")
        let actions = FreedesktopActions(reading: notify.actions, reply: reply, skipping: skippedActions)
        warnings += actions.warnings
        extras.actions = FreedesktopActions(buttons: actions.buttons, defaultActionLabel: actions.defaultActionLabel)

        let level: UNNotificationInterruptionLevel =
            switch hints.urgency() {
            case 0: .passive
            case 2: .critical
            default: .active
            }
        extras.category = hints.string("category").map(FreedesktopActions.clean).flatMap(Self.nonEmpty)
        extras.desktopEntry = hints.string("desktop-entry").map(Self.desktopEntryName).flatMap(Self.nonEmpty)
        extras.image = hints.string("image-path", "image_path").map(FreedesktopActions.clean).flatMap(Self.nonEmpty)
        extras.resident = hints.flag("resident") ?? false
        extras.transient = hints.flag("transient") ?? false

        var sound = SoundRequest(suppressed: hints.flag("suppress-sound") ?? false)
        if let file = hints.string("sound-file") {
            sound.named = true
            switch SoundFileHint.localPath(file) {
            case .success(let path): sound.file = path
            case .failure(let refusal): warnings.append(refusal.warning)
            }
        }
        if let name = hints.string("sound-name") {
            sound.named = true
            if SoundTheme.isUsableName(name) {
                sound.themeName = name
            } else {
                warnings.append(
                    Diagnostic(key: "hints.sound-name", "\"\(name)\" is not a sound name (a plain name such as message-new-instant)"))
            }
        }

        let expiry = expiry(notify.expireTimeout, level: level, warnings: &warnings)
        extras.expireTimeout = expiry.milliseconds
        return FreedesktopMapped(
            id: id, title: title, body: styled, interruptionLevel: level, extras: extras, soundRequest: sound,
            expiry: expiry, warnings: hints.warnings + warnings)
    }

    /// What the strings the D-Bus layer cut to 64 KiB become, each with a warning: the body is
    /// shown cut (as a long body is, see ``Options/bodyLimit``); `app_name`, `app_icon`, `summary`
    /// and action labels are kept cut; a hint whose value or name was cut is ignored (a cut file
    /// name or sound name names nothing); an action whose key was cut is not offered (its client
    /// would not know the key). Returns the indices of the actions left out.
    static func takeCuts(_ notify: inout FreedesktopNotify, warnings: inout [Diagnostic]) -> Set<Int> {
        var skipped = Set<Int>()
        for (name, bytes) in notify.cutStrings.sorted(by: { $0.key < $1.key }) where name != "body" {
            let kept: Int
            switch name {
            case "app_name": kept = notify.appName.utf8.count
            case "app_icon": kept = notify.appIcon.utf8.count
            case "summary": kept = notify.summary.utf8.count
            case "hints":
                warnings.append(Diagnostic(key: name, "a hint named with \(bytes) bytes is ignored"))
                continue
            case _ where name.hasPrefix("hints."):
                notify.hints[String(name.dropFirst("hints.".count))] = nil
                warnings.append(Diagnostic(key: name, "is \(bytes) bytes, too long to read, and is ignored"))
                continue
            default:
                guard name.hasPrefix("actions["), let index = Int(name.dropFirst("actions[".count).dropLast()),
                    notify.actions.indices.contains(index)
                else { continue }
                guard index % 2 == 1 else {
                    skipped.insert(index)
                    warnings.append(Diagnostic(key: name, "a key of \(bytes) bytes was cut, so the action is not offered"))
                    continue
                }
                kept = notify.actions[index].utf8.count
            }
            warnings.append(Diagnostic(key: name, "is \(bytes) bytes; the first \(kept) are kept"))
        }
        return skipped
    }

    /// `expire_timeout` read as the spec says, with ``Options/defaultExpiry`` for -1 (by the
    /// notification's interruption `level`).
    func expiry(_ timeout: Int32, level: UNNotificationInterruptionLevel, warnings: inout [Diagnostic]) -> FreedesktopExpiry {
        switch timeout {
        case 0: return .never
        case 1...: return .after(milliseconds: Int(timeout))
        case -1: return options.defaultExpiry.expiry(for: level)
        default:
            warnings.append(
                Diagnostic(key: "expire_timeout", "\(timeout) is neither -1 (the server's default), 0 (never) nor a number of milliseconds; the default is used"))
            return options.defaultExpiry.expiry(for: level)
        }
    }

    /// A `desktop-entry` value as a name: clean, without a `.desktop` ending that some clients
    /// add although the spec says to leave it out.
    static func desktopEntryName(_ value: String) -> String {
        let name = FreedesktopActions.clean(value)
        return name.hasSuffix(".desktop") ? String(name.dropLast(".desktop".count)) : name
    }

    static func nonEmpty(_ text: String) -> String? {
        text.isEmpty ? nil : text
    }

    /// The longest prefix of `text` of at most `bytes` UTF-8 bytes that ends on a character.
    static func prefix(_ text: String, bytes: Int) -> String {
        var count = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            guard count + size <= bytes else { break }
            count += size
            end = text.index(after: index)
        }
        return String(text[..<end])
    }
}
