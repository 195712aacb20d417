import ArgumentParser
import NotiplayCore

/// The configuration file `serve` reads (`notiplay.conf`): where it is, reading it at start and
/// again on a reload.
struct ServeConfig {
    /// The file: `serve --config FILE`, else the default place.
    let path: String
    /// Whether the file was named (`--config`): it must exist then; the default one may not.
    let named: Bool

    /// `$XDG_CONFIG_HOME/notiplay/notiplay.conf`, else `~/.config/notiplay/notiplay.conf`.
    static var defaultPath: String {
        let environment = processEnvironment
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/notiplay/notiplay.conf" }
        return (environment["HOME"] ?? "/tmp") + "/.config/notiplay/notiplay.conf"
    }

    /// The file `--config` names, or the default one.
    init(option: String?) {
        path = option ?? Self.defaultPath
        named = option != nil
    }

    /// Reads the file: a default file that does not exist is an empty configuration.
    func load() throws(CenterConfigError) -> CenterConfig {
        do {
            return try CenterConfig.load(file: path)
        } catch {
            if error.isMissing && !named { return CenterConfig() }
            throw error
        }
    }

    /// Reads the file at start: a file that cannot be used is said, line by line, and ends the
    /// command (66 when `--config` names a file that does not exist, else 65).
    func loadAtStart() throws -> CenterConfig {
        do {
            return try load()
        } catch {
            for line in error.lines { Diagnostics.shared.report(line) }
            throw ExitCode(error.isMissing ? ExitStatus.missingInput : ExitStatus.badData)
        }
    }
}
