import ArgumentParser
internal import FoundationEssentials
import NotiplayCenter
import NotiplayCore
import NotiplaySystem
import SystemPackage
import NotiplayCenterClient

/// `notiplay send`: hands a notification to the running center.
struct SendCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "send",
            abstract: "Send a notification to the running center (\(NotiplayCLI.commandName) serve).",
            discussion: """
                The payload and attachments are checked here first, with validate's errors and exit \
                statuses; the attachments' bytes travel with the request, so the files may go once \
                send returns. A payload of - is read from standard input (as a payload file: at most \
                1 MiB, 65 when it is not a valid payload); a pipe named as a file (/dev/stdin, <(command)) \
                is read too. Exits 0 only once the server has stored the notification durably; 69 \
                when no server runs, 73 or 74 when its store cannot keep it. With --wait, prints the \
                response (the action chosen, or the dismissal) as JSON when it comes. \
                With --after or --at it is scheduled: pending until then (it survives a restart of the \
                server; one missed while the server was down is delivered, late, when it is back). \
                --repeat with --after repeats the interval (at least 60 s, as on iOS); with --at, \
                hourly, daily, weekly, monthly or yearly keeps the date's minute, time, weekday and \
                time, day and time, or month, day and time. An interval of 0 or less, a date in the \
                past and a repeating interval under 60 s exit 65; an app the server denies, 77.
                """)
    }

    @Argument(
        help: ArgumentHelp("The notification: an APNs payload (JSON) file, or - for standard input.", valueName: "payload"),
        completion: .file())
    var payload: String

    @Option(help: ArgumentHelp("Attach a local file (audio or image); repeatable.", valueName: "file"), completion: .file())
    var attach: [String] = []

    @Option(help: ArgumentHelp("The app it comes from, by name (default: notiplay).", valueName: "name"))
    var app = AppDefinition.standard.name

    @Option(help: ArgumentHelp("Its identifier (default: a new UUID); the same identifier replaces.", valueName: "id"))
    var id: String?

    @Flag(help: "Wait for the response and print it as JSON.")
    var wait = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Deliver it after this long: 30s, 5m, 1h30m, 1d (at most 3650d).", valueName: "duration"))
    var after: DurationArgument?

    @Option(help: ArgumentHelp("Deliver it at this local date and time.", valueName: "YYYY-MM-DDTHH:MM[:SS]"))
    var at: LocalDateArgument?

    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp(
            "Repeat: with --after, `interval`; with --at, hourly, daily, weekly, monthly or yearly.", valueName: "form"))
    var repeatForm: String?

    func validate() throws {
        if id?.isEmpty == true { throw ValidationError("--id is empty: give an identifier, or leave --id out for a new UUID") }
        if after != nil && at != nil { throw ValidationError("give --after or --at, not both") }
        if let after, after.seconds > PendingSchedule.horizon {
            throw ValidationError("--after is at most \(PendingSchedule.horizonText): nothing is scheduled further ahead")
        }
        if let form = repeatForm {
            if after != nil && form != "interval" { throw ValidationError("--repeat with --after is `interval`") }
            if at != nil && RepeatForm(rawValue: form) == nil {
                throw ValidationError("--repeat with --at is hourly, daily, weekly, monthly or yearly")
            }
            if after == nil && at == nil { throw ValidationError("--repeat needs --after or --at") }
        }
    }

    /// The trigger --after, --at and --repeat ask for, or `nil` for now; Apple's refusals and a
    /// date in the past are usage of bad data (65).
    func trigger() throws -> TriggerSpec? {
        if let after {
            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: after.seconds, repeats: repeatForm != nil)
            if let problem = trigger.problem { throw NotiplayError(.badData, file: "--after", problem) }
            return TriggerSpec(type: "timeInterval", timeInterval: after.seconds, repeats: repeatForm != nil)
        }
        guard let at else { return nil }
        let components = repeatForm.flatMap(RepeatForm.init(rawValue:))?.components(of: at) ?? at.components
        if repeatForm == nil, let date = at.date, date <= Date() {
            throw NotiplayError(.badData, file: "--at", "the date is in the past: the notification would never be delivered")
        }
        var named: [String: Int] = [:]
        for (name, key) in [
            ("year", Calendar.Component.year), ("month", .month), ("day", .day), ("hour", .hour), ("minute", .minute),
            ("second", .second), ("weekday", .weekday),
        ] {
            if let value = components.value(for: key) { named[name] = value }
        }
        return TriggerSpec(type: "calendar", dateComponents: named, repeats: repeatForm != nil)
    }

    /// The payload argument that stands for standard input.
    static let standardInputArgument = "-"

    /// The payload as messages name it: `standard input` for `-`, else the path.
    var payloadName: String { payload == Self.standardInputArgument ? "standard input" : TerminalText.visible(payload) }

    /// The payload's bytes, checked as `validate` checks a file: from standard input for `-`,
    /// else from the file (a pipe the user names, such as `/dev/stdin`, too). Both are read to
    /// their end or refused past ``PayloadDecoder/fileCap``.
    func payloadBytes() throws -> [UInt8] {
        let decoder = PayloadDecoder()
        do {
            guard payload == Self.standardInputArgument else {
                return try decoder.decodeFileKeepingBytes(payload, acceptingPipes: true).bytes
            }
            let bytes: [UInt8]
            do {
                bytes = try Posix.readToEnd(.standardInput, limit: PayloadDecoder.fileCap)
            } catch {
                throw NotiplayError(.badData, file: "standard input", "cannot be read: \(error.reason)")
            }
            _ = try decoder.decodeStream(bytes, from: "standard input")
            return bytes
        } catch let error as InvalidFileError {
            // No hint: send has no option that lifts a payload's limit (the center keeps APNs' 4096 bytes).
            throw error.notiplayError
        }
    }

    func run() throws {
        let text = String(decoding: try payloadBytes(), as: UTF8.self)
        let validator = AttachmentValidator()
        var uploads: [AttachmentUpload] = []
        for file in attach {
            let attachment = try validator.validate(file)
            let kind: AttachmentUpload.Kind
            if case .audio = attachment.kind { kind = .audio } else { kind = .image }
            uploads.append(AttachmentUpload(name: Path.lastComponent(file), kind: kind, data: Data(try Self.readBytes(file))))
        }
        let operation = SendOperation(
            payload: text, app: app, identifier: id, attachments: uploads, wait: wait, trigger: try trigger())
        let client = try CenterPlaces.connect()
        defer { client.close() }
        do {
            let reply = try client.perform(operation)
            if let next = reply.nextDate, !wait {
                _ = try? FileDescriptor.standardOutput.writeAll("pending \(reply.identifier) \(LocalDateText.text(next))\n".utf8)
            }
        } catch {
            if case .failed(let failure) = error {
                Diagnostics.shared.report("\(payloadName): \(failure.message)")
                throw ExitCode(CenterPlaces.status(of: failure))
            }
            throw error.notiplayError
        }
        guard wait else { return }
        let event: CenterEvent
        do { event = try client.nextEvent() } catch { throw error.notiplayError }
        if case .response(let response) = event {
            _ = try? FileDescriptor.standardOutput.writeAll((Self.json(response) + "\n").utf8)
        }
    }

    /// `{"identifier":…,"action":…}`, with `"text"` when an action took typed text.
    static func json(_ response: ResponseEvent) -> String {
        var json = "{\"identifier\":"
        JSONWriter.appendString(response.identifier, to: &json)
        json += ",\"action\":"
        JSONWriter.appendString(response.action, to: &json)
        if let text = response.text {
            json += ",\"text\":"
            JSONWriter.appendString(text, to: &json)
        }
        return json + "}"
    }

    static func readBytes(_ path: String) throws -> [UInt8] {
        do {
            let fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
            defer { try? fd.close() }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
                if count == 0 { break }
                bytes += chunk[0..<count]
            }
            return bytes
        } catch {
            throw NotiplayError(.missingInput, file: path, "cannot be read: \(error)")
        }
    }
}

/// `notiplay list`: the center's pending and delivered notifications.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the running center's pending and delivered notifications.")

    @Flag(help: "Only those waiting for their time.") var pending = false
    @Flag(help: "Only those delivered.") var delivered = false
    @Flag(help: "One JSON array instead of lines.") var json = false

    func run() throws {
        let state: NotificationState? = pending ? .pending : delivered ? .delivered : nil
        let reply = try CenterPlaces.perform(ListOperation(state: state))
        try CenterOutput.write(reply.notifications, json: json)
    }
}

/// `notiplay remove`: removes notifications from the center; a shown card closes.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove notifications from the running center (a shown card closes).",
        discussion: """
            Prints the identifiers removed, a line each. An identifier that names no pending or \
            delivered notification is reported on standard error; remove exits 66 when none of \
            those given did, 0 when one was removed. --all with nothing to remove exits 0.
            """)

    @Argument(help: ArgumentHelp("Identifiers of the notifications.", valueName: "id")) var ids: [String] = []
    @Flag(help: "Remove every pending and delivered notification.") var all = false

    func validate() throws {
        if all == !ids.isEmpty { throw ValidationError("give identifiers or --all, not both or neither") }
    }

    func run() throws {
        let reply = try CenterPlaces.perform(RemoveOperation(all ? .all : .identifiers(ids)))
        let text = reply.removed.map { TerminalText.clean($0) + "\n" }.joined()
        _ = try? FileDescriptor.standardOutput.writeAll(text.utf8)
        guard !all else { return }
        let removed = Set(reply.removed)
        var told: Set<String> = []
        for id in ids where !removed.contains(id) && told.insert(id).inserted {
            Diagnostics.shared.report("\(TerminalText.visible(id)): no pending or delivered notification has that identifier")
        }
        if reply.removed.isEmpty { throw ExitCode(ExitStatus.missingInput) }
    }
}

/// `notiplay history`: what the center received, newest first, read from its store (a server
/// need not run).
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "What the center received, newest first (dismissed and removed too).",
        discussion: """
            Read from the store ($XDG_STATE_HOME/notiplay, else ~/.local/state/notiplay), with or \
            without a running server. --json prints each stored notification whole: its payload, \
            attachments (with their SHA-256), states and times, and the response it got.
            """)

    @Option(help: ArgumentHelp("How many (default 100).", valueName: "n")) var limit = 100
    @Flag(help: "One JSON array of the stored notifications instead of lines.") var json = false

    func run() throws {
        let limit = max(1, limit)
        do {
            guard let store = try CenterStore.openForReading(folder: CenterPlaces.storeFolder) else {
                if json { _ = try? FileDescriptor.standardOutput.writeAll("[]\n".utf8) }
                return
            }
            if json {
                // Into a pipe, 1 MiB at a time rather than the default 64 KiB: 192 -> 139 ms for
                // 100,000 notifications read by another process (bench-center.py).
                if (try? Posix.status(of: FileDescriptor.standardOutput).type) == .fifo {
                    try? Posix.setPipeSize(FileDescriptor.standardOutput, 1 << 20)
                }
                try store.writeHistoryJSON(limit: limit) { chunk in
                    _ = try FileDescriptor.standardOutput.writeAll(chunk)
                }
                _ = try FileDescriptor.standardOutput.writeAll("\n".utf8)
            } else {
                let lines = try store.history(limit: limit).map { stored in
                    let alert = (try? PayloadDecoder(sizeLimit: nil).decode(Array(stored.payload.utf8)))?.content
                    let title = alert.map { $0.title.isEmpty ? $0.body : $0.title } ?? ""
                    // A notification missed while the server was down says so.
                    let state = stored.isLate ? stored.state.rawValue + " (late)" : stored.state.rawValue
                    return [stored.identifier, state, stored.app, title]
                        .map { TerminalText.clean($0) }.joined(separator: "  ") + "\n"
                }
                _ = try FileDescriptor.standardOutput.writeAll(lines.joined().utf8)
            }
        } catch let error as CenterStoreError {
            Diagnostics.shared.report(error.description)
            throw ExitCode(CenterPlaces.status(of: error))
        } catch let error as Errno where error == .brokenPipe {
            return
        }
    }
}

/// How `list` and `history` print notifications.
enum CenterOutput {
    static func write(_ notifications: [NotificationSummary], json: Bool) throws {
        let text: String
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            text = JSONWriter.escapingUnsafeScalars(String(decoding: try encoder.encode(notifications), as: UTF8.self)) + "\n"
        } else {
            text = notifications.map { summary in
                let title = summary.title ?? summary.body ?? ""
                return [summary.identifier, summary.state.rawValue, summary.app, title]
                    .map { TerminalText.clean($0) }.joined(separator: "  ") + "\n"
            }.joined()
        }
        _ = try? FileDescriptor.standardOutput.writeAll(text.utf8)
    }
}
