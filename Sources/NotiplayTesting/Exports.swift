// A test file imports `NotiplayTesting` alone: the extension API and the model come with it, the
// events the host reports (`LoggedEvent`, `PresentationEvent`, from Notiplay), and the lines they
// project to.
@_exported import Notiplay
@_exported import struct NotiplayCore.EventLine
