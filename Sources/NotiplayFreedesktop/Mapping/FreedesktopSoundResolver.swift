public import NotiplayCore

/// A notification's sound once its hints were followed to a file (or to none).
public struct FreedesktopSound: Sendable, Hashable {
    /// The audio attachment to play on arrival (with the card's `.default` media button), when a
    /// hint named a file that passed validation.
    public var attachment: UNNotificationAttachment?
    /// The hint the attachment came from: `sound-file` or `sound-name`.
    public var hint: String?
    /// Whether the center's default arrival sound plays: no sound hint was given and
    /// `suppress-sound` was not set (and the mapping's options want a default sound).
    public var usesDefaultSound: Bool
    /// Why a hint gave no sound: refused, missing or not audio.
    public var warnings: [Diagnostic]

    /// A sound.
    public init(
        attachment: UNNotificationAttachment? = nil, hint: String? = nil, usesDefaultSound: Bool = false,
        warnings: [Diagnostic] = []
    ) {
        self.attachment = attachment
        self.hint = hint
        self.usesDefaultSound = usesDefaultSound
        self.warnings = warnings
    }
}

/// Follows a ``SoundRequest`` to an audio attachment: the only part of the mapping that looks
/// at files.
///
/// In order:
/// 1. `suppress-sound` → no sound, no default sound.
/// 2. `sound-file` → the file, validated as any attachment is (`AttachmentValidator`: a regular
///    local file, within the audio size limit, whose content is audio). A directory, a FIFO,
///    a device such as `/dev/zero`, a missing file, an image or a text file is refused with a
///    warning naming the file and why — and never opened for reading, so a FIFO cannot hang
///    the server.
/// 3. `sound-name` (when `sound-file` is absent or was refused) → the sound theme's file for the
///    name (``SoundTheme``), validated the same way; a name the theme lacks is a warning.
/// 4. No sound hint at all → the center's default arrival sound, when
///    ``playsDefaultSound`` is set.
///
/// A hint that was given but gave no file leaves the card without sound (not with the default
/// one): the client asked for a particular sound, and a warning says why it is not played.
public struct FreedesktopSoundResolver: Sendable {
    /// Where `sound-name` is looked up.
    public var theme: SoundTheme
    /// How files are validated (its limits apply).
    public var validator: AttachmentValidator
    /// Whether a notification without sound hints gets the center's default arrival sound.
    public var playsDefaultSound: Bool

    /// A resolver.
    public init(theme: SoundTheme, validator: AttachmentValidator = AttachmentValidator(), playsDefaultSound: Bool = true) {
        self.theme = theme
        self.validator = validator
        self.playsDefaultSound = playsDefaultSound
    }

    /// The sound for `request`.
    public func resolve(_ request: SoundRequest) -> FreedesktopSound {
        if request.suppressed { return FreedesktopSound() }
        var warnings: [Diagnostic] = []
        if let file = request.file {
            switch attachment(file, hint: "sound-file") {
            case .success(let attachment):
                return FreedesktopSound(attachment: attachment, hint: "sound-file")
            case .failure(let refusal):
                warnings.append(refusal.warning)
            }
        }
        if let name = request.themeName {
            if let path = theme.path(for: name) {
                switch attachment(path, hint: "sound-name") {
                case .success(let attachment):
                    return FreedesktopSound(attachment: attachment, hint: "sound-name", warnings: warnings)
                case .failure(let refusal):
                    warnings.append(refusal.warning)
                }
            } else {
                let folders = theme.dataDirectories.map { Path.join($0, SoundTheme.themeFolder) }
                let looked = folders.isEmpty ? "no data folders were given" : "looked in " + folders.joined(separator: ", ")
                warnings.append(
                    Diagnostic(key: "hints.sound-name", "\"\(name)\" is not in the freedesktop sound theme (\(looked)); the card has no sound"))
            }
        }
        return FreedesktopSound(usesDefaultSound: !request.named && playsDefaultSound, warnings: warnings)
    }

    /// The file at `path` as an audio attachment, or a warning (keyed `hints.HINT`) saying why
    /// it is refused.
    public func attachment(_ path: String, hint: String) -> Result<UNNotificationAttachment, SoundRefusal> {
        let attachment: UNNotificationAttachment
        do {
            attachment = try validator.validate(path)
        } catch {
            return .failure(SoundRefusal(Diagnostic(key: "hints.\(hint)", "\(error.description); the card has no sound from it")))
        }
        guard attachment.audioFile != nil else {
            return .failure(
                SoundRefusal(
                    Diagnostic(key: "hints.\(hint)", "\(path): is an image (\(attachment.type)), not a sound; the card has no sound from it")))
        }
        return .success(attachment)
    }
}
