import Foundation
import NotiplayCenter
import NotiplayCore
import Testing

/// Which file a notification's sound plays, and what is said when it cannot be the one named.
/// The theme's folders are passed in; the process's environment is never changed.
struct ArrivalSoundResolverTests {
    let folders: ArrivalSoundFolders
    let chime: String

    init() throws {
        folders = try ArrivalSoundFolders()
        chime = ArrivalSoundFolders.real(folders.runtime + "/" + BundledChime.fileName)
    }

    @Test("Without a sound theme the default sound is notiplay's chime, written to the runtime folder")
    func defaultWithoutTheme() throws {
        let resolution = folders.resolver().resolve(.default, app: "App")
        #expect(resolution.warnings == [])
        let sound = try #require(resolution.sound)
        #expect(sound.name == "default")
        #expect(sound.isDefault)
        #expect(sound.file.path == chime)
        #expect(sound.volume == 1)
        #expect(sound.engineVolume == 100)
    }

    @Test("With the freedesktop theme the default sound is its message-new-instant, first folder first")
    func defaultFromTheme() throws {
        let wav = try folders.theme("chime.wav", ext: "wav")
        let oga = try folders.theme("chime.ogg", ext: "oga")
        let dirs = [folders.emptyData, wav.data, oga.data]
        let sound = try #require(folders.resolver(dataDirectories: dirs).resolve(.default, app: "App").sound)
        #expect(sound.name == "default")
        #expect(sound.file.path == ArrivalSoundFolders.real(wav.file))
        #expect(!Path.exists(folders.runtime + "/" + BundledChime.fileName), "the chime is written only when needed")

        // In one folder, .oga comes before .ogg and .wav.
        let both = try folders.theme("chime.wav", ext: "wav")
        try folders.copy("chime.ogg", to: both.data + "/sounds/freedesktop/stereo", as: "message-new-instant.oga")
        let first = try #require(folders.resolver(dataDirectories: [both.data]).resolve(.default, app: "App").sound)
        #expect(first.file.path.hasSuffix("/message-new-instant.oga"))
    }

    @Test("sound-theme: the default sound comes from that theme first, else from freedesktop")
    func namedTheme() throws {
        let freedesktop = try folders.theme("chime.wav", ext: "wav")
        let oxygen = try folders.copy(
            "chime.ogg", to: freedesktop.data + "/sounds/oxygen/stereo", as: "message-new-instant.ogg")
        var resolver = folders.resolver(dataDirectories: [freedesktop.data])
        resolver.theme = "oxygen"
        #expect(resolver.resolve(.default, app: "App").sound?.file.path == ArrivalSoundFolders.real(oxygen))
        resolver.theme = "absent"
        #expect(resolver.resolve(.default, app: "App").sound?.file.path == ArrivalSoundFolders.real(freedesktop.file))
    }

    @Test("A rule's absolute sound file plays; one that is not audio gives the default sound, with a warning naming it")
    func ruleFile() throws {
        let bell = try folders.copy("tone-1s.wav", to: folders.root + "/bells", as: "bell.wav")
        let played = folders.resolver().resolve(file: bell)
        #expect(played.warnings == [] && played.sound?.name == "bell.wav" && played.sound?.file.path == ArrivalSoundFolders.real(bell))
        let text = try folders.write("not audio", to: folders.root, as: "notes.txt")
        let refused = folders.resolver().resolve(file: text)
        #expect(refused.sound?.isDefault == true)
        #expect(refused.warnings.count == 1 && refused.warnings[0].hasPrefix("sound \(text) is not audio"), "\(refused.warnings)")
    }

    @Test("A theme sound that is not audio is skipped with a warning")
    func brokenTheme() throws {
        let data = folders.root + "/broken-share"
        let stereo = data + "/sounds/freedesktop/stereo"
        try FileManager.default.createDirectory(atPath: stereo, withIntermediateDirectories: true)
        let text = try folders.write("not a sound\n", to: stereo, as: "message-new-instant.oga")
        let resolution = folders.resolver(dataDirectories: [data]).resolve(.default, app: "App")
        #expect(resolution.sound?.file.path == chime)
        #expect(resolution.warnings.count == 1)
        #expect(resolution.warnings.first?.hasPrefix("the sound theme's \(text) is not audio: is text, not audio") == true)
        #expect(resolution.warnings.first?.hasSuffix("; it is skipped") == true)
    }

    @Test("A named sound is the file of that name in the app's Sounds folder, tried with extensions when it has none")
    func namedFound() throws {
        let alarm = ArrivalSoundFolders.real(try folders.copy("chime.wav", to: folders.sounds, as: "alarm.wav"))
        let ogg = ArrivalSoundFolders.real(try folders.copy("chime.ogg", to: folders.sounds, as: "bell.ogg"))
        let resolver = folders.resolver()
        for (name, path) in [("alarm.wav", alarm), ("alarm", alarm), ("bell", ogg), ("bell.ogg", ogg)] {
            let resolution = resolver.resolve(UNNotificationSound(named: name), app: "App")
            #expect(resolution.warnings == [], "\(name)")
            #expect(resolution.sound?.name == name)
            #expect(resolution.sound?.file.path == path, "\(name)")
            #expect(resolution.sound?.isDefault == false)
        }
    }

    @Test("An unknown name plays the default sound, with a warning naming the sound and the folder")
    func unknownName() throws {
        let resolution = folders.resolver().resolve(UNNotificationSound(named: "ding.caf"), app: "App")
        #expect(resolution.sound?.name == "default")
        #expect(resolution.sound?.file.path == chime)
        #expect(resolution.warnings == ["sound \"ding.caf\" not found in \(folders.sounds); the default sound plays"])

        let noFolder = folders.resolver().resolve(UNNotificationSound(named: "ding.caf"), app: "Mail")
        #expect(noFolder.sound?.name == "default")
        #expect(
            noFolder.warnings == [
                "sound \"ding.caf\" not found: the app \"Mail\" has no sounds folder; the default sound plays"
            ])
    }

    @Test("A file that is not audio, or not a regular file, plays the default sound, with a warning saying why")
    func notAudio() throws {
        let notes = try folders.write("shopping list\n", to: folders.sounds, as: "notes.txt")
        let folder = folders.sounds + "/folder.wav"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let resolver = folders.resolver()

        let text = resolver.resolve(UNNotificationSound(named: "notes.txt"), app: "App")
        #expect(text.sound?.name == "default")
        #expect(text.sound?.file.path == chime)
        #expect(
            text.warnings == [
                "sound \"notes.txt\" is not audio: \(notes) is text, not audio (expected WAV, AIFF, MP3, AAC, M4A, "
                    + "Ogg Vorbis, Opus or FLAC content); the default sound plays"
            ])

        let directory = resolver.resolve(UNNotificationSound(named: "folder.wav"), app: "App")
        #expect(directory.sound?.name == "default")
        #expect(
            directory.warnings == [
                "sound \"folder.wav\" is not audio: \(folder) is a directory, not a regular file; the default sound plays"
            ])
    }

    @Test(
        "A name that is not a plain file name is refused, even when it would reach an audio file",
        arguments: ["../x.wav", "a/b", "", ".", "..", "/etc/x.wav"])
    func badNames(name: String) throws {
        // An audio file beside the Sounds folder and one below it: neither may be reached.
        try folders.copy("chime.wav", to: folders.root + "/App", as: "x.wav")
        try folders.copy("chime.wav", to: folders.sounds + "/a", as: "b")
        let resolution = folders.resolver().resolve(UNNotificationSound(named: name), app: "App")
        #expect(resolution.sound?.name == "default")
        #expect(resolution.sound?.file.path == chime)
        #expect(
            resolution.warnings == [
                "sound \"\(name)\" is not a plain file name (no folders, not empty); the default sound plays"
            ])
    }

    @Test("A critical sound's volume travels with it, clamped to 0…1; any other sound plays at full volume")
    func criticalVolume() throws {
        try folders.copy("chime.wav", to: folders.sounds, as: "alarm.wav")
        let resolver = folders.resolver()
        func volume(_ sound: UNNotificationSound) -> Double? { resolver.resolve(sound, app: "App").sound?.volume }
        #expect(volume(.criticalSoundNamed("alarm.wav", withAudioVolume: 0.35)) == 0.35)
        #expect(volume(.criticalSoundNamed("alarm.wav", withAudioVolume: 1.7)) == 1)
        #expect(volume(.criticalSoundNamed("alarm.wav", withAudioVolume: -0.2)) == 0)
        #expect(volume(.criticalSoundNamed("alarm.wav", withAudioVolume: .nan)) == 1)
        #expect(volume(.defaultCritical) == 1)
        #expect(volume(UNNotificationSound(name: "alarm.wav", isCritical: false, volume: 0.2)) == 1)
        // The default sound standing in for a missing critical one keeps its volume.
        let standIn = resolver.resolve(.criticalSoundNamed("missing.wav", withAudioVolume: 0.5), app: "App").sound
        #expect(standIn?.name == "default")
        #expect(standIn?.volume == 0.5)
        #expect(standIn?.engineVolume == 50)
    }

    @Test("An app's sounds folder is the Sounds folder beside its .app.json, when there is one")
    func soundsFolderBesideAppFile() throws {
        let appFile = folders.root + "/App/Mail.app.json"
        #expect(ArrivalSoundResolver.soundsFolder(besideAppFile: appFile) == folders.sounds)
        #expect(ArrivalSoundResolver.soundsFolder(besideAppFile: folders.root + "/Other.app.json") == nil)
    }

    @Test("XDG_DATA_DIRS: its absolute folders in order; unset, empty or only relative gives /usr/local/share:/usr/share")
    func dataDirectories() {
        let standard = ["/usr/local/share", "/usr/share"]
        #expect(ArrivalSoundResolver.dataDirectories(xdgDataDirs: nil) == standard)
        #expect(ArrivalSoundResolver.dataDirectories(xdgDataDirs: "") == standard)
        #expect(ArrivalSoundResolver.dataDirectories(xdgDataDirs: "relative:also") == standard)
        #expect(ArrivalSoundResolver.dataDirectories(xdgDataDirs: "/a:relative::/b/") == ["/a", "/b/"])
    }
}
