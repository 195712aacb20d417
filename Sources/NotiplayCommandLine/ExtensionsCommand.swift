import ArgumentParser
import NotiplayCore
import SystemPackage

/// `notiplay extensions`: lists a folder's extensions and the categories they present.
struct ExtensionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extensions",
        abstract: "List the notification extensions and the categories they present.",
        discussion: """
            Loads every Name.appex bundle in the folder (each with its Info.plist) and checks \
            them together: a category claimed by two extensions is an error naming both. The \
            built-in default card presents every category no extension claims. A bundle whose \
            class is not a registered type (built in, a sample, or the tool's own) gets a note \
            on standard error.
            """)

    @Option(help: ArgumentHelp("A folder of Name.appex bundles.", valueName: "dir"), completion: .directory)
    var extensions: String?

    /// The built-in default card, listed first.
    static let defaultCardRow = ["(built-in)", "content", "DefaultContentExtension", "(every category no extension claims)"]

    func run() throws {
        var registry = ExtensionRegistry.empty
        if let folder = extensions {
            do {
                registry = try ExtensionRegistry.load(folder: folder)
            } catch {
                for failure in error.failures {
                    Diagnostics.shared.report(failure.description)
                }
                let missing = error.failures.allSatisfy(\.isMissing)
                throw ExitCode(missing ? ExitStatus.missingInput : ExitStatus.badData)
            }
        }
        var rows = [["NAME", "POINT", "CLASS", "CATEGORIES"], Self.defaultCardRow]
        for manifest in registry.extensions {
            rows.append([
                manifest.bundleName,
                manifest.point == .content ? "content" : "service",
                manifest.typeName,
                manifest.point == .content ? manifest.categories.joined(separator: ", ") : "(alerts with mutable-content)",
            ].map { TerminalText.clean($0) })
        }
        // Bundles `deliver` would refuse: said on standard error, the table stays as it is.
        do {
            try NotiplayCLI.types.check(registry)
        } catch {
            for failure in error.failures { Diagnostics.shared.report("note: " + failure.description) }
        }
        var text = Self.table(rows)
        for manifest in registry.extensions {
            for warning in manifest.warnings {
                text += "warning: \(TerminalText.visible(manifest.path)): \(warning)\n"
            }
        }
        _ = try? FileDescriptor.standardOutput.writeAll(text.utf8)
    }

    /// Left-aligned columns two spaces apart, widths measured in characters.
    static func table(_ rows: [[String]]) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        var text = ""
        for row in rows {
            var line = ""
            for (i, cell) in row.enumerated() {
                line += cell
                if i < row.count - 1 { line += String(repeating: " ", count: widths[i] - cell.count + 2) }
            }
            text += line + "\n"
        }
        return text
    }
}
