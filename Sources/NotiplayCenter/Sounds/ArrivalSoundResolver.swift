package import NotiplayCore

/// An arrival sound ready to play: a file that passed audio validation, and how loud.
package struct ResolvedSound: Sendable, Hashable {
    /// The sound's name for events and messages: the notification's file name, or `"default"`
    /// for the default sound (also when it stands in for a named sound that could not be used).
    package var name: String
    /// The file to play; validated, so the only kind of path libmpv is ever given.
    package var file: AudioFile
    /// The volume, from 0 to 1: a critical sound's own volume, clamped; 1 for any other sound.
    package var volume: Double

    /// Whether this is the default sound.
    package var isDefault: Bool { name == ArrivalSoundResolver.defaultName }

    /// The volume on libmpv's scale, 0 to 100 (`PlaybackOptions.volume`).
    package var engineVolume: Double { volume * 100 }
}

/// What ``ArrivalSoundResolver/resolve(_:app:)`` found: the sound to play (`nil` only when not
/// even the default sound can be had), and warnings for the log.
package struct ArrivalSoundResolution: Sendable, Hashable {
    /// The sound to play.
    package var sound: ResolvedSound?
    /// What went wrong on the way, one sentence each, naming the sound and the file.
    package var warnings: [String]
}

/// Turns a notification's sound into a file to play, as iOS looks sounds up.
///
/// - **The default sound** (no name): the freedesktop sound theme's `message-new-instant`
///   (`.oga`, `.ogg` or `.wav`) in the first of ``dataDirectories`` that has it, under
///   `sounds/freedesktop/stereo/`; else notiplay's own chime (``BundledChime``), written once into
///   ``chimeFolder``.
/// - **A named sound**: a file of that name in the app's sounds folder (``soundsFolder``; by
///   convention `Sounds/` beside the app's `.app.json`), as APNs names them (`"alarm.caf"`); a
///   name without an extension is also tried with the usual audio extensions. The name must be
///   a plain file name: not empty, no `/`, not `.` or `..`.
///
/// Every file must pass `AudioFileValidator` (a regular local file whose content
/// is audio notiplay plays). A named sound that is refused, missing or not audio is replaced by
/// the default sound, with a warning that says which sound and why.
package struct ArrivalSoundResolver: Sendable {
    /// The name events and messages give the default sound.
    package static let defaultName = "default"
    /// The freedesktop sound theme's name for a new instant message.
    package static let themeSoundName = "message-new-instant"
    /// The extensions the theme's sound is looked for with, in order.
    package static let themeExtensions = ["oga", "ogg", "wav"]
    /// The extensions a named sound without one is tried with, in order.
    package static let nameExtensions = ["caf", "wav", "aiff", "aif", "m4a", "mp3", "ogg", "oga", "opus", "flac"]
    /// `XDG_DATA_DIRS` when it is unset or empty, as the XDG Base Directory specification says.
    package static let defaultDataDirectories = ["/usr/local/share", "/usr/share"]

    /// The folders the sound theme is looked for in (`$XDG_DATA_DIRS`), in order.
    package var dataDirectories: [String]
    /// Where notiplay's own chime is written when the theme has no default sound (the server's
    /// runtime folder); it must exist.
    package var chimeFolder: String
    /// An app's sounds folder by the app's name, or `nil` when the app has none.
    package var soundsFolder: @Sendable (String) -> String?
    /// The audio check every file passes (its size limit applies).
    package var validator: AudioFileValidator
    /// The XDG sound theme the default sound is looked up in first (then `freedesktop`, as the
    /// sound theme specification falls back).
    package var theme = "freedesktop"

    /// A resolver.
    /// - Parameters:
    ///   - dataDirectories: The folders to look for the sound theme in
    ///     (``dataDirectories(xdgDataDirs:)`` turns `$XDG_DATA_DIRS` into them).
    ///   - chimeFolder: Where to write notiplay's own chime when the theme has no default sound.
    ///   - soundsFolder: An app's sounds folder by its name.
    ///   - validator: The audio check.
    package init(
        dataDirectories: [String], chimeFolder: String, soundsFolder: @escaping @Sendable (String) -> String?,
        validator: AudioFileValidator = AudioFileValidator()
    ) {
        self.dataDirectories = dataDirectories
        self.chimeFolder = chimeFolder
        self.soundsFolder = soundsFolder
        self.validator = validator
    }

    /// The folders of a `$XDG_DATA_DIRS` value: its absolute entries, in order (relative ones are
    /// ignored, as the specification says); ``defaultDataDirectories`` when it is unset or names
    /// none.
    package static func dataDirectories(xdgDataDirs: String?) -> [String] {
        let folders = (xdgDataDirs ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return folders.isEmpty ? defaultDataDirectories : folders
    }

    /// The sounds folder of the app defined by the file at `appFile` (its `.app.json`): the
    /// `Sounds` folder beside it, or `nil` when there is none.
    package static func soundsFolder(besideAppFile appFile: String) -> String? {
        let folder = Path.join(Path.directory(of: appFile), "Sounds")
        return Path.isDirectory(folder) ? folder : nil
    }

    /// The file to play for `sound`, a notification of the app named `app`.
    package func resolve(_ sound: UNNotificationSound, app: String) -> ArrivalSoundResolution {
        let volume = Self.volume(of: sound)
        var warnings: [String] = []
        if let name = sound.name {
            switch named(name, app: app) {
            case .success(let file):
                return ArrivalSoundResolution(sound: ResolvedSound(name: name, file: file, volume: volume), warnings: [])
            case .failure(let problem):
                warnings.append("sound \"\(Self.shown(name))\" \(problem.text); the default sound plays")
            }
        }
        let file = defaultFile(warnings: &warnings)
        return ArrivalSoundResolution(
            sound: file.map { ResolvedSound(name: Self.defaultName, file: $0, volume: volume) }, warnings: warnings)
    }

    /// The file at absolute `path` (a configuration rule's `sound`), or the default sound with
    /// a warning when it is not audio notiplay plays.
    package func resolve(file path: String) -> ArrivalSoundResolution {
        do throws(NotiplayError) {
            let file = try validator.validate(path)
            return ArrivalSoundResolution(sound: ResolvedSound(name: Path.lastComponent(path), file: file, volume: 1), warnings: [])
        } catch {
            var warnings = ["sound \(Self.shown(path)) is not audio: \(error.reason); the default sound plays"]
            let file = defaultFile(warnings: &warnings)
            return ArrivalSoundResolution(
                sound: file.map { ResolvedSound(name: Self.defaultName, file: $0, volume: 1) }, warnings: warnings)
        }
    }

    /// A critical sound's volume clamped to 0…1 (1 when it has none); 1 for other sounds.
    package static func volume(of sound: UNNotificationSound) -> Double {
        guard sound.isCritical, let volume = sound.volume, !volume.isNaN else { return 1 }
        return min(max(volume, 0), 1)
    }

    /// Whether `name` is a plain file name: not empty, no `/` or NUL, not `.` or `..`.
    package static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.utf8.contains(0)
    }

    // MARK: Named sounds

    /// Why a named sound cannot be used, as the end of a sentence that starts with the sound.
    private struct Problem: Error {
        var text: String
    }

    private func named(_ name: String, app: String) -> Result<AudioFile, Problem> {
        guard Self.isPlainFileName(name) else {
            return .failure(Problem(text: "is not a plain file name (no folders, not empty)"))
        }
        guard let folder = soundsFolder(app) else {
            return .failure(Problem(text: "not found: the app \"\(Self.shown(app))\" has no sounds folder"))
        }
        let names = Self.hasExtension(name) ? [name] : [name] + Self.nameExtensions.map { "\(name).\($0)" }
        guard let path = names.lazy.map({ Path.join(folder, $0) }).first(where: Path.exists) else {
            return .failure(Problem(text: "not found in \(Self.shown(folder))"))
        }
        do throws(NotiplayError) {
            return .success(try validator.validate(path))
        } catch {
            return .failure(Problem(text: "is not audio: \(Self.shown(path)) \(error.reason)"))
        }
    }

    /// Whether a file name has an extension (a dot that does not start it).
    private static func hasExtension(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return dot != name.startIndex
    }

    // MARK: The default sound

    /// The theme's sound when it is installed and valid, else the chime; `nil` (with a warning)
    /// only when the chime cannot be written either.
    private func defaultFile(warnings: inout [String]) -> AudioFile? {
        let themes = theme == "freedesktop" ? [theme] : [theme, "freedesktop"]
        for theme in themes {
            for folder in dataDirectories {
                for path in Self.themeExtensions.map({ Path.join(folder, "sounds/\(theme)/stereo/\(Self.themeSoundName).\($0)") }) {
                    guard Path.exists(path) else { continue }
                    do throws(NotiplayError) {
                        return try validator.validate(path)
                    } catch {
                        warnings.append("the sound theme's \(Self.shown(path)) is not audio: \(error.reason); it is skipped")
                    }
                }
            }
        }
        do throws(NotiplayError) {
            return try validator.validate(try BundledChime.install(in: chimeFolder))
        } catch {
            warnings.append("the default sound cannot be played: \(error.description)")
            return nil
        }
    }

    /// Text from a payload or the file system, safe to print on a terminal.
    private static func shown(_ text: String) -> String { TerminalText.clean(text) }
}
