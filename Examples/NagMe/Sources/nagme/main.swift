import NagMe
import NotiplayCommandLine

// `nagme` behaves exactly like `notiplay`, under its own name (its help, usage and messages say
// `nagme`), with NagMe's extension type registered by the NagMe module itself
// (`NagMeExtensions.register(in:)`, under the name its Info.plist gives).
var types = ExtensionTypes()
NagMeExtensions.register(in: &types)
await NotiplayCLI.main(types: types)
