extension PayloadDecoder {
    /// Decodes a payload read from a stream (standard input), as ``decodeFileKeepingBytes(_:acceptingPipes:)``
    /// decodes a file: `bytes` is what was read, at most ``fileCap`` + 1 bytes (one more than a
    /// payload file may hold: the stream goes on past it, an error), and `source` names the stream
    /// in the errors (`"standard input"`).
    public func decodeStream(_ bytes: [UInt8], from source: String) throws(InvalidFileError) -> APNsPayload {
        if let problem = FileBytes.streamProblem(bytes, cap: Self.fileCap, what: "a payload") {
            throw InvalidFileError(file: source, errors: [Diagnostic(key: nil, problem)])
        }
        do {
            return try decode(bytes)
        } catch {
            throw InvalidFileError(file: source, errors: error.errors, warnings: error.warnings)
        }
    }
}
