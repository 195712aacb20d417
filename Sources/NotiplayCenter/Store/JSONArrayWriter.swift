/// A JSON array of notifications, one object per line, handed on in chunks as it is written; or
/// only its elements, for a part of an array another writer puts together.
struct JSONArrayWriter: ~Copyable {
    private var out: JSONChunkWriter
    private var count = 0
    private let brackets: Bool

    /// A writer handing on chunks of about `chunkSize` bytes to `sink`; what `sink` throws comes
    /// out of ``append(_:)`` and ``finish()`` as a ``JSONSinkError``. Without `brackets`, only the
    /// elements and the `,\n` between them are written.
    init(chunkSize: Int, brackets: Bool = true, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.brackets = brackets
        out = JSONChunkWriter(chunkSize: chunkSize) { chunk in
            do { try sink(chunk) } catch { throw JSONSinkError(underlying: error) }
        }
    }

    /// A writer of the elements only, giving its chunks away (``JSONChunkWriter/Output/handOff(exchange:release:)``);
    /// what `exchange` throws comes out of ``append(_:)`` and ``finish()`` as a ``JSONSinkError``.
    init(
        elementsIn chunkSize: Int,
        exchange: @escaping (UnsafeMutableRawBufferPointer?, Int) throws -> UnsafeMutableRawBufferPointer,
        release: @escaping (UnsafeMutableRawBufferPointer) -> Void
    ) throws {
        brackets = false
        do {
            out = try JSONChunkWriter(
                chunkSize: chunkSize,
                exchange: { full, count in
                    do { return try exchange(full, count) } catch { throw JSONSinkError(underlying: error) }
                }, release: release)
        } catch {
            throw JSONSinkError(underlying: error)
        }
    }

    /// Writes the next notification.
    mutating func append(_ source: some NotificationJSON.Source) throws {
        try out.reserve(2)
        if count > 0 { out.raw(",\n") } else if brackets { out.raw("[\n") }
        count += 1
        try NotificationJSON.write(source, to: &out)
    }

    /// Closes the array and hands on the rest.
    mutating func finish() throws {
        if brackets {
            try out.reserve(2)
            if count == 0 { out.raw("[]") } else { out.raw("\n]") }
        }
        try out.flush()
    }
}

/// What the sink of a ``JSONArrayWriter`` threw, told apart from the errors of reading.
struct JSONSinkError: Error {
    /// The sink's error.
    var underlying: any Error
}
