public import Foundation

// iOS hands an extension its attachments as security-scoped URLs, and every extension that reads
// one brackets the read with these two calls. Linux has no sandbox to open, and Foundation there
// has neither method, so the calls compile and mean what they mean for a file already readable.
extension URL {
    /// Whether the file can be read: `true` for a `file:` URL, `false` for any other (Apple:
    /// `startAccessingSecurityScopedResource()`). There is no sandbox here; nothing else happens.
    public func startAccessingSecurityScopedResource() -> Bool {
        isFileURL
    }

    /// Ends what ``startAccessingSecurityScopedResource()`` began: nothing, here (Apple:
    /// `stopAccessingSecurityScopedResource()`).
    public func stopAccessingSecurityScopedResource() {}
}
