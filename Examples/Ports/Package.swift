// swift-tools-version: 6.0
import PackageDescription

// The seed articles' extension code and app-side calls, ported: one author package, a folder per
// seed (README.md in each holds the diff against the article's text, kept current by
// Scripts/seed-diff at the repository's root).
//
//   Reminder/       seed 000, the Core Data reminder: the extension (ReminderContent) and a
//                   stand-in for Core Data (module CoreData), which Linux does not have
//   Balance/        seed 004, the balance top-up: the extension (BalanceContent) and the app's
//                   category registration (`balance`)
//   CustomNumber/   seed 002: the extension (CustomNumberContent) and the app delegate's code
//                   (`custom-number`, named so that it speaks for the app "Custom Number")
//   Ringtone/       written for iOS (no seed article): a ringtone previewed for 3 s through
//                   AVAudioPlayer, three actions (RingtoneContent, its sound a resource)
//   Photo/          written for iOS (no seed article): a notification's image attachment in a
//                   UIImageView under a title label, two actions (PhotoContent)
//   Tool/           `ports`, notiplay's command line with the ports' extension types: runs
//                   their .playback scripts
//
// NagMe (seeds 001 and 003) is a package of its own, Examples/NagMe.
let package = Package(
    name: "Ports",
    dependencies: [
        // In your own package: .package(url: "https://…/notiplay", from: "0.1.0")
        .package(name: "notiplay", path: "../.."),
    ],
    targets: [
        // Core Data's names, for the Reminder extension's `import CoreData` (the app's model layer).
        .target(name: "CoreData", path: "Reminder/CoreDataStandIn"),
        .target(
            name: "ReminderContent",
            dependencies: ["CoreData", .product(name: "Notiplay", package: "notiplay")],
            path: "Reminder/Extension"
        ),
        .target(name: "BalanceContent", dependencies: [.product(name: "Notiplay", package: "notiplay")], path: "Balance/Extension"),
        .executableTarget(name: "balance", dependencies: [.product(name: "Notiplay", package: "notiplay")], path: "Balance/App"),
        .target(
            name: "CustomNumberContent", dependencies: [.product(name: "Notiplay", package: "notiplay")], path: "CustomNumber/Extension"),
        .executableTarget(
            name: "custom-number", dependencies: [.product(name: "Notiplay", package: "notiplay")], path: "CustomNumber/App"),
        .target(
            name: "RingtoneContent",
            dependencies: [
                .product(name: "Notiplay", package: "notiplay"), .product(name: "NotiplayAVFoundation", package: "notiplay"),
            ],
            path: "Ringtone/Extension",
            // On iOS: the sound added to the extension target (Copy Bundle Resources).
            resources: [.copy("ringtone.wav")]
        ),
        .target(name: "PhotoContent", dependencies: [.product(name: "Notiplay", package: "notiplay")], path: "Photo/Extension"),
        .executableTarget(
            name: "ports",
            dependencies: ["RingtoneContent", "PhotoContent", .product(name: "NotiplayCommandLine", package: "notiplay")],
            path: "Tool"
        ),
        .testTarget(
            name: "PortsTests",
            dependencies: [
                "CoreData", "ReminderContent", "BalanceContent", "CustomNumberContent", "RingtoneContent", "PhotoContent",
                .product(name: "Notiplay", package: "notiplay"),
                // The test host: presents to the extensions headless, with their Info.plist and app file.
                .product(name: "NotiplayTesting", package: "notiplay"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
