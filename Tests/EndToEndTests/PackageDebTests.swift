import Foundation
import NotiplayTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `Scripts/package-deb`, installed and removed with apt: the one test that writes into /usr,
/// so only as root, one at a time, and never over a notiplay package someone else installed.
@Suite(
    "Scripts/package-deb: apt installs the package and removes it", .serialized, .tags(.endToEnd),
    .enabled(if: getuid() == 0, "needs root: apt-get installs into /usr"),
    .enabled(if: E2E.which("dpkg-deb") != nil && E2E.which("apt-get") != nil, "needs dpkg-deb and apt-get (a Debian system)"))
struct PackageDebTests {
    @Test("apt-get install ./notiplay_VERSION_ARCH.deb: /usr/bin/notiplay runs, its man page is found; apt-get remove: all gone")
    func installAndRemove() async throws {
        let status = try await run("/usr/bin/dpkg-query", ["-W", "-f=${Status}", "notiplay"])
        guard !status.stdoutText.contains("installed") else {
            // Not ours to remove.
            Issue.record("a notiplay package is installed already (\(status.stdoutText)): this test would remove it")
            return
        }
        let scratch = try E2E.scratch()
        defer { E2E.remove(scratch) }
        let built = try await run(
            "/bin/bash",
            [E2E.root.appendingPathComponent("Scripts/package-deb").path, "--binary", try E2E.binary(), "--output", scratch.path,
             "--compress", "gzip"], timeout: 600)
        try #require(built.status == 0, "\(built)")
        let version = try await notiplay("--version").stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let arch = try await run("/usr/bin/dpkg", ["--print-architecture"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let deb = scratch.appendingPathComponent("notiplay_\(version)_\(arch).deb").path
        try #require(FileManager.default.fileExists(atPath: deb), "\(built)")

        let fields = try await run("/usr/bin/dpkg-deb", ["-f", deb, "Depends", "Version"])
        for name in ["libmpv2", "libsqlite3-0", "libdbus-1-3"] {
            #expect(fields.stdoutText.contains(name), "\(fields)")
        }
        let contents = try await run("/usr/bin/dpkg-deb", ["-c", deb])
        for path in [
            "./usr/bin/notiplay", "./usr/share/man/man1/notiplay.1.gz", "./usr/share/bash-completion/completions/notiplay",
            "./usr/share/zsh/vendor-completions/_notiplay", "./usr/share/fish/vendor_completions.d/notiplay.fish",
            "./usr/lib/systemd/user/notiplay.service",
        ] {
            #expect(contents.stdoutText.contains(" \(path)\n"), "no \(path): \(contents.stdoutText)")
        }

        var environment = E2E.childEnvironment
        environment["DEBIAN_FRONTEND"] = "noninteractive"
        // Another apt on the machine holds dpkg's lock for a while: wait for it rather than fail.
        let lock = ["-o", "DPkg::Lock::Timeout=600"]
        let installed = try await run("/usr/bin/apt-get", ["install", "-y", "-q"] + lock + [deb], timeout: 900, environment: environment)
        try #require(installed.status == 0, "\(installed)")
        let ran = try await run("/usr/bin/notiplay", ["--version"])
        let page = try await run("/usr/bin/man", ["-w", "notiplay"])
        let removed = try await run("/usr/bin/apt-get", ["remove", "-y", "-q"] + lock + ["notiplay"], timeout: 900, environment: environment)
        #expect(ran.status == 0 && ran.stdoutText == version + "\n", "\(ran)")
        #expect(page.stdoutText == "/usr/share/man/man1/notiplay.1.gz\n", "\(page)")
        #expect(removed.status == 0, "\(removed)")
        for path in ["/usr/bin/notiplay", "/usr/share/man/man1/notiplay.1.gz", "/usr/lib/systemd/user/notiplay.service"] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) is still there")
        }
    }
}
