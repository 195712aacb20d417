package import Notiplay
package import NotiplayCenter
package import NotiplayCore

/// The built-in app that freedesktop notifications are presented for when no registered app
/// claims them (by their `desktop-entry` hint): its name, its definition, and its one content
/// extension, ``FreedesktopCardExtension``, which presents every category.
///
/// `serve --freedesktop` adds ``app()`` to the center's apps and registers the extension type
/// with ``register(in:)``; the bridge adds each notification under ``name`` and registers its
/// buttons' category (`freedesktop.ID`) with `CenterService.setCategories(_:for:)` as it comes,
/// which the extension presents like any other.
///
/// The name is `desktop`: it reads well in `list` and `history` ("desktop", beside the header's
/// app name) and no one names an app file so in practice. An app file named `desktop` is left
/// out of a server that runs with `--freedesktop` (as one named `notiplay` always is), with the
/// usual warning.
package enum FreedesktopApp {
    /// `desktop`.
    package static let name = "desktop"

    /// The app: no categories to begin with (the bridge registers them), forwarded actions
    /// printed, as for the built-in `notiplay` app.
    package static let definition = AppDefinition(
        name: name, categories: [], extensionsDirectory: nil, forwardedActions: .printOnly)

    /// The extension's manifest, made in code: the header is the extension's title (the client's
    /// `app_name`), the default content is hidden (the extension draws title and styled body),
    /// and the view is as tall as its content.
    package static let manifest = ExtensionManifest(
        bundleName: "FreedesktopCard", path: "(built-in)", point: .content, principalClass: nil,
        mainStoryboard: nil, typeName: FreedesktopCardExtension.typeName,
        bundleIdentifier: "org.notiplay.freedesktop-card", displayName: "Desktop notifications", categories: [],
        initialContentSizeRatio: 0, defaultContentHidden: true, overridesDefaultTitle: true,
        userInteractionEnabled: false, warnings: [])

    /// The app's extensions: ``manifest``, presenting every category.
    package static let registry = ExtensionRegistry(presentingEveryCategory: manifest)

    /// The app for the center: ``definition`` with ``registry``.
    package static func app() -> CenterService.App {
        CenterService.App(definition: definition, registry: registry)
    }

    /// Registers ``FreedesktopCardExtension`` in `types`, under the name ``manifest`` gives.
    package static func register(in types: inout ExtensionTypes) {
        types.register(FreedesktopCardExtension.self, as: FreedesktopCardExtension.typeName)
    }
}
