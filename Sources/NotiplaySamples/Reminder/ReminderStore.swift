#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import SystemPackage

/// A reminder as the store keeps it (seed 000's Core Data `Reminder` entity).
struct ReminderRecord: Codable, Equatable, Sendable {
    /// The `reminder-uuid` of its notifications.
    var identifier: String
    var title: String
    /// Seconds since 1970, UTC.
    var dueDate: Double?
    var isCompleted: Bool
}

/// Why the store could not be read or written, for the card.
struct ReminderStoreError: Error, Equatable, CustomStringConvertible {
    let description: String
}

/// The Reminder sample's persistent store: one small JSON file, `reminders.json`, in a folder of
/// its own — never next to the payload. It stands in for seed 000's Core Data store in the app
/// group, which the app and its extension share.
///
/// The folder is the one the tool that registers the samples gives
/// (``Samples/Configuration/reminderStoreFolder``). Every save reads the file again and replaces
/// it atomically, so two cards of different reminders do not undo each other's changes.
struct ReminderStore: Sendable, Equatable {
    /// The folder holding `reminders.json`.
    let folder: String

    /// The file the reminders are in.
    var file: String { folder.hasSuffix("/") ? folder + "reminders.json" : folder + "/reminders.json" }

    /// The largest store file read.
    static let sizeLimit = 1 << 20

    /// The store in `folder`, or why there is none.
    static func locate(_ folder: String?) -> Result<ReminderStore, ReminderStoreError> {
        guard let folder, !folder.isEmpty else {
            return .failure(ReminderStoreError(description: "no folder for the store was given"))
        }
        return .success(ReminderStore(folder: folder))
    }

    private struct Contents: Codable {
        var version = 1
        var reminders: [String: ReminderRecord] = [:]
    }

    /// Every reminder in the store; none when the file does not exist yet.
    func load() throws(ReminderStoreError) -> [String: ReminderRecord] {
        try read().reminders
    }

    /// The reminder with this identifier, if the store has it.
    func reminder(_ identifier: String) throws(ReminderStoreError) -> ReminderRecord? {
        try load()[identifier]
    }

    /// Saves `record`, keeping every other reminder in the file.
    func save(_ record: ReminderRecord) throws(ReminderStoreError) {
        var contents = try read()
        contents.reminders[record.identifier] = record
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            data = try encoder.encode(contents)
        } catch {
            throw ReminderStoreError(description: "cannot encode the reminders: \(error)")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw ReminderStoreError(description: "cannot write \(file): \(Self.reason(error))")
        }
    }

    private func read() throws(ReminderStoreError) -> Contents {
        guard FileManager.default.fileExists(atPath: file) else { return Contents() }
        let status: Stat
        do {
            status = try FilePath(file).stat()
        } catch {
            throw ReminderStoreError(description: "cannot read \(file): \(error)")
        }
        guard Int(status.size) <= Self.sizeLimit else {
            throw ReminderStoreError(description: "\(file) is larger than \(Self.sizeLimit) bytes; not read")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ReminderStoreError(description: "cannot read \(file): \(Self.reason(error))")
        }
        do {
            return try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            throw ReminderStoreError(description: "\(file) is not a reminder store (remove it to start afresh); left as it is")
        }
    }

    /// A short reason from a file error.
    private static func reason(_ error: any Error) -> String {
        let text = "\(error)"
        return text.count > 120 ? String(text.prefix(120)) + "…" : text
    }
}
