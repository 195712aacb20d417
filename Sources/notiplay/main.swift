import NotiplayCommandLine

// The `notiplay` executable: the command line with the built-in extension types only.
await NotiplayCLI.main()
