// What `import Notiplay` gives an extension author besides this module's own API: the view
// toolkit (NotiplayViews: pure values, no terminal) whole, and the notification model of
// NotiplayCore name by name. The rest of NotiplayCore (parsers, validators, writers, process
// spawning) stays out of the author's namespace; the runtime's own files import it as they need.

@_exported import NotiplayViews

@_exported import struct NotiplayCore.UNNotification
@_exported import struct NotiplayCore.UNNotificationRequest
@_exported import struct NotiplayCore.UNNotificationContent
@_exported import struct NotiplayCore.UNMutableNotificationContent
@_exported import struct NotiplayCore.UNNotificationAttachment
@_exported import struct NotiplayCore.UNNotificationAction
@_exported import typealias NotiplayCore.UNTextInputNotificationAction
@_exported import struct NotiplayCore.UNNotificationActionOptions
@_exported import struct NotiplayCore.UNNotificationCategory
@_exported import struct NotiplayCore.UNNotificationCategoryOptions
@_exported import protocol NotiplayCore.UNNotificationResponse
@_exported import struct NotiplayCore.UNNotificationActionResponse
@_exported import struct NotiplayCore.UNTextInputNotificationResponse
@_exported import let NotiplayCore.UNNotificationDefaultActionIdentifier
@_exported import let NotiplayCore.UNNotificationDismissActionIdentifier
@_exported import enum NotiplayCore.UNNotificationInterruptionLevel
@_exported import struct NotiplayCore.UNNotificationSound
@_exported import protocol NotiplayCore.UNNotificationTrigger
@_exported import struct NotiplayCore.UNPushNotificationTrigger
@_exported import struct NotiplayCore.UNTimeIntervalNotificationTrigger
@_exported import struct NotiplayCore.AudioFile
@_exported import enum NotiplayCore.JSONValue
@_exported import struct NotiplayCore.JSONObject
@_exported import enum NotiplayCore.JSONScalar
@_exported import struct NotiplayCore.NotiplayError
