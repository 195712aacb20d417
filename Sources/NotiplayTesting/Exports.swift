// A test file imports `NotiplayTesting` alone: the extension API and the model come with it, and
// the event lines the host reports.
@_exported import Notiplay
@_exported import struct NotiplayCore.EventLine
