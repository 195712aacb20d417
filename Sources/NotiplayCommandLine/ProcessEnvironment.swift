import Notiplay
import NotiplaySystem
import SystemPackage

// The process's environment is the command line's to read (and, in an app's program, its
// `UNUserNotificationCenter`'s): the libraries get what they need from it as configuration
// (`HostEnvironment`, the samples' `Samples.Configuration`).

/// The process environment as a dictionary (read by `Posix.environment`, the one reader of
/// `environ`).
var processEnvironment: [String: String] { Posix.environment }

/// What the runtime gets from this process: its environment variables for the programs it
/// starts, the media cache (`$NOTIPLAY_CACHE_DIR`, else `$XDG_CACHE_HOME/notiplay/media`, else
/// `~/.cache/notiplay/media`), the folders `--media-root` allows local media from, and
/// ``Diagnostics``' descriptor for the app command's output. Made after the engine started, so
/// that the descriptor is the one messages go to then.
func hostEnvironment(mediaFolders: [String] = []) -> HostEnvironment {
    let variables = processEnvironment
    return HostEnvironment(
        variables: variables,
        mediaCacheDirectory: NotiplayCLI.cacheFolder("media", overriddenBy: "NOTIPLAY_CACHE_DIR", in: variables),
        mediaFolders: mediaFolders, commandOutput: Diagnostics.shared.fileDescriptor)
}

extension NotiplayCLI {
    /// The process's environment variables, for an executable that configures what it registers
    /// (the `notiplay` executable gives the samples their store folder).
    public static var environment: [String: String] { processEnvironment }

    /// A folder of notiplay's cache: `$VARIABLE` when set and not empty, else
    /// `$XDG_CACHE_HOME/notiplay/NAME` (when that is an absolute path), else
    /// `$HOME/.cache/notiplay/NAME`; `nil` when none of them is set.
    /// - Parameters:
    ///   - name: The cache's own folder under `notiplay/` (`media`, `samples`).
    ///   - variable: The environment variable that names the folder outright.
    ///   - environment: The variables to read (default: the process's).
    public static func cacheFolder(
        _ name: String, overriddenBy variable: String, in environment: [String: String] = NotiplayCLI.environment
    ) -> String? {
        if let folder = environment[variable], !folder.isEmpty { return folder }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return join(xdg, "notiplay/\(name)") }
        if let home = environment["HOME"], !home.isEmpty { return join(home, ".cache/notiplay/\(name)") }
        return nil
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
