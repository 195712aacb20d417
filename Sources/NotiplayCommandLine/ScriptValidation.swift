import NotiplayCore
import NotiplayScript
import NotiplaySystem
import SystemPackage

/// `notiplay validate` for `*.playback` files: the script must parse, and every file it names
/// (the app file, the extensions folder, payloads and attachments of `deliver` and `send`) must
/// be there.
enum ScriptValidation {
    /// Whether `validate` judges `path` as a playback script (by its name).
    static func isScript(_ path: String) -> Bool {
        var name = Substring(path)
        while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
        return name.hasSuffix(".playback")
    }

    /// The verdict on the script at `path`. Details: `steps`, the number of steps (null when the
    /// script does not parse).
    static func validate(_ path: String) -> ValidationResult {
        var details = JSONObject()
        details["steps"] = .null
        let script: PlaybackScript
        do {
            script = try ScriptParser.parse(contentsOf: path)
        } catch {
            let diagnostic =
                error.line > 0
                ? Diagnostic(line: error.line, column: error.column, error.message)
                : Diagnostic(key: nil, error.message)
            return ValidationResult(
                file: path, kind: .script, errors: [diagnostic], warnings: [],
                isMissing: error.line == 0 && !path.isEmpty && !exists(path), details: details)
        }
        details["steps"] = .integer(Int64(script.steps.count))
        var errors: [Diagnostic] = []
        for step in script.steps {
            func check(_ file: String, _ what: String, folder: Bool = false) {
                if let problem = problem(file, folder: folder) {
                    errors.append(Diagnostic(line: step.line, column: step.column, "\(what) \(file): \(problem)"))
                }
            }
            switch step.kind {
            case .app(let file):
                check(file, "app file")
            case .extensions(let directory):
                check(directory, "extensions folder", folder: true)
            case .deliver(let payload, let attachments), .send(let payload, let attachments, _, _):
                check(payload, "payload")
                for attachment in attachments { check(attachment, "attachment") }
            default:
                break
            }
        }
        return ValidationResult(file: path, kind: .script, errors: errors, warnings: [], isMissing: false, details: details)
    }

    /// What is wrong with `path` as a file (or as a folder when `folder`), or nil.
    static func problem(_ path: String, folder: Bool) -> String? {
        let isFolder: Bool
        do {
            isFolder = try Posix.status(of: path).type == .directory
        } catch {
            if error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory {
                return folder ? "no such folder" : "no such file"
            }
            return "cannot be read: " + error.reason
        }
        if folder, !isFolder { return "is not a folder" }
        if !folder, isFolder { return "is a folder, not a file" }
        return nil
    }

    static func exists(_ path: String) -> Bool {
        Path.exists(path)
    }
}
