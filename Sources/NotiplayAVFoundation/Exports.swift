// What `import NotiplayAVFoundation` gives besides this module's own API: Foundation, as
// `import AVFoundation` gives it on iOS, so that a ported file's `URL`, `TimeInterval` and
// `NotificationCenter` (the AVPlayerItem notifications are observed with it) need no import of
// their own.

@_exported import Foundation
