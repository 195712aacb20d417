import ArgumentParser
import NotiplayCore

/// `--media-root DIR`, repeatable, for the commands that fetch a payload's `media-url`
/// (`deliver`, `test`, `serve`): folders besides the payload file's own that its local media
/// (`file://` URLs and relative paths) may come from. By default a payload attaches files from
/// its own folder only; a sent payload (`serve`) has no folder, so only these.
struct MediaRootOptions: ParsableArguments {
    @Option(
        name: .customLong("media-root"),
        help: ArgumentHelp(
            "Also let a payload's local media-url name files inside this folder (symbolic links resolved); repeatable.",
            valueName: "dir"),
        completion: .directory)
    var mediaRoots: [String] = []

    /// The folders given, each checked to be one.
    /// - Throws: ``NotiplayError`` (`.missingInput`) for a folder that does not exist, a
    ///   ``UsageError`` for a path that is not a folder.
    func folders() throws -> [String] {
        for root in mediaRoots {
            guard Path.exists(root) else { throw NotiplayError(.missingInput, file: root, "no such folder (--media-root)") }
            guard Path.isDirectory(root) else { throw UsageError(file: root, "--media-root names a file, not a folder") }
        }
        return mediaRoots
    }
}
