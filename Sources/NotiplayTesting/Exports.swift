// A test file imports `NotiplayTesting` alone: the extension API and the model come with it.
@_exported import Notiplay
