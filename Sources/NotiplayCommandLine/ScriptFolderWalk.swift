import NotiplayCore
import NotiplaySystem
import SystemPackage

/// The `*.playback` files under a folder, as `notiplay test FOLDER` runs them: depth first, names
/// in sorted order, hidden names (`.git`) skipped.
///
/// Links are followed, but each folder is walked once and each script given once, told by its
/// device and inode wherever the path to it leads: a link back up the tree (`ln -s . again`) is
/// a loop cut at once, two links to one folder outside give its scripts once, and a script
/// linked under a second name runs once, under the first name the walk meets. Without that, two
/// links to `.` made the walk grow exponentially and never end.
struct ScriptFolderWalk: Sequence, IteratorProtocol {
    /// A folder or file as the system knows it, whatever path leads to it.
    private struct FileID: Hashable {
        var device: DeviceID
        var inode: Inode
    }

    /// The paths still to look at, the next one last.
    private var pending: [String]
    /// The folders walked and scripts given so far.
    private var seen: Set<FileID> = []

    /// A walk of `folder` and everything under it.
    init(_ folder: String) {
        pending = [folder]
    }

    /// The next script, or `nil` when the walk is over.
    mutating func next() -> String? {
        while let path = pending.popLast() {
            guard let info = try? Posix.status(of: path) else {
                // A name that cannot be looked at (a dangling link): a script by its name, whose
                // run then says what is wrong with it.
                if path.hasSuffix(".playback") { return path }
                continue
            }
            let id = FileID(device: info.deviceID, inode: info.inode)
            guard info.type == .directory else {
                if path.hasSuffix(".playback") && seen.insert(id).inserted { return path }
                continue
            }
            guard seen.insert(id).inserted else { continue }
            let names = Path.entries(of: path) ?? []
            for name in names.reversed() where !name.hasPrefix(".") {
                pending.append(Path.join(path, name))
            }
        }
        return nil
    }
}
