import GRDB

/// What a service extension made of a notification, kept in place of what arrived.
extension CenterStore {
    /// Replaces live notification `sequence`'s payload, thread, category and attachments (all of
    /// them, in this order) in one transaction, the files first, as ``add(_:)`` stores them. Its
    /// identifier, state and times stay.
    /// - Returns: The notification as stored now; `nil` when it is no longer live (removed or
    ///   replaced meanwhile): nothing is changed then.
    /// - Throws: ``CenterStoreError`` as ``add(_:)`` does; nothing is changed.
    @discardableResult
    public func revise(
        _ sequence: Int64, payload: String, threadIdentifier: String?, categoryIdentifier: String?,
        attachments incoming: [IncomingAttachment]
    ) throws(CenterStoreError) -> StoredNotification? {
        try checkJSON(payload, objectOnly: true, "the revised payload of notification \(sequence)")
        var written: AttachmentFolder.Written?
        let revised = try write(undo: { if let written { attachments.discard(written) } }) { db -> Bool in
            // The write lock is held from here: no removal comes between this check and the commit.
            let live = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM notification WHERE sequence = ? AND state IN ('pending', 'delivered')",
                arguments: [sequence]) ?? false
            guard live else { return false }
            let files = try attachments.write(incoming)
            written = files
            try db.execute(
                sql: "UPDATE notification SET payload = ?, threadIdentifier = ?, categoryIdentifier = ? WHERE sequence = ?",
                arguments: [payload, threadIdentifier, categoryIdentifier, sequence])
            try db.execute(sql: "DELETE FROM attachment WHERE notification = ?", arguments: [sequence])
            for (position, (attachment, digest)) in zip(incoming, files.digests).enumerated() {
                try db.execute(
                    sql: "INSERT INTO attachment (notification, position, name, kind, sha256, byteCount) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [sequence, position, attachment.name, attachment.kind, digest, attachment.bytes.count])
            }
            return true
        }
        guard revised else { return nil }
        return try notification(sequence: sequence)
    }
}
