import NotiplayCore

extension NotificationDelivery {
    /// The attachments a notification is delivered with.
    package enum Attachments: Sendable {
        /// Attachments validated already.
        case validated([UNNotificationAttachment])
        /// Files a person named (`deliver --attach`), in order: each is validated with
        /// `AttachmentValidator`'s default limits and named after its file; the first one refused
        /// stops the delivery.
        case files([String])
        /// Files a store kept, each with the identifier it was attached under: each is validated
        /// again, and one that is no longer valid is left out.
        case stored([(path: String, identifier: String)])

        /// The attachments, validated.
        /// - Throws: ``Failure/attachment(_:)`` for the first of ``files(_:)`` refused.
        func validated() throws(Failure) -> [UNNotificationAttachment] {
            let validator = AttachmentValidator()
            switch self {
            case .validated(let attachments):
                return attachments
            case .files(let paths):
                var attachments: [UNNotificationAttachment] = []
                for path in paths {
                    do { attachments.append(try validator.validate(path)) } catch { throw .attachment(error) }
                }
                return attachments
            case .stored(let files):
                return files.compactMap { file in try? validator.validate(file.path, identifier: file.identifier) }
            }
        }
    }

    /// Why a notification could not be decoded for delivery.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The payload file is missing or unreadable, or not a valid payload.
        case payloadFile(InvalidFileError)
        /// The payload bytes are not a valid payload.
        case payload(PayloadError)
        /// An attachment file was refused.
        case attachment(NotiplayError)

        /// The same failure as a ``NotiplayError``: the file's, the attachment's, or bad data
        /// listing the payload's problems.
        package var notiplayError: NotiplayError {
            switch self {
            case .payloadFile(let error): error.notiplayError
            case .payload(let error): NotiplayError(.badData, error.errors.map(\.description).joined(separator: "; "))
            case .attachment(let error): error
            }
        }

        /// What ``notiplayError`` says.
        package var description: String { notiplayError.description }
    }
}
