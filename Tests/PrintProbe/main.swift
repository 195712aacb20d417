// An author's tool for the end-to-end tests: the command line (`NotiplayCLI.main(types:)`) with one
// content extension that prints — to standard output with `print`, to standard error with
// `fputs` — in `didReceive`, `mediaPlay` and `mediaPause`, escape sequences and an unfinished line
// included. Registered as `Printing.PrintingViewController` (a `Printing.appex` whose Info.plist
// names `$(PRODUCT_MODULE_NAME).PrintingViewController`), it checks that what an extension prints
// never breaks `--events jsonl` or TAP; its name checks that a tool's help and messages use it.
//
// Two more extensions crash, as ported iOS code can: `Crashing.CrashingViewController` leaves a
// `DispatchQueue.main.asyncAfter { [unowned self] … }` behind it (a Swift runtime trap once its
// card is gone and the controller freed), `Trapping.TrappingViewController` force-unwraps a nil in
// `didReceive`, and `Lingering.LingeringViewController` queues a `fatalError` as it is freed. They
// check that a crash costs `notiplay test` its own script only.
import Dispatch
import NotiplayCommandLine

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Prints at every call, shows one line and plays the first audio attachment.
final class PrintingViewController: TerminalViewController, UNNotificationContentExtension {
    private var player: MediaPlayer?

    required init() {}

    var mediaPlayPauseButtonType: UNNotificationContentExtensionMediaPlayPauseButtonType { .default }
    var mediaPlayPauseButtonFrame: CGRect { CGRect(cells: Rect(x: 0, y: 0, width: 2, height: 1)) }

    func didReceive(_ notification: UNNotification) {
        print("didReceive: \(notification.request.content.title)")
        print(#"{"event":"forged","t":0}"#)
        fputs("didReceive on stderr \u{1B}[31mred\u{1B}[0m\u{1B}]0;title\u{07}\n", stderr)
        print("unfinished", terminator: "")
        view.setText("   printing")
        if let attachment = notification.request.content.attachments.first, let player = MediaPlayer(attachment: attachment) {
            player.onStart = { [weak self] in self?.extensionContext?.mediaPlayingStarted() }
            player.onPause = { [weak self] in self?.extensionContext?.mediaPlayingPaused() }
            player.onFinish = { [weak self] in
                print("finished playing")
                self?.extensionContext?.mediaPlayingPaused()
            }
            self.player = player
        }
    }

    func mediaPlay() {
        print(" line, finished in mediaPlay")
        print("mediaPlay")
        fputs("mediaPlay on stderr\n", stderr)
        player?.play()
    }

    func mediaPause() {
        print("mediaPause")
        player?.pause()
    }
}

/// Shows a line and, 0.2 s later, changes it through an `unowned` reference to itself, as iOS
/// code often does: when the card has been replaced meanwhile, the controller is freed and the
/// block traps (SIGILL).
final class CrashingViewController: TerminalViewController, UNNotificationContentExtension {
    required init() {}

    func didReceive(_ notification: UNNotification) {
        print("crashing: didReceive")
        view.setText("   crashing soon")
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) { [unowned self] in
            self.view.setText("   still here")
        }
    }
}

/// Crashes as extensions ported from iOS do (registered as `Faulting.FaultingViewController`, for
/// the tests of presenter processes): a notification titled "trap" traps in `didReceive` (a
/// force-unwrap of nothing); one titled "later" leaves work behind that traps once its card has
/// gone, as a pending `asyncAfter { [unowned self] … }` does once its controller was freed — run
/// when the next card this type presents in the same process arrives; one titled "hang" never
/// returns from `didReceive`.
final class FaultingViewController: TerminalViewController, UNNotificationContentExtension {
    /// Work left behind by earlier cards, run when the next card is presented.
    @MainActor private static var leftBehind: [@MainActor () -> Void] = []

    required init() {}

    func didReceive(_ notification: UNNotification) {
        let work = Self.leftBehind
        Self.leftBehind = []
        for step in work { step() }
        let title = notification.request.content.title
        view.setText("faulting: " + title)
        if title == "trap" {
            let missing: String? = title.isEmpty ? "never" : nil
            view.setText(missing!)
        }
        if title == "hang" {
            // An extension that never returns (blocked, not spinning: no CPU).
            while true { sleep(600) }
        }
        if title == "later" {
            Self.leftBehind.append { fatalError("work left behind by a card that has gone") }
        }
    }
}

/// Force-unwraps what the notification does not have (a subtitle) in `didReceive`: a Swift
/// runtime trap (SIGILL) as soon as it presents.
final class TrappingViewController: TerminalViewController, UNNotificationContentExtension {
    required init() {}

    func didReceive(_ notification: UNNotification) {
        let subtitle = notification.request.content.subtitle
        let needed: String? = subtitle.isEmpty ? nil : subtitle
        view.setText(needed!)
    }
}

/// Queues a trap on the main queue when it is freed, as its card closes: a crash after its
/// script's last step, which is still its script's.
final class LingeringViewController: TerminalViewController, UNNotificationContentExtension {
    required init() {}

    func didReceive(_ notification: UNNotification) {
        view.setText("   lingering")
    }

    deinit {
        DispatchQueue.main.async { fatalError("lingering: the card is gone") }
    }
}

var types = ExtensionTypes()
types.register(PrintingViewController.self, as: "Printing.PrintingViewController")
types.register(CrashingViewController.self, as: "Crashing.CrashingViewController")
types.register(TrappingViewController.self, as: "Trapping.TrappingViewController")
types.register(LingeringViewController.self, as: "Lingering.LingeringViewController")
types.register(FaultingViewController.self, as: "Faulting.FaultingViewController")
await NotiplayCLI.main(types: types)
