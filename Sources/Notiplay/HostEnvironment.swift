package import SystemPackage

/// What the runtime needs from the process it runs in, handed to it instead of taken: the
/// environment variables of the programs it starts, the folder fetched media go to, the folders
/// local media may come from, and where the app's command writes its output.
///
/// The runtime reads no environment variable of its own process and writes to no descriptor it
/// was not given. The `notiplay` command line fills this from its environment and its standard
/// error; an author's tests leave the defaults (no variables, no media cache, the command's output
/// discarded) or set what they need:
///
/// ```swift
/// var environment = HostEnvironment(mediaCacheDirectory: scratch + "/media")
/// environment.commandOutput = try FileDescriptor.open(
///     scratch + "/command.log", .writeOnly, options: [.create, .truncate], permissions: .ownerReadWrite)
/// let session = PresentationSession(
///     app: app, registry: registry, types: types, engine: engine,
///     configuration: .init(environment: environment))
/// ```
package struct HostEnvironment: Sendable {
    /// The environment variables of the programs the runtime starts: `curl` for a download
    /// (which reads its proxy settings, such as `https_proxy`, from them) and the app's command
    /// for forwarded actions (which gets the `NOTIPLAY_*` variables on top). A program named
    /// without a `/` is looked up on their `PATH`; when they have none, on the process's own.
    public var variables: [String: String]
    /// The folder fetched media are written to (see `MediaFetcher`); `nil` means there is none,
    /// and fetching fails saying so.
    public var mediaCacheDirectory: String?
    /// The folders a payload's local `media-url` may name files in besides the payload file's own
    /// folder (the command line's `--media-root`); empty by default, so a payload attaches only
    /// files from its own folder.
    public var mediaFolders: [String]
    /// Where the app's command for forwarded actions writes its standard output and error; `nil`
    /// discards both. The descriptor stays open and stays the caller's.
    public var commandOutput: FileDescriptor?

    /// An environment; by default no variables, no media cache, no other media folder, and the
    /// command's output discarded.
    public init(
        variables: [String: String] = [:], mediaCacheDirectory: String? = nil, mediaFolders: [String] = [],
        commandOutput: FileDescriptor? = nil
    ) {
        self.variables = variables
        self.mediaCacheDirectory = mediaCacheDirectory
        self.mediaFolders = mediaFolders
        self.commandOutput = commandOutput
    }
}
