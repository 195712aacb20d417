import Foundation
import Notiplay

/// Where the ports' files are, and what the tests share.
enum Ports {
    /// `Examples/Ports/NAME`: a seed's folder, with its app file, payloads and `Extensions`.
    static func folder(_ name: String) -> String {
        "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/" + name
    }

    /// Writes `json` to a new file in a folder of its own; `body` gets its path.
    @MainActor
    static func withPayload<T>(_ json: String, named name: String, _ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return try await body(path)
    }

    /// The text of the card's lines (inside its frame), each trimmed.
    static func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
    }
}

/// The extension the runtime made, for a test to look at: registered through a factory that
/// keeps the instance.
@MainActor
final class Presented<Controller: TerminalViewController & UNNotificationContentExtension> {
    private(set) var controllers: [Controller] = []
    var last: Controller? { controllers.last }

    /// Registers `make` under `name` in `types`, keeping each instance it makes.
    func register(in types: inout ExtensionTypes, as name: String, _ make: @escaping @MainActor @Sendable () -> Controller) {
        types.register(as: name) { [self] in
            let controller = make()
            controllers.append(controller)
            return controller
        }
    }
}
