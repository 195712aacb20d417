import NotiplayCenter
import NotiplayCore
import NotiplaySystem
import SystemPackage

/// The apps a server presents for: the built-in `notiplay` app, each `--app FILE`, then every
/// `*.app.json` in the apps folder of the configuration directory, in name order. Names are
/// unique: a later app with a name already taken is left out, with a warning.
enum ServeApps {
    /// `$XDG_CONFIG_HOME/notiplay/apps`, else `~/.config/notiplay/apps`.
    static var folder: String {
        let environment = processEnvironment
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/notiplay/apps" }
        return (environment["HOME"] ?? "/tmp") + "/.config/notiplay/apps"
    }

    /// The app files in ``folder``, in name order (none when it does not exist).
    static func folderFiles() throws -> [String] {
        let folder = folder
        let names: [String]
        do { names = try Posix.entries(of: folder) } catch {
            if error.errno == .noSuchFileOrDirectory { return [] }
            throw NotiplayError(.missingInput, file: folder, "cannot be read: \(error)")
        }
        return names.filter { $0.hasSuffix(".app.json") && !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
    }

    /// Loads the apps, after the built-in `notiplay` app and `builtIn` ones; a file that cannot
    /// be read or is not a valid app file ends the command.
    static func load(files: [String], builtIn: [CenterService.App] = []) throws -> [CenterService.App] {
        var apps = [CenterService.App(definition: .standard, registry: .empty)] + builtIn
        let builtInNames = Set(apps.map(\.definition.name))
        for file in try files + folderFiles() {
            let app = try load(file)
            if let taken = apps.first(where: { $0.definition.name == app.definition.name }) {
                let other = builtInNames.contains(taken.definition.name) ? "the built-in app" : "another app file"
                Diagnostics.shared.report(
                    "warning: \(TerminalText.visible(file)): left out: \(other) is named \"\(TerminalText.visible(app.definition.name))\" already")
                continue
            }
            apps.append(app)
        }
        return apps
    }

    private static func load(_ file: String) throws -> CenterService.App {
        let definition: AppDefinition
        do { definition = try AppDefinition.decodeFile(file) } catch { throw error.notiplayError }
        var registry = ExtensionRegistry.empty
        if let folder = definition.extensionsDirectory {
            do { registry = try ExtensionRegistry.load(folder: folder) } catch {
                throw error.failures.last?.notiplayError ?? NotiplayError(.badData, file: folder, "cannot be loaded")
            }
        }
        return CenterService.App(
            definition: definition, registry: registry, soundsFolder: ArrivalSoundResolver.soundsFolder(besideAppFile: file))
    }
}
