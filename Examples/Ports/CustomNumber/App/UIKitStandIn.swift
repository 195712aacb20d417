// The UIKit names of an app delegate, for seed 002's app code to compile as the article prints
// it. An app on Linux has no UIApplication: these are this program's own, not notiplay's, and
// not part of the seed's diff. main.swift launches the delegate with them.

/// The app delegate's superclass in Xcode's template.
@MainActor
class UIResponder {
    init() {}
}

/// What an app delegate is.
@MainActor
protocol UIApplicationDelegate: AnyObject {}

/// The running app, as the app delegate's methods are given it.
@MainActor
final class UIApplication {
    /// The app.
    static let shared = UIApplication()
}

/// The keys of the launch options (UIKit's name before iOS 12, as the article writes it).
struct UIApplicationLaunchOptionsKey: Hashable, RawRepresentable, Sendable {
    var rawValue: String
}
