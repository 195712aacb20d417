import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `Scripts/install`: installs the tests' binary (`--binary`, so nothing is built) into a home
/// folder of each test's own, and removes it. The programs that read what it installs are the
/// real ones: man, bash, zsh, fish, systemd-analyze.
@Suite("Scripts/install: one command installs for a user, one removes", .tags(.endToEnd))
struct InstallTests {
    @Test("Install, again (nothing changes), uninstall: the home folder is as it was; the installed binary runs")
    func installTwiceAndUninstall() async throws {
        try await withInstallHome { home in
            let before = try homeTree(home.root)
            let first = try await home.install("--freedesktop", "--dbus-activation")
            #expect(first.status == 0, "\(first)")
            for file in InstallHome.files + ["share/dbus-1/services/org.freedesktop.Notifications.service"] {
                #expect(FileManager.default.fileExists(atPath: home.prefix + "/" + file), "no \(file): \(first)")
            }
            let installed = try await run(home.prefix + "/bin/notiplay", ["--version"])
            let ours = try await notiplay("--version")
            #expect(installed.status == 0 && installed.stdoutText == ours.stdoutText, "\(installed)")
            let manifest = try String(contentsOfFile: home.manifest, encoding: .utf8)
            let installedTree = try homeTree(home.root)

            // Again without --dbus-activation: the same files unchanged, the D-Bus file gone.
            let second = try await home.install("--freedesktop")
            #expect(second.status == 0, "\(second)")
            #expect(!second.stdoutText.contains("installed \(home.prefix)"), "\(second)")
            #expect(second.stdoutText.contains("removed \(home.prefix)/share/dbus-1/services/org.freedesktop.Notifications.service"))
            let third = try await home.install("--freedesktop", "--dbus-activation")
            #expect(third.status == 0, "\(third)")
            #expect(try String(contentsOfFile: home.manifest, encoding: .utf8) == manifest)
            #expect(try homeTree(home.root) == installedTree)

            let removed = try await home.script("--uninstall")
            #expect(removed.status == 0, "\(removed)")
            #expect(try homeTree(home.root) == before, "\(removed)")
        }
    }

    @Test(
        "The man page installed: MANWIDTH=80 man --warnings says nothing",
        .enabled(if: E2E.which("man") != nil, "man is not installed (package man-db)"))
    func manPageWithoutWarnings() async throws {
        try await withInstallHome { home in
            #expect(try await home.install().status == 0)
            var environment = home.environment
            environment["MANWIDTH"] = "80"
            let page = home.prefix + "/share/man/man1/notiplay.1"
            let shown = try await run(try #require(E2E.which("man")), ["--warnings", "-l", page], environment: environment)
            #expect(shown.status == 0, "\(shown)")
            #expect(shown.stderrText.isEmpty, "\(shown.stderrText)")
            #expect(shown.stdoutText.contains("serve"))
        }
    }

    @Test("The bash completion loads: complete -p notiplay names its function")
    func bashCompletion() async throws {
        try await withInstallHome { home in
            #expect(try await home.install().status == 0)
            let file = home.prefix + "/share/bash-completion/completions/notiplay"
            let loaded = try await run("/bin/bash", ["-c", "source \"$1\" && complete -p notiplay", "bash", file], environment: home.shellEnvironment)
            #expect(loaded.status == 0, "\(loaded)")
            #expect(loaded.stdoutText.contains("-F _notiplay notiplay"), "\(loaded)")
        }
    }

    @Test(
        "The zsh completion is found on fpath: compinit maps notiplay to _notiplay",
        .enabled(if: E2E.which("zsh") != nil, "zsh is not installed (apt-get install zsh)"))
    func zshCompletion() async throws {
        try await withInstallHome { home in
            #expect(try await home.install().status == 0)
            let script = "fpath=(\"$1\" $fpath); autoload -Uz compinit; compinit -u -d \"$2\"; print -r -- $_comps[notiplay]"
            let loaded = try await run(
                try #require(E2E.which("zsh")),
                ["-fc", script, "zsh", home.prefix + "/share/zsh/site-functions", home.shellHome + "/zcompdump"],
                environment: home.shellEnvironment)
            #expect(loaded.status == 0, "\(loaded)")
            #expect(loaded.stdoutText == "_notiplay\n", "\(loaded)")
        }
    }

    @Test(
        "The fish completion is found where fish looks (the user's data folder): notiplay se<tab> offers serve",
        .enabled(if: E2E.which("fish") != nil, "fish is not installed (apt-get install fish)"))
    func fishCompletion() async throws {
        try await withInstallHome { home in
            #expect(try await home.install().status == 0)
            var environment = home.shellEnvironment
            // Where fish looks for a user's vendor completions: $XDG_DATA_HOME/fish/vendor_completions.d.
            environment["XDG_DATA_HOME"] = home.prefix + "/share"
            let offered = try await run(try #require(E2E.which("fish")), ["-c", "complete -C'notiplay se'"], environment: environment)
            #expect(offered.status == 0, "\(offered)")
            #expect(offered.stdoutText.contains("serve\t"), "\(offered)")
        }
    }

    @Test(
        "The systemd user unit: systemd-analyze --user verify accepts it (the binary, and the man page through PATH)",
        .enabled(if: E2E.which("systemd-analyze") != nil, "systemd-analyze is not installed (package systemd)"))
    func unitVerifies() async throws {
        try await withInstallHome { home in
            #expect(try await home.install("--freedesktop").status == 0)
            let unit = home.prefix + "/share/systemd/user/notiplay.service"
            let text = try String(contentsOfFile: unit, encoding: .utf8)
            #expect(text.contains("\nExecStart=\(home.prefix)/bin/notiplay serve --headless --freedesktop\n"), "\(text)")
            // The user manager's runtime folder: systemd-analyze --user refuses to start without one.
            let runtime = home.root.appendingPathComponent("run").path
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            chmod(runtime, 0o700)
            var environment = home.environment
            environment["XDG_RUNTIME_DIR"] = runtime
            // verify runs `man notiplay(1)` for Documentation=: man-db finds the page from PATH.
            environment["PATH"] = home.prefix + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
            let verified = try await run(try #require(E2E.which("systemd-analyze")), ["--user", "verify", unit], environment: environment)
            #expect(verified.status == 0, "\(verified)")
            #expect(verified.stderrText.isEmpty, "\(verified)")
        }
    }

    @Test("The unit's command, stopped as systemctl stop does (SIGTERM): it ends with a status the unit counts as success")
    func unitStopsCleanly() async throws {
        try await withInstallHome { home in
            #expect(try await home.install().status == 0)
            let text = try String(contentsOfFile: home.prefix + "/share/systemd/user/notiplay.service", encoding: .utf8)
            let command = try #require(Self.value(of: "ExecStart", in: text)).split(separator: " ").map(String.init)
            let successes = Set((Self.value(of: "SuccessExitStatus", in: text) ?? "").split(separator: " ").compactMap { Int32($0) })
            var environment = try E2E.centerEnvironment(scratch: home.root, runtimePrefix: "npi")
            environment["HOME"] = home.root.appendingPathComponent("home").path
            defer { E2E.remove(URL(fileURLWithPath: environment["XDG_RUNTIME_DIR"]!)) }
            let server = ChildProcess(command[0], Array(command.dropFirst()) + ["--audio", "null"], environment: environment)
            try await server.start()
            guard await server.until(["shown"]) else {
                server.send(SIGKILL)
                let ended = try await server.finish(timeout: 30)
                Issue.record("the server did not start: \(ended)")
                return
            }
            server.send(SIGTERM)
            let ended = try await server.finish(timeout: 30)
            #expect(ended.status == 0 || successes.contains(ended.status), "SuccessExitStatus=\(successes): \(ended)")
        }
    }

    @Test("Usage and missing input: --dbus-activation alone 64, a missing --binary 66 naming it, --uninstall of nothing 66 naming the manifest")
    func refusals() async throws {
        try await withInstallHome { home in
            let alone = try await home.install("--dbus-activation")
            #expect(alone.status == 64 && alone.stderrText.contains("give --freedesktop with it"), "\(alone)")
            let missing = home.root.appendingPathComponent("no-such-notiplay").path
            let noBinary = try await home.script("--binary", missing)
            #expect(noBinary.status == 66 && noBinary.stderrText.contains("\(missing): no executable there"), "\(noBinary)")
            let nothing = try await home.script("--uninstall")
            #expect(nothing.status == 66 && nothing.stderrText.contains("\(home.manifest): no such file"), "\(nothing)")
            let left = try homeTree(home.root)
            #expect(left == ["home/"], "\(left)")
        }
    }

    /// The value of `key=` in a unit's text.
    static func value(of key: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }
}

/// One test's home folder (`SCRATCH/home`), its prefix `~/.local`, and a second home for the
/// shells (which write their own files there, not into the one the install is checked in).
struct InstallHome {
    let root: URL
    var home: String { root.appendingPathComponent("home").path }
    var prefix: String { home + "/.local" }
    var manifest: String { prefix + "/share/notiplay/install-manifest" }
    var shellHome: String { root.appendingPathComponent("shell").path }

    /// What every install puts under the prefix.
    static let files = [
        "bin/notiplay", "share/man/man1/notiplay.1", "share/bash-completion/completions/notiplay",
        "share/zsh/site-functions/_notiplay", "share/fish/vendor_completions.d/notiplay.fish",
        "share/systemd/user/notiplay.service", "share/notiplay/install-manifest",
    ]

    /// The environment of the script: ours, with this test's HOME.
    var environment: [String: String] {
        var environment = E2E.childEnvironment
        environment["HOME"] = home
        return environment
    }

    /// The environment of a shell: its own HOME and configuration, the installed binary on PATH.
    var shellEnvironment: [String: String] {
        var environment = E2E.childEnvironment
        environment["HOME"] = shellHome
        environment["XDG_CONFIG_HOME"] = shellHome + "/config"
        environment["XDG_DATA_HOME"] = shellHome + "/data"
        environment["PATH"] = prefix + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    /// `Scripts/install ARGUMENTS`.
    func script(_ arguments: String...) async throws -> RunResult {
        try await run("/bin/bash", [E2E.root.appendingPathComponent("Scripts/install").path] + arguments, timeout: 300, environment: environment)
    }

    /// `Scripts/install --binary NOTIPLAY ARGUMENTS`.
    func install(_ arguments: String...) async throws -> RunResult {
        try await run(
            "/bin/bash", [E2E.root.appendingPathComponent("Scripts/install").path, "--binary", try E2E.binary()] + arguments,
            timeout: 300, environment: environment)
    }
}

/// Runs `body` with a new scratch folder holding an empty home folder; removes it after.
func withInstallHome(_ body: (InstallHome) async throws -> Void) async throws {
    let root = try E2E.scratch()
    defer { E2E.remove(root) }
    let home = InstallHome(root: root)
    try FileManager.default.createDirectory(atPath: home.home, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: home.shellHome, withIntermediateDirectories: true)
    try await body(home)
}

/// Every file and folder under `home`'s home folder (folders end in `/`), with each file's size
/// and mode: what a test compares before and after.
func homeTree(_ root: URL) throws -> [String] {
    let base = root.appendingPathComponent("home")
    var entries = ["home/"]
    let walker = FileManager.default.enumerator(atPath: base.path)
    while let path = walker?.nextObject() as? String {
        let attributes = try FileManager.default.attributesOfItem(atPath: base.appendingPathComponent(path).path)
        let mode = (attributes[.posixPermissions] as? Int).map { String($0, radix: 8) } ?? "?"
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            entries.append("home/\(path)/ \(mode)")
        } else {
            entries.append("home/\(path) \(mode) \(attributes[.size] as? Int ?? -1)")
        }
    }
    return entries.sorted()
}
