import NotiplayCommandLine
import NotiplaySamples

// The `notiplay` executable: the command line with the built-in extension types and the samples
// (Samples/*/ and their playback scripts rely on them). The Reminder sample keeps its store in
// $NOTIPLAY_SAMPLES_STORE, else $XDG_CACHE_HOME/notiplay/samples, else ~/.cache/notiplay/samples.
var types = ExtensionTypes()
let samples = Samples.Configuration(
    reminderStoreFolder: NotiplayCLI.cacheFolder("samples", overriddenBy: "NOTIPLAY_SAMPLES_STORE"))
Samples.register(in: &types, configuration: samples)
// They are notiplay's own, not the user's: no warning when a payload is delivered without them.
NotiplayCLI.sampleTypeNames = Set(Samples.typeNames)
await NotiplayCLI.main(types: types)
