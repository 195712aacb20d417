import Dispatch
import GRDB

/// `history --json`: the history written as JSON straight from the database, by two readers at
/// once when it is long.
extension CenterStore {
    /// Writes the history, newest first and at most `limit` notifications, as the JSON array
    /// ``StoredNotification/jsonArray(_:)`` makes of ``history(limit:)`` (the same bytes), to
    /// `write` in chunks of about `chunkSize` bytes.
    ///
    /// Faster than reading the notifications first: each row's text goes from SQLite's memory to
    /// the output without becoming a `String`, and no array of them is made. From 8,192
    /// notifications on, two readers on two threads each write half of the segments (about 16)
    /// while this thread writes them out in order; both read the same snapshot of the database
    /// (when another process writes between their two starts, one reader does it all). `write`
    /// is only called on this thread.
    /// - Parameters:
    ///   - limit: At most how many notifications.
    ///   - chunkSize: About how many bytes to hand on at a time.
    ///   - write: Takes each chunk; the bytes are valid only during the call.
    /// - Throws: What `write` throws, as it threw it; otherwise a ``CenterStoreError``.
    public func writeHistoryJSON(
        limit: Int, chunkSize: Int = 1 << 20, to write: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        _ = try writeHistoryJSON(limit: limit, chunkSize: chunkSize, reading: HistoryReadOptions(), to: write)
    }

    /// How ``writeHistoryJSON(limit:chunkSize:reading:to:)`` splits its work (tests make small
    /// histories split).
    package struct HistoryReadOptions: Sendable {
        /// From which `limit` two readers are used.
        package var twoReadersFrom = 8192
        /// Into how many segments a history read by two readers is cut (by sequence number).
        package var segments = 16
        /// Called after the second reader has taken the database's version and before the first
        /// reader starts: a test commits a change here, to see one reader do it all.
        package var beforeFirstRead: (@Sendable () -> Void)?

        /// The defaults, or other numbers.
        package init(twoReadersFrom: Int = 8192, segments: Int = 16, beforeFirstRead: (@Sendable () -> Void)? = nil) {
            self.twoReadersFrom = twoReadersFrom
            self.segments = segments
            self.beforeFirstRead = beforeFirstRead
        }
    }

    /// Who read the history.
    package enum HistoryReaders: Equatable, Sendable {
        /// One reader (a short history, or a short `limit`).
        case one
        /// Two readers, on one snapshot.
        case two
        /// One reader, because another connection wrote between the two readers' starts.
        case oneAfterAWrite
    }

    /// ``writeHistoryJSON(limit:chunkSize:to:)`` with its split set by `reading`.
    /// - Returns: Who read it.
    package func writeHistoryJSON(
        limit: Int, chunkSize: Int, reading: HistoryReadOptions, to write: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> HistoryReaders {
        let limit = max(0, limit)
        guard limit >= reading.twoReadersFrom, reading.segments > 1 else {
            try writeWithOneReader(limit: limit, chunkSize: chunkSize, to: write)
            return .one
        }
        return try writeWithTwoReaders(limit: limit, chunkSize: chunkSize, reading: reading, to: write)
    }

    private func writeWithOneReader(limit: Int, chunkSize: Int, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        let file = databasePath
        do {
            // The writer keeps its sink only while this call lasts.
            try withoutActuallyEscaping(write) { write in
                try pool.read { db in
                    var array = JSONArrayWriter(chunkSize: chunkSize, sink: write)
                    if let range = try Self.historyRange(db, limit: limit) {
                        try writeHistoryElements(range, db: db, file: file, into: &array)
                    }
                    try array.finish()
                }
            }
        } catch let error as JSONSinkError {
            throw error.underlying
        } catch {
            throw CenterStoreError(database: error, file: file)
        }
    }

    /// The plan the first reader makes in its snapshot.
    private enum Plan: Sendable {
        case segments(HistorySegments, [ClosedRange<Int64>])
        case failed(any Error)
    }

    private func writeWithTwoReaders(
        limit: Int, chunkSize: Int, reading: HistoryReadOptions, to write: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> HistoryReaders {
        let (pool, file) = (self.pool, databasePath)
        let looked = OneShot<Bool>()  // the second reader took the version (or gave up)
        let plan = OneShot<Plan>()
        let sameSnapshot = OneShot<Bool>()
        let done = DispatchGroup()

        // Serial queues of their own: libdispatch gives each a thread even when the pool is busy,
        // and the first reader waits for the second.
        DispatchQueue(label: "notiplay.history.first").async(group: done) {
            do {
                // The connection is opened while the second reader opens its own; the snapshot
                // starts at the first statement inside the transaction, after the second looked.
                try pool.unsafeRead { db in
                    _ = looked.wait()
                    reading.beforeFirstRead?()
                    try db.inTransaction(.deferred) {
                        let range = try Self.historyRange(db, limit: limit)
                        let ranges = range.map { Self.segments(of: $0, count: reading.segments) } ?? []
                        let segments = HistorySegments(count: ranges.count, chunkSize: min(chunkSize, 256 << 10))
                        plan.put(.segments(segments, ranges))
                        if ranges.count > 1 { _ = sameSnapshot.wait() }
                        Self.writeSegments(segments, ranges, db: db, file: file)
                        return .commit
                    }
                }
            } catch {
                plan.put(.failed(error))
                if case .segments(let segments, _) = plan.wait() { segments.fail(error) }
            }
        }
        DispatchQueue(label: "notiplay.history.second").async(group: done) {
            // On any way out, the first reader goes on alone.
            defer {
                looked.put(false)
                sameSnapshot.put(false)
            }
            try? pool.unsafeRead { db in
                // "Different if changes were committed to the database by any other connection in
                // the interim" (SQLite): unchanged from before the first reader's snapshot to
                // inside this one, nothing was committed between them.
                let before = try Int.fetchOne(db, sql: "PRAGMA data_version")
                looked.put(true)
                guard case .segments(let segments, let ranges) = plan.wait(), ranges.count > 1 else { return }
                try db.inTransaction(.deferred) {
                    _ = try Int.fetchOne(db, sql: "SELECT 1 FROM notification LIMIT 1")
                    let same = try Int.fetchOne(db, sql: "PRAGMA data_version") == before
                    sameSnapshot.put(same)
                    if same { Self.writeSegments(segments, ranges, db: db, file: file) }
                    return .commit
                }
            }
        }

        switch plan.wait() {
        case .failed(let error):
            done.wait()
            throw CenterStoreError(database: error, file: file)
        case .segments(let segments, let ranges):
            do {
                try segments.drain(into: write)
            } catch let failure as HistorySegments.ReaderFailure {
                done.wait()
                throw CenterStoreError(database: failure.underlying, file: file)
            } catch {
                done.wait()
                throw error
            }
            done.wait()
            guard ranges.count > 1 else { return .one }
            return sameSnapshot.wait() ? .two : .oneAfterAWrite
        }
    }

    /// Takes segments and writes them until none is left; a failure goes to `segments`.
    private static func writeSegments(
        _ segments: HistorySegments, _ ranges: [ClosedRange<Int64>], db: Database, file: String
    ) {
        while let index = segments.take() {
            do {
                var elements = try JSONArrayWriter(
                    elementsIn: segments.chunkSize,
                    exchange: { full, count in try segments.exchange(full, count: count, segment: index) },
                    release: segments.release)
                try writeHistoryElements(ranges[index], db: db, file: file, into: &elements)
                try elements.finish()
                segments.finish(index)
            } catch is JSONSinkError {
                return  // called off: the output failed
            } catch {
                segments.fail(error)
                return
            }
        }
    }

    /// The sequence numbers of the newest `limit` notifications, from the oldest of them to the
    /// newest; `nil` when there are none.
    static func historyRange(_ db: Database, limit: Int) throws -> ClosedRange<Int64>? {
        // Each alone: SQLite finds a lone min() or max() at an end of the table, but scans it for both.
        guard limit > 0, let newest = try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM notification"),
            let oldest = try Int64.fetchOne(db, sql: "SELECT min(sequence) FROM notification")
        else { return nil }
        // All of them when there can be no more than `limit` (no scan): sequence numbers are
        // never used twice.
        let (span, overflow) = newest.subtractingReportingOverflow(oldest)
        guard overflow || span >= limit else { return oldest...newest }
        let limited = try Int64.fetchOne(
            db, sql: "SELECT sequence FROM notification ORDER BY sequence DESC LIMIT 1 OFFSET ?", arguments: [limit - 1])
        return (limited ?? oldest)...newest
    }

    /// `range` cut into at most `count` consecutive ranges of about the same width, newest first.
    package static func segments(of range: ClosedRange<Int64>, count: Int) -> [ClosedRange<Int64>] {
        let (width, overflow) = range.upperBound.subtractingReportingOverflow(range.lowerBound)
        guard !overflow, width < Int64.max / 2, count > 1 else { return [range] }
        let step = width / Int64(count) + 1
        var segments: [ClosedRange<Int64>] = []
        var upper = range.upperBound
        while upper >= range.lowerBound {
            let lower = max(range.lowerBound, upper - step + 1)
            segments.append(lower...upper)
            upper = lower - 1
        }
        return segments
    }
}
