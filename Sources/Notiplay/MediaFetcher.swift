import NotiplayCore
import NotiplayViews
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NotiplaySystem
import Subprocess
import SystemPackage

/// Fetches the media a payload names into a cache folder and makes a validated attachment of it:
/// what ``MediaAttachmentService`` does, for service extensions of your own too.
///
/// Accepted references:
/// - `file:///absolute/path` (host empty or `localhost`): a local regular file, copied — only
///   from inside ``baseDirectory`` (the payload's folder) or one of ``mediaFolders``, symbolic
///   links resolved (`LocalMediaFolders`); any other is refused with one message that does not
///   tell whether the file exists or what it is.
/// - `http://…` and `https://…`: downloaded by `curl` (looked up on the `PATH` of
///   ``environment``, which is all of curl's environment: its proxy settings too), run without a
///   shell and with its configuration files ignored: `--fail`, at most 3 redirects, only HTTP(S)
///   even after a redirect, no more bytes than the largest attachment limit, and a time limit.
/// - a path without a scheme, only when ``baseDirectory`` is set (the payload's folder): relative
///   to it, and confined as a `file://` URL is.
///
/// Anything else — another scheme (`ftp:`, `data:`…), or a bare path with no base — is an error.
///
/// The file is written to ``cacheDirectory`` under a name made of a hash of the reference and an
/// extension taken from the reference's path when it agrees with the file's content, else from the
/// content (`.wav`, `.m4a`, `.ogg`…). A reference is fetched again on every call; its new copy
/// replaces the old one. The result is validated like any attachment (``AttachmentValidator``).
package struct MediaFetcher: Sendable {
    /// The folder fetched media are written to; `nil` means there is none, and every fetch fails
    /// saying so.
    public var cacheDirectory: String?
    /// The size limits of attachments; downloads stop at the larger one.
    public var limits: AttachmentLimits
    /// The folder references without a scheme are relative to (the payload's folder), or `nil` to
    /// refuse such references. Local media may come from inside it.
    public var baseDirectory: String?
    /// Other folders local media may come from (`HostEnvironment.mediaFolders`).
    public var mediaFolders: [String]
    /// The payload file, named when a local reference is refused.
    public var payloadFile: String?
    /// The environment variables `curl` runs with, and nothing else: `PATH` (where `curl` is
    /// looked up; without one, the process's), proxy settings such as `https_proxy`.
    public var environment: [String: String]

    /// A fetcher.
    /// - Parameters:
    ///   - cacheDirectory: Where fetched media go; `nil` means there is none.
    ///   - limits: The attachment size limits.
    ///   - baseDirectory: The folder bare paths are relative to, or `nil` to refuse them.
    ///   - mediaFolders: Other folders local media may come from.
    ///   - payloadFile: The payload file, for messages.
    ///   - environment: `curl`'s environment variables.
    public init(
        cacheDirectory: String? = nil, limits: AttachmentLimits = .default, baseDirectory: String? = nil,
        mediaFolders: [String] = [], payloadFile: String? = nil, environment: [String: String] = [:]
    ) {
        self.cacheDirectory = cacheDirectory
        self.limits = limits
        self.baseDirectory = baseDirectory
        self.mediaFolders = mediaFolders
        self.payloadFile = payloadFile
        self.environment = environment
    }

    /// Fetches `reference` and returns it as an attachment whose identifier is the reference's
    /// file name.
    ///
    /// Cancelling the task stops the fetch (a running `curl` is killed) and throws.
    /// - Parameters:
    ///   - reference: A `file://`, `http://` or `https://` URL, or a path relative to
    ///     ``baseDirectory``.
    ///   - timeLimit: The longest a download may take.
    /// - Throws: ``NotiplayError`` naming `reference` and what went wrong.
    public func fetch(_ reference: String, timeLimit: Duration = .seconds(30)) async throws(NotiplayError) -> UNNotificationAttachment {
        let source = try Source(reference, baseDirectory: baseDirectory)
        guard let folder = cacheDirectory else {
            throw NotiplayError(.unavailable, file: reference, "no cache folder for fetched media was given")
        }
        try Self.makeFolder(folder)
        let name = Self.hashName(reference)
        let partial = Self.join(folder, ".\(name)-\(UInt64.random(in: 0...UInt64.max)).part")
        defer { try? Posix.removeFile(partial) }
        switch source {
        case .local(let path):
            try copy(path, to: partial, reference: reference)
        case .remote:
            try await download(reference, to: partial, timeLimit: timeLimit)
        }
        if Task.isCancelled { throw Self.stopped(reference) }
        let validator = AttachmentValidator(limits: limits)
        let fetched: UNNotificationAttachment
        do {
            fetched = try validator.validate(partial)
        } catch {
            // A local file is judged as it was read (its copy): what is wrong is the file's.
            guard case .remote = source else { throw NotiplayError(error.kind, file: reference, error.reason) }
            throw NotiplayError(error.kind, file: reference, "fetched, but \(error.reason)")
        }
        let final = Self.join(folder, "\(name).\(Self.fileExtension(for: fetched.kind, path: source.path))")
        do {
            try Posix.rename(partial, to: final)
        } catch {
            throw NotiplayError(.unavailable, file: final, "cannot be written: \(error.reason)")
        }
        do {
            return try validator.validate(final, identifier: Self.identifier(for: source.path))
        } catch {
            throw NotiplayError(error.kind, file: reference, "fetched, but \(error.reason)")
        }
    }

    // MARK: Sources

    /// What a reference names.
    enum Source {
        /// A local file, by absolute path.
        case local(String)
        /// An `http` or `https` URL, with its path.
        case remote(path: String)

        /// The path part, for the file's name and extension.
        var path: String {
            switch self {
            case .local(let path): path
            case .remote(let path): path
            }
        }

        init(_ reference: String, baseDirectory: String?) throws(NotiplayError) {
            guard !reference.isEmpty else {
                throw NotiplayError(.badData, file: "media-url", "is empty; expected a file://, http:// or https:// URL")
            }
            guard let scheme = Self.scheme(of: reference) else {
                guard let baseDirectory else {
                    throw NotiplayError(
                        .badData, file: reference,
                        "is not a URL: media is fetched from file://, http:// or https:// URLs "
                            + "(a relative path needs the payload's folder)")
                }
                self = .local(reference.hasPrefix("/") ? reference : MediaFetcher.join(baseDirectory, reference))
                return
            }
            guard !reference.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
                throw NotiplayError(
                    .badData, file: reference, "contains spaces or control characters; a URL has them percent-encoded")
            }
            guard let url = URL(string: reference) else {
                throw NotiplayError(.badData, file: reference, "is not a valid URL")
            }
            switch scheme {
            case "file":
                let host = url.host ?? ""
                guard host.isEmpty || host.lowercased() == "localhost" else {
                    throw NotiplayError(
                        .badData, file: reference, "names the host \"\(host)\"; a file:// URL names a local file")
                }
                let path = url.path
                guard path.hasPrefix("/"), path.count > 1 else {
                    throw NotiplayError(.badData, file: reference, "names no file; expected file:///absolute/path")
                }
                self = .local(path)
            case "http", "https":
                guard let host = url.host, !host.isEmpty else {
                    throw NotiplayError(.badData, file: reference, "names no host")
                }
                self = .remote(path: url.path)
            default:
                throw NotiplayError(
                    .badData, file: reference,
                    "uses the \(scheme): scheme; media is fetched from file://, http:// or https:// URLs only")
            }
        }

        /// The lowercased scheme (RFC 3986: a letter, then letters, digits, `+`, `-` or `.`,
        /// then a colon), or `nil`.
        static func scheme(of reference: String) -> String? {
            guard let colon = reference.firstIndex(of: ":") else { return nil }
            let scheme = reference[..<colon]
            guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return nil }
            let allowed = scheme.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == ".")
            }
            return allowed ? scheme.lowercased() : nil
        }
    }

    // MARK: Downloads

    /// Downloads `url` into `destination` with `curl`, in a process group of its own; cancelling
    /// the task kills it.
    private func download(_ url: String, to destination: String, timeLimit: Duration) async throws(NotiplayError) {
        let arguments = [
            "--disable",  // first: no ~/.curlrc
            "--fail", "--silent", "--show-error", "--globoff",
            "--location", "--max-redirs", "3",
            "--proto", "=http,https", "--proto-redir", "=http,https",
            "--max-filesize", String(max(limits.audio, limits.image)),
            "--max-time", Self.seconds(timeLimit),
            "--output", destination,
            "--", url,
        ]
        let status: TerminationStatus
        let said: String
        do {
            let result = try await Subprocess.run(
                ChildProgram.executable("curl"), arguments: Arguments(arguments),
                environment: ChildProgram.environment(environment),
                platformOptions: ChildProgram.options(teardown: [
                    .send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .seconds(1))
                ]),
                output: .discarded, error: .string(limit: 65_536))
            status = result.terminationStatus
            said = Self.firstLine(of: result.standardError)
        } catch {
            if Task.isCancelled { throw Self.stopped(url) }
            if let failure = error as? SubprocessError, failure.code == .executableNotFound {
                throw NotiplayError(.unavailable, file: url, "fetching http(s) media needs curl on PATH")
            }
            throw NotiplayError(.unavailable, file: url, "curl could not be started: \(ChildProgram.reason(error, program: "curl"))")
        }
        if Task.isCancelled { throw Self.stopped(url) }
        switch status {
        case .exited(0):
            return
        case .exited(let code):
            throw NotiplayError(.badData, file: url, said.isEmpty ? "curl failed with exit status \(code)" : said)
        case .signaled(let signal):
            throw NotiplayError(.unavailable, file: url, "curl was ended by signal \(signal)")
        }
    }

    static func stopped(_ reference: String) -> NotiplayError {
        NotiplayError(.unavailable, file: reference, "the fetch was stopped at the time limit")
    }

    /// Seconds for curl's `--max-time`, at least 1 ms (0 would mean no limit).
    static func seconds(_ duration: Duration) -> String {
        let (whole, atto) = duration.components
        let ms = max(1, min(Int64(86_400_000), whole * 1000 + atto / 1_000_000_000_000_000))
        let fraction = String(ms % 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// The first non-empty line of `text` (curl's error message), at most 300 characters.
    static func firstLine(of text: String) -> String {
        let line = text.prefix(4096).split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) } ?? ""
        return String(line.prefix(300))
    }

    // MARK: Names

    /// 16 hex digits of the 64-bit FNV-1a hash of `text`.
    static func hashName(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The file name extensions each kind of content goes by; the first is the one used when the
    /// path's own does not fit.
    static func extensions(for kind: UNNotificationAttachment.Kind) -> [String] {
        switch kind {
        case .audio(let file):
            switch file.format {
            case .wav: ["wav", "wave"]
            case .aiff: ["aiff", "aif", "aifc"]
            case .mp3: ["mp3"]
            case .aac: ["aac"]
            case .m4a: ["m4a", "mp4", "m4b"]
            case .vorbis: ["ogg", "oga"]
            case .opus: ["opus", "ogg"]
            case .flac: ["flac"]
            }
        case .image(let format):
            switch format {
            case .png: ["png"]
            case .jpeg: ["jpg", "jpeg"]
            case .gif: ["gif"]
            case .heic: ["heic", "heif"]
            }
        }
    }

    /// The extension of `path` when it fits the content, else the content's usual one.
    static func fileExtension(for kind: UNNotificationAttachment.Kind, path: String) -> String {
        let known = extensions(for: kind)
        let name = lastComponent(path)
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let given = name[name.index(after: dot)...].lowercased()
            if known.contains(given) { return given }
        }
        return known[0]
    }

    /// The attachment's identifier: the file name the reference ends with, or `media`.
    static func identifier(for path: String) -> String {
        let name = lastComponent(path)
        return name.isEmpty ? "media" : name
    }

    static func lastComponent(_ path: String) -> String {
        String(path.split(separator: "/").last ?? "")
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    // MARK: The system

    /// Creates `folder` and its parents (mode 0700) when missing.
    static func makeFolder(_ folder: String) throws(NotiplayError) {
        if let info = try? Posix.status(of: folder) {
            guard info.type == .directory else {
                throw NotiplayError(.unavailable, file: folder, "is not a folder; fetched media cannot be cached there")
            }
            return
        }
        var path = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            path += "/" + part
            do {
                try Posix.makeFolder(path, permissions: .ownerReadWriteExecute)
            } catch where error.errno != .fileExists {
                throw NotiplayError(.unavailable, file: path, "cannot be created for the media cache: \(error.reason)")
            } catch {}
        }
    }
}
