#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Notiplay
import NotiplayCenter
import NotiplayCore
import NotiplayPlayback
import NotiplayTesting

/// The center of a script's `serve`: notiplay's center, headless, on a virtual clock, with a
/// store of its own in a temporary folder; arrival sounds on an untimed null engine.
@MainActor
final class CenterScriptHost: ScriptCenter {
    private let setup: ScriptCenterSetup
    private let folder: String
    private let time: CenterTime
    let engine: MPVEngine
    private let soundEngine: MPVEngine
    private var service: CenterService
    private var delivered: [String: [Bool]] = [:]
    private var lateFiring: Set<String> = []
    private(set) var sounds: [ScriptSound] = []

    init(_ setup: ScriptCenterSetup) throws {
        self.setup = setup
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notiplay-center-\(UUID().uuidString)").path
        time = .virtual(startingAt: setup.start)
        engine = try MPVEngine(output: .null(untimed: setup.untimed))
        soundEngine = try MPVEngine(output: .null(untimed: true))
        service = try Self.start(setup, folder: folder, time: time, engine: engine, soundEngine: soundEngine)
        observe()
        try service.restore()
    }

    private static func start(
        _ setup: ScriptCenterSetup, folder: String, time: CenterTime, engine: MPVEngine, soundEngine: MPVEngine
    ) throws -> CenterService {
        let apps = try ServeApps.load(files: setup.apps)
        let store = try CenterStore.open(folder: folder + "/store", now: { time.now })
        let service = CenterService(store: store, apps: apps, types: setup.types, engine: engine, time: time)
        let folders = Dictionary(apps.map { ($0.definition.name, $0.soundsFolder) }, uniquingKeysWith: { first, _ in first })
        // The default sound is the project's own chime: what a script hears does not depend on
        // the machine's sound theme.
        let resolver = ArrivalSoundResolver(dataDirectories: [], chimeFolder: folder, soundsFolder: { folders[$0] ?? nil })
        service.arrivalSounds = ArrivalSoundPlayer(engine: soundEngine, resolver: resolver)
        return service
    }

    private func observe() {
        service.observe { [weak self] event in
            guard let self else { return }
            switch event {
            case .fired(let identifier, let late):
                if late { lateFiring.insert(identifier) }
            case .arrived(let identifier, _, _):
                delivered[identifier, default: []].append(lateFiring.remove(identifier) != nil)
            case .sound(.played(let identifier, let name, _, _)):
                sounds.append(ScriptSound(identifier: identifier, name: name, queued: false))
            case .sound(.queued(let identifier, let name, _)):
                sounds.append(ScriptSound(identifier: identifier, name: name, queued: true))
            default:
                break
            }
        }
    }

    func send(payload: String, attachments: [String], identifier: String?, trigger: (any UNNotificationTrigger)?) throws -> String {
        let bytes = try PayloadDecoder().decodeFileKeepingBytes(payload).bytes
        let content = try PayloadDecoder(sizeLimit: nil).decode(bytes).content
        var files: [IncomingAttachment] = []
        for path in attachments {
            let attachment = try AttachmentValidator().validate(path)
            files.append(IncomingAttachment(name: Path.lastComponent(path), kind: attachment.type, bytes: try SendCommand.readBytes(path)))
        }
        let incoming = IncomingNotification(
            identifier: identifier ?? Self.name(of: payload), app: AppDefinition.standard.name,
            payload: String(decoding: bytes, as: UTF8.self),
            threadIdentifier: content.threadIdentifier.isEmpty ? nil : content.threadIdentifier,
            categoryIdentifier: content.categoryIdentifier.isEmpty ? nil : content.categoryIdentifier,
            trigger: trigger.flatMap(TriggerJSON.encode), attachments: files)
        var app = incoming
        // The script's app when it gave one (the first app file), else the built-in one.
        if let name = service.appNames.first(where: { $0 != AppDefinition.standard.name }) { app.app = name }
        return try service.receive(app).identifier
    }

    /// A file's name without its folder and extension, as `deliver` names a notification.
    static func name(of path: String) -> String {
        let file = Path.lastComponent(path)
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    func advance(by seconds: Double) {
        _ = service.advance(by: seconds)
    }

    func restart(after seconds: Double) async throws {
        await service.close()
        time.move(to: time.now.addingTimeInterval(seconds))
        service = try Self.start(setup, folder: folder, time: time, engine: engine, soundEngine: soundEngine)
        observe()
        try service.restore()
    }

    func setFocus(_ on: Bool) { service.setFocus(on) }

    func settle() async {
        // A card the script dismissed gives way now, as the center would once the step's work
        // lets it run (the center sees the dismissal on the main actor, after the step).
        service.shownCardDismissed()
        await service.serviceStagesFinished()
        await service.arrivalSounds?.settle()
    }

    var pendingCount: Int { service.pendingCount }

    func deliveries(of identifier: String) -> [Bool] { delivered[identifier] ?? [] }

    var shownSession: PresentationSession? {
        // What shows once a dismissed card has given way (see settle()).
        service.shownCardDismissed()
        // A script's center presents in this process (it starts no presenters).
        return service.shownSession as? PresentationSession
    }

    func close() async {
        await service.close()
        await engine.shutdown()
        await soundEngine.shutdown()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
