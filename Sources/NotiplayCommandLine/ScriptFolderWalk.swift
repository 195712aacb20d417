import NotiplayCore
import NotiplaySystem
import SystemPackage

/// The `*.playback` files under a folder, as `notiplay test FOLDER` runs them: depth first, names
/// in sorted order, hidden names (`.git`) skipped.
///
/// Links to folders are followed, but each folder is walked once, told by its device and inode
/// wherever the path to it leads: a link back up the tree (`ln -s . again`) is a loop cut at
/// once, and two links to one folder outside give its scripts once. Without that, two links to
/// `.` made the walk grow exponentially and never end.
struct ScriptFolderWalk: Sequence, IteratorProtocol {
    /// A folder as the system knows it, whatever path leads to it.
    private struct FolderID: Hashable {
        var device: DeviceID
        var inode: Inode
    }

    /// The paths still to look at, the next one last.
    private var pending: [String]
    /// The folders walked so far.
    private var walked: Set<FolderID> = []

    /// A walk of `folder` and everything under it.
    init(_ folder: String) {
        pending = [folder]
    }

    /// The next script, or `nil` when the walk is over.
    mutating func next() -> String? {
        while let path = pending.popLast() {
            guard let info = try? Posix.status(of: path), info.type == .directory else {
                // A file, or a name that cannot be looked at (a dangling link): a script by its
                // name, whose run then says what is wrong with it.
                if path.hasSuffix(".playback") { return path }
                continue
            }
            guard walked.insert(FolderID(device: info.deviceID, inode: info.inode)).inserted else { continue }
            let names = Path.entries(of: path) ?? []
            for name in names.reversed() where !name.hasPrefix(".") {
                pending.append(Path.join(path, name))
            }
        }
        return nil
    }
}
