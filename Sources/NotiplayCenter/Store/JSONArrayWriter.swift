/// A JSON array of notifications, one object per line, handed on in chunks as it is written.
struct JSONArrayWriter: ~Copyable {
    private var out: JSONChunkWriter
    private var count = 0

    /// A writer handing on chunks of about `chunkSize` bytes to `sink`; what `sink` throws comes
    /// out of ``append(_:)`` and ``finish()`` as a ``JSONSinkError``.
    init(chunkSize: Int, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        out = JSONChunkWriter(chunkSize: chunkSize) { chunk in
            do { try sink(chunk) } catch { throw JSONSinkError(underlying: error) }
        }
    }

    /// Writes the next notification.
    mutating func append(_ source: some NotificationJSON.Source) throws {
        try out.reserve(2)
        if count == 0 { out.raw("[\n") } else { out.raw(",\n") }
        count += 1
        try NotificationJSON.write(source, to: &out)
    }

    /// Closes the array and hands on the rest.
    mutating func finish() throws {
        try out.reserve(2)
        if count == 0 { out.raw("[]") } else { out.raw("\n]") }
        try out.flush()
    }
}

/// What the sink of a ``JSONArrayWriter`` threw, told apart from the errors of reading.
struct JSONSinkError: Error {
    /// The sink's error.
    var underlying: any Error
}
