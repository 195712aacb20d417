// swift-tools-version: 6.2
import PackageDescription

// The module graph (arrows point at what a module uses; nothing points up):
//
//   NotiplaySystem    the system calls, wrapped once (`Posix`, over swift-system): every module
//                     that touches files, pipes, sockets, poll, threads, signals, clocks or the
//                     terminal goes through it
//   NotiplayCore      the model, payloads, manifests, validation, typed errors (no libmpv, no terminal);
//                     the PNG decoder sixel needs (the only importer of CZlib, zlib)
//   NotiplayDBus      a session-bus connection over libdbus-1 (the only importer of CDBus): names,
//                     method calls routed to handlers, typed values, signals; uses NotiplaySystem
//     ^        ^
//     |        NotiplayViews     cells, grid, the view toolkit, text and card layout, glyphs,
//     |          ^               colours, the frame renderer: pure values and functions, no libc
//   NotiplayPlayback  the libmpv engine behind `PlaybackEngine` (the only importer of CMPV)
//     ^          |
//   Notiplay          the extension API and its runtime (what an extension author imports), and
//     ^    ^         an app's UNUserNotificationCenter; it uses Core, Views, the playback protocol
//     |    |         and the center's client (NotiplayCenterClient), never the terminal
//     |    NotiplaySamples  the seed articles' extensions, ported to that API
//     |    NotiplayAVFoundation  AVAudioPlayer, AVPlayer, AVPlayerItem and CMTime over that API's
//     |                     MediaPlayer: what a ported extension imports for AVFoundation
//   NotiplayTerminal  the terminal guard, signals, events, size, keys (one key table), and the
//     |               card drivers: the terminal, plain text, headless
//     |  NotiplayTesting  the test host an author drives from Swift Testing, and the script runner
//     |  NotiplayScript   the `.playback` script language: parser and AST (uses Core only)
//     |  NotiplayFreedesktop  the Desktop Notifications spec's `Notify` mapped to the center's
//     |                   model: markup, actions, hints, ids, close reasons (uses Core only; no D-Bus)
//     |  NotiplayCenter   the notification center: the durable store, the socket, the center
//     |                   (`CenterService`: one event stream) and its presentation policy (`CenterDeck`)
//     |  NotiplayFreedesktopBridge  `org.freedesktop.Notifications` over the center's API only
//     |  NotiplayServer   the center as one running thing: store, center, socket, bridge, sounds
//   NotiplayCommandLine  the whole command line as a library: the only module that knows argv,
//     ^                  exit statuses, environment variables and descriptor 2 (but for an app's
//     |                  UNUserNotificationCenter, which reads its socket and app name from them)
//   notiplay          the executable: the command line with the samples registered (only it
//                     registers them)

let package = Package(
    name: "notiplay",
    products: [
        .executable(name: "notiplay", targets: ["notiplay"]),
        .library(name: "NotiplayCore", targets: ["NotiplayCore"]),
        .library(name: "NotiplayPlayback", targets: ["NotiplayPlayback"]),
        .library(name: "NotiplayViews", targets: ["NotiplayViews"]),
        .library(name: "NotiplayTerminal", targets: ["NotiplayTerminal"]),
        .library(name: "NotiplayScript", targets: ["NotiplayScript"]),
        .library(name: "NotiplayCenterClient", targets: ["NotiplayCenterClient"]),
        .library(name: "Notiplay", targets: ["Notiplay"]),
        .library(name: "NotiplaySamples", targets: ["NotiplaySamples"]),
        .library(name: "NotiplayAVFoundation", targets: ["NotiplayAVFoundation"]),
        .library(name: "NotiplayCommandLine", targets: ["NotiplayCommandLine"]),
        .library(name: "NotiplayTesting", targets: ["NotiplayTesting"]),
        .library(name: "NotiplayFreedesktop", targets: ["NotiplayFreedesktop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // libmpv's client API loaded with dlopen when the first engine starts: its headers come
        // from libmpv-dev at build time, the library (libmpv2) is needed only to play.
        .target(name: "CMPV", linkerSettings: [.linkedLibrary("dl")]),
        // libdbus-1, for the freedesktop notification server: headers and library from
        // libdbus-1-dev (Scripts/ensure-deps.sh installs it).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "NotiplaySystem", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        .target(
            name: "NotiplayCore",
            dependencies: [
                "CZlib", "NotiplaySystem",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "NotiplayPlayback",
            dependencies: [
                "CMPV",
                "NotiplayCore",
                "NotiplaySystem",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(name: "NotiplayViews", dependencies: ["NotiplayCore"]),
        // The Desktop Notifications spec's `Notify` mapped to the center's model: pure values
        // and functions (no D-Bus), for `serve --freedesktop`.
        .target(name: "NotiplayFreedesktop", dependencies: ["NotiplayCore"]),
        .target(
            name: "NotiplayDBus",
            dependencies: ["CDBus", "NotiplaySystem", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .target(
            name: "NotiplayCenterClient",
            dependencies: ["NotiplayCore", "NotiplaySystem", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .target(
            name: "NotiplayCenter",
            dependencies: [
                "Notiplay", "NotiplayCenterClient", "NotiplayCore", "NotiplayPlayback", "NotiplaySystem",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "NotiplayFreedesktopBridge",
            dependencies: ["NotiplayCenter", "NotiplayCore", "NotiplayDBus", "NotiplayFreedesktop", "Notiplay", "NotiplayViews"]
        ),
        // The center as one running thing: store, center, socket, desktop bridge and sounds wired
        // once, for `serve` (which parses arguments and runs it).
        .target(
            name: "NotiplayServer",
            dependencies: [
                "Notiplay", "NotiplayCenter", "NotiplayCenterClient", "NotiplayCore", "NotiplayFreedesktop",
                "NotiplayFreedesktopBridge", "NotiplayPlayback", "NotiplaySystem", "NotiplayTerminal",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "NotiplayTerminal",
            dependencies: [
                "Notiplay", "NotiplayViews", "NotiplayCore", "NotiplaySystem",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "NotiplayScript",
            dependencies: ["NotiplayCore", "NotiplaySystem", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .target(
            name: "Notiplay",
            dependencies: [
                "NotiplayCenterClient", "NotiplayCore", "NotiplayPlayback", "NotiplayViews", "NotiplaySystem",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // AVFoundation's players for extensions ported from iOS, playing through the card's engine.
        .target(name: "NotiplayAVFoundation", dependencies: ["Notiplay", "NotiplayCore"]),
        .target(
            name: "NotiplaySamples",
            dependencies: ["Notiplay", "NotiplayCore", "NotiplaySystem", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .target(
            name: "NotiplayCommandLine",
            dependencies: [
                "NotiplayCenter",
                "NotiplayCenterClient",
                "NotiplayDBus",
                "NotiplayFreedesktop",
                "NotiplayFreedesktopBridge",
                "NotiplayServer",
                "Notiplay",
                "NotiplayCore",
                "NotiplayPlayback",
                "NotiplayScript",
                "NotiplaySystem",
                "NotiplayTesting",
                "NotiplayTerminal",
                "NotiplayViews",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "NotiplayTesting",
            dependencies: ["Notiplay", "NotiplayCore", "NotiplayPlayback", "NotiplayViews", "NotiplayScript"]
        ),
        .executableTarget(
            name: "notiplay", dependencies: ["NotiplayCommandLine", "NotiplaySamples"]),
        .executableTarget(
            name: "NotiplayBenchmarks",
            dependencies: ["Notiplay", "NotiplayCore", "NotiplayPlayback", "NotiplayViews"],
            path: "Benchmarks/NotiplayBenchmarks"
        ),
        // A program that adds one request and says how it went, for the end-to-end tests.
        .executableTarget(name: "notiplay-app-probe", dependencies: ["Notiplay"], path: "Tests/AppProbe"),
        // An author's tool whose extension prints, for the end-to-end tests of what becomes of it.
        .executableTarget(name: "notiplay-print-probe", dependencies: ["NotiplayCommandLine"], path: "Tests/PrintProbe"),
        .target(
            name: "NotiplayTestSupport",
            dependencies: [
                "NotiplayCore", "NotiplayPlayback", .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/Support"
        ),
        .testTarget(name: "NotiplayCoreTests", dependencies: ["NotiplayCore", "NotiplayTestSupport"]),
        .testTarget(
            name: "NotiplayCenterTests",
            dependencies: [
                "NotiplayCenter", "NotiplayCenterClient", "NotiplayCore", "NotiplayTestSupport", "Notiplay", "NotiplayPlayback",
                "NotiplaySystem", .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "NotiplayDBusTests", dependencies: ["NotiplayDBus", "NotiplaySystem", "NotiplayTestSupport"]),
        .testTarget(name: "NotiplayScriptTests", dependencies: ["NotiplayScript", "NotiplayTestSupport"]),
        .testTarget(
            name: "NotiplayTerminalTests",
            dependencies: ["NotiplayTerminal", "Notiplay", "NotiplayViews", "NotiplayCore", "NotiplayPlayback", "NotiplayTestSupport"],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "NotiplayPlaybackTests",
            // CMPV: a second libmpv client on an engine's player (OutputFallbackTests).
            dependencies: [
                "CMPV", "NotiplayPlayback", "NotiplayCore", "NotiplaySystem", "NotiplayTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "NotiplayRuntimeTests",
            dependencies: ["Notiplay", "NotiplayCenterClient", "NotiplayCore", "NotiplayPlayback", "NotiplayViews", "NotiplayTestSupport"]
        ),
        .testTarget(
            name: "NotiplayAVFoundationTests",
            dependencies: ["NotiplayAVFoundation", "Notiplay", "NotiplayCore", "NotiplayPlayback", "NotiplayTestSupport"]
        ),
        .testTarget(
            name: "NotiplayTestingTests",
            dependencies: ["NotiplayTesting", "NotiplayScript", "Notiplay", "NotiplayCore", "NotiplayTestSupport"]
        ),
        .testTarget(
            name: "CommandLineTests",
            dependencies: [
                "NotiplayCommandLine", "NotiplayCenterClient", "NotiplayCore", "NotiplayTerminal", "NotiplayFreedesktopBridge",
                "NotiplaySystem", "NotiplayTesting", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "NotiplaySamplesTests",
            dependencies: ["NotiplaySamples", "Notiplay", "NotiplayCore", "NotiplayViews", "NotiplayPlayback", "NotiplayTestSupport"]
        ),
        .testTarget(
            name: "NotiplayFreedesktopTests",
            dependencies: [
                "NotiplayFreedesktop", "NotiplayCore", "NotiplayTestSupport",
                // The card's tests: the built-in app presented through the runtime and the center.
                "NotiplayFreedesktopBridge", "Notiplay", "NotiplayCenter", "NotiplayPlayback", "NotiplayViews",
            ]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["NotiplayCore", "NotiplayDBus", "NotiplayTestSupport"]),
        // Every Swift example of the DocC catalogues, made a file by Scripts/docc-examples: the
        // build fails when one no longer compiles.
        .testTarget(
            name: "DocCExampleTests",
            dependencies: [
                "Notiplay", "NotiplayAVFoundation", "NotiplayCenterClient", "NotiplayCommandLine", "NotiplayCore",
                "NotiplayFreedesktop", "NotiplayPlayback", "NotiplayScript", "NotiplayTerminal", "NotiplayTesting",
                "NotiplayViews",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// What our code is held to, in every target: existentials
// spelled `any`, every module a file uses imported by that file, imports internal unless marked
// otherwise, and no warnings (they fail the build; dependencies are not affected).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]
for target in package.targets where target.type != .system && target.name != "CMPV" && target.name != "DocCExampleTests" {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
// The DocC examples compile as an author's Swift 6 package does (no upcoming features); they are
// fragments (a value made to be shown, never used), so their warnings are not shown.
if let examples = package.targets.first(where: { $0.name == "DocCExampleTests" }) {
    examples.swiftSettings = [.unsafeFlags(["-suppress-warnings"])]
}

// Fuzz targets (Fuzz/, run with Scripts/fuzz.sh): only when NOTIPLAY_FUZZ is set, as they need
// libFuzzer and unsafe flags. The modules they reach are then built with libFuzzer's coverage
// instrumentation and AddressSanitizer (`-sanitize=fuzzer,address`); the linker must be lld.
if let fuzz = Context.environment["NOTIPLAY_FUZZ"], !fuzz.isEmpty, fuzz != "0" {
    let sanitize: [String] = ["-sanitize=fuzzer,address"]
    let fuzzed: Set<String> = ["NotiplaySystem", "NotiplayCore", "NotiplayViews", "NotiplayScript", "NotiplayCenterClient"]
    for target in package.targets where fuzzed.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(sanitize)]
    }
    package.targets += [
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .target(
            name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/Support",
            swiftSettings: strictSettings + [.unsafeFlags(sanitize)]),
    ]
    let fuzzTargets: [(name: String, folder: String, module: Target.Dependency)] = [
        ("FuzzPayload", "Payload", "NotiplayCore"),
        ("FuzzPropertyList", "PropertyList", "NotiplayCore"),
        ("FuzzAppFile", "AppFile", "NotiplayCore"),
        ("FuzzScript", "Script", "NotiplayScript"),
        ("FuzzTerminalText", "TerminalText", "NotiplayCore"),
        ("FuzzCard", "Card", "NotiplayViews"),
        ("FuzzCenterFrames", "CenterFrames", "NotiplayCenterClient"),
        ("FuzzTriggers", "Triggers", "NotiplayCore"),
        ("FuzzImages", "Images", "NotiplayViews"),
    ]
    for fuzzTarget in fuzzTargets {
        package.targets.append(
            .executableTarget(
                name: fuzzTarget.name, dependencies: ["FuzzSupport", fuzzTarget.module], path: "Fuzz/\(fuzzTarget.folder)",
                swiftSettings: strictSettings + [.unsafeFlags(sanitize)],
                linkerSettings: [.unsafeFlags(sanitize + ["-use-ld=lld"])]))
        package.products.append(.executable(name: fuzzTarget.name, targets: [fuzzTarget.name]))
    }
}
