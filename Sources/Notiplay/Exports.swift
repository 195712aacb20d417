// What `import Notiplay` gives an extension author besides this module's own API, name by name:
// the view toolkit an extension draws with (NotiplayViews: the elements, styles, colours, geometry
// and the grid a custom element renders into) and the notification model (NotiplayCore). The rest
// of those modules (card layout, frame renderer, parsers, validators, writers) stays out of the
// author's namespace; `Label + Label` is declared in this module (ExtensionAPI.swift) because a
// scoped import cannot bring an operator. The runtime's own types are `package`:
// Scripts/author-api checks both sides.

@_exported import protocol NotiplayViews.ViewElement
@_exported import struct NotiplayViews.Label
@_exported import struct NotiplayViews.TextSpan
@_exported import struct NotiplayViews.CellStyle
@_exported import enum NotiplayViews.TerminalColor
@_exported import struct NotiplayViews.Paragraph
@_exported import struct NotiplayViews.ProgressBar
@_exported import struct NotiplayViews.Box
@_exported import struct NotiplayViews.Spacer
@_exported import struct NotiplayViews.VerticalStack
@_exported import struct NotiplayViews.Button
@_exported import enum NotiplayViews.TextAlignment
@_exported import struct NotiplayViews.Rect
@_exported import struct NotiplayViews.PointFrame
@_exported import enum NotiplayViews.ImageContentMode
@_exported import struct NotiplayViews.Size
@_exported import struct NotiplayViews.Grid
@_exported import struct NotiplayViews.Cell
@_exported import enum NotiplayViews.CellWidth

@_exported import struct NotiplayCore.UNNotification
@_exported import struct NotiplayCore.UNNotificationRequest
@_exported import class NotiplayCore.UNNotificationContent
@_exported import class NotiplayCore.UNMutableNotificationContent
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
@_exported import struct NotiplayCore.UNCalendarNotificationTrigger
@_exported import struct NotiplayCore.AudioFile
@_exported import enum NotiplayCore.JSONValue
@_exported import struct NotiplayCore.JSONObject
@_exported import enum NotiplayCore.JSONScalar
@_exported import struct NotiplayCore.NotiplayError

