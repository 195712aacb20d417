// swift-tools-version: 6.0
import PackageDescription

// Layers (dependencies point down only):
//   NotiplayCore      model values, validation, errors          (no libmpv, no terminal)
//   NotiplayPlayback  the libmpv engine behind `PlaybackEngine`  (the only importer of CMPV)
//   NotiplayTerminal  cells, widths, grids, the frame renderer, the terminal guard, key input
//   NotiplayScript    the `.playback` script language: the parser and its AST (no runtime)
//   Notiplay          the extension API and runtime: what an extension author imports
//   NotiplaySamples   the seed articles' extensions (and two media ones), ported to that API
//   NotiplayTesting   the test host an author drives from Swift Testing, and the script runner
//   NotiplayCommandLine  the whole command line as a library (its own small parser: see
//                        CommandLineParser.swift), so an author's package gets it from one call
//   notiplay          the executable: NotiplayCLI.main(types:) with the built-in extension types
//                     and the samples (NotiplaySamples), which only it registers
//
// Only NotiplayCommandLine knows the process: its arguments, exit statuses, environment variables
// and standard error. The libraries below it take what they need as configuration.
let package = Package(
    name: "notiplay",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "notiplay", targets: ["notiplay"]),
        .library(name: "NotiplayCore", targets: ["NotiplayCore"]),
        .library(name: "NotiplayPlayback", targets: ["NotiplayPlayback"]),
        .library(name: "NotiplayTerminal", targets: ["NotiplayTerminal"]),
        .library(name: "NotiplayScript", targets: ["NotiplayScript"]),
        .library(name: "Notiplay", targets: ["Notiplay"]),
        .library(name: "NotiplaySamples", targets: ["NotiplaySamples"]),
        .library(name: "NotiplayCommandLine", targets: ["NotiplayCommandLine"]),
        .library(name: "NotiplayTesting", targets: ["NotiplayTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CMPV",
            pkgConfig: "mpv",
            providers: [.apt(["libmpv-dev"])]
        ),
        .target(
            name: "NotiplayCore",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]
        ),
        .target(
            name: "NotiplayPlayback",
            dependencies: [
                "CMPV",
                "NotiplayCore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "NotiplayTerminal",
            dependencies: ["NotiplayCore", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .target(name: "NotiplayScript", dependencies: ["NotiplayCore"]),
        .target(
            name: "Notiplay",
            dependencies: [
                "NotiplayCore", "NotiplayPlayback", "NotiplayTerminal",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(name: "NotiplaySamples", dependencies: ["Notiplay"]),
        .target(
            name: "NotiplayCommandLine",
            dependencies: [
                "Notiplay",
                "NotiplayCore",
                "NotiplayPlayback",
                "NotiplayScript",
                "NotiplayTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .target(
            name: "NotiplayTesting",
            dependencies: ["Notiplay", "NotiplayCore", "NotiplayPlayback", "NotiplayTerminal", "NotiplayScript"]
        ),
        .executableTarget(name: "notiplay", dependencies: ["NotiplayCommandLine", "NotiplaySamples"]),
        .executableTarget(
            name: "NotiplayBenchmarks",
            dependencies: ["Notiplay", "NotiplayCore", "NotiplayPlayback"],
            path: "Benchmarks/NotiplayBenchmarks"
        ),
        .target(
            name: "NotiplayTestSupport",
            dependencies: ["NotiplayCore", .product(name: "Subprocess", package: "swift-subprocess")],
            path: "Tests/Support"
        ),
        .testTarget(name: "NotiplayCoreTests", dependencies: ["NotiplayCore", "NotiplayTestSupport"]),
        .testTarget(name: "NotiplayScriptTests", dependencies: ["NotiplayScript", "NotiplayTestSupport"]),
        .testTarget(
            name: "NotiplayTerminalTests", dependencies: ["NotiplayTerminal", "NotiplayCore", "NotiplayTestSupport"], exclude: ["Snapshots"]),
        .testTarget(
            name: "NotiplayPlaybackTests",
            dependencies: ["NotiplayPlayback", "NotiplayCore", "NotiplayTestSupport"]
        ),
        .testTarget(name: "NotiplayRuntimeTests", dependencies: ["Notiplay", "NotiplayPlayback", "NotiplayTestSupport"]),
        .testTarget(
            name: "NotiplayTestingTests",
            dependencies: ["NotiplayTesting", "NotiplayScript", "Notiplay", "NotiplayTestSupport"]
        ),
        .testTarget(name: "CommandLineTests", dependencies: ["NotiplayCommandLine", "NotiplayCore"]),
        .testTarget(
            name: "NotiplaySamplesTests",
            dependencies: ["NotiplaySamples", "Notiplay", "NotiplayPlayback", "NotiplayTestSupport"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["NotiplayCore", "NotiplayTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
