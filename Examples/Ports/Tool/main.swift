import NotiplayCommandLine
import PhotoContent
import RingtoneContent

// `ports` is the whole `notiplay` command line, under its own name, with the ports' extension
// types registered, so that their `.playback` scripts run as an author's would:
//
//   .build/debug/ports test Ringtone/Scripts/play.playback
var types = ExtensionTypes()
RingtoneExtensions.register(in: &types)
PhotoExtensions.register(in: &types)
await NotiplayCLI.main(types: types)
