import Foundation
import NotiplayCenter
import NotiplayCore
import NotiplayTestSupport

/// Scratch folders for arrival sounds: an app's `Sounds/` folder, a sound theme, a runtime folder
/// for the chime, and a resolver over them (never the process's environment).
struct ArrivalSoundFolders {
    /// The scratch folder everything is in.
    let root: String
    /// The app's sounds folder.
    let sounds: String
    /// Where the chime is written.
    let runtime: String
    /// A data folder with no sound theme.
    let emptyData: String

    init() throws {
        root = try TestMedia.scratch().path
        sounds = root + "/App/Sounds"
        runtime = root + "/run"
        emptyData = root + "/empty-share"
        for folder in [sounds, runtime, emptyData] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    /// A resolver whose app `"App"` has ``sounds`` (other apps have none), looking for the theme
    /// in `dataDirectories` (by default a folder without one, so the chime is the default sound).
    func resolver(dataDirectories: [String]? = nil) -> ArrivalSoundResolver {
        let sounds = sounds
        return ArrivalSoundResolver(
            dataDirectories: dataDirectories ?? [emptyData], chimeFolder: runtime,
            soundsFolder: { $0 == "App" ? sounds : nil })
    }

    /// Copies `Media/NAME` to `folder/as`.
    @discardableResult
    func copy(_ name: String, to folder: String, as newName: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + newName
        try FileManager.default.copyItem(atPath: TestMedia.path(name), toPath: path)
        return path
    }

    /// Writes `text` to `folder/name`.
    @discardableResult
    func write(_ text: String, to folder: String, as name: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A folder holding a freedesktop theme whose `message-new-instant` is `Media/NAME` with `ext`.
    func theme(_ name: String, ext: String) throws -> (data: String, file: String) {
        let data = root + "/share-\(ext)-\(UUID().uuidString)"
        let file = try copy(name, to: data + "/sounds/freedesktop/stereo", as: "message-new-instant.\(ext)")
        return (data, file)
    }

    /// `path` with symbolic links resolved, as a validated file names it.
    static func real(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
