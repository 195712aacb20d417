import Foundation
import Glibc
import NotiplayCenter
import Testing

/// The store is its user's alone: its folders 0700, its files 0600, another user's folder refused.
@Suite("Store: a folder of its user's alone, files 0600")
struct StorePrivacyTests {
    @Test("the folder is made 0700 even when it was 0755, and the database, its -wal and -shm and each attachment are 0600")
    func modes() throws {
        try withScratchFolder { scratch in
            let folder = scratch + "/notiplay"
            try #require(mkdir(folder, 0o755) == 0 && chmod(folder, 0o755) == 0)
            do {
                let store = try CenterStore.open(folder: folder)
                let added = try store.add(.sample("a", attachments: [sampleAudio("a.wav", seed: 1)]))
                #expect(store.warnings.map(\.description) == ["\(folder): had mode 0755, letting other users read what the store holds; it is 0700 now"])
                #expect(permissionBits(folder) == 0o700)
                #expect(permissionBits(folder + "/attachments") == 0o700)
                for file in ["center.sqlite", "center.sqlite-wal", "center.sqlite-shm"] {
                    #expect(permissionBits(folder + "/" + file) == 0o600, "\(file)")
                }
                #expect(permissionBits(store.attachmentPath(for: added.attachments[0])) == 0o600)
            }
            // What an older notiplay left, readable by all: made 0600 when opened again.
            for path in [folder, folder + "/attachments"] { try #require(chmod(path, 0o755) == 0) }
            try #require(chmod(folder + "/center.sqlite", 0o644) == 0)
            let store = try CenterStore.open(folder: folder)
            try store.add(.sample("b"))
            #expect(permissionBits(folder) == 0o700 && permissionBits(folder + "/attachments") == 0o700)
            for file in ["center.sqlite", "center.sqlite-wal", "center.sqlite-shm"] {
                #expect(permissionBits(folder + "/" + file) == 0o600, "\(file)")
            }
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give the folder to another user"))
    func aFolderOfAnotherUserIsRefused() throws {
        try withScratchFolder { scratch in
            let folder = scratch + "/theirs"
            try #require(mkdir(folder, 0o700) == 0 && chown(folder, 65534, 65534) == 0)
            let error = try #require(throws: CenterStoreError.self) { try CenterStore.open(folder: folder) }
            #expect(error.kind == .cannotCreate && error.file == folder)
            #expect(error.reason.contains("belongs to uid 65534"), "\(error)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/center.sqlite"))
        }
    }
}
