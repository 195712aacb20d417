import Foundation

/// The repository's `Media/` folder and scratch files for tests.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func media(_ name: String) -> String { root.appendingPathComponent("Media/\(name)").path }

    /// A new empty folder under the temporary directory.
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ bytes: [UInt8], to url: URL) throws {
        try Data(bytes).write(to: url)
    }
}
