// swift-tools-version: 6.0
import PackageDescription

// An extension author's own package: the NagMe reminder's content extension (seeds 001 and 003),
// and `nagme`, an executable that is the whole `notiplay` command line with this extension added.
let package = Package(
    name: "NagMe",
    dependencies: [
        // In your own package: .package(url: "https://…/notiplay", from: "0.1.0")
        .package(name: "notiplay", path: "../.."),
    ],
    targets: [
        // The extension, as it would be in an iOS app's extension target.
        .target(name: "NagMe", dependencies: [.product(name: "Notiplay", package: "notiplay")]),
        // The tool: notiplay's command line with NagMe's types registered.
        .executableTarget(
            name: "nagme",
            dependencies: ["NagMe", .product(name: "NotiplayCommandLine", package: "notiplay")]
        ),
        // The app side: schedules the reminder with the center, as the iOS app does.
        .executableTarget(name: "nagme-app", dependencies: [.product(name: "Notiplay", package: "notiplay")]),
        .testTarget(
            name: "NagMeTests",
            dependencies: [
                "NagMe",
                .product(name: "NotiplayCommandLine", package: "notiplay"),
                // The test host: present to the extension headless, on real libmpv, from Swift Testing.
                .product(name: "NotiplayTesting", package: "notiplay"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
