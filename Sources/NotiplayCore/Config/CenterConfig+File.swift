extension CenterConfig {
    /// The largest configuration file read: 1 MiB.
    public static let sizeLimit = 1 << 20

    /// Reads the configuration in `text`; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(CenterConfigError) -> CenterConfig {
        try CenterConfigParser.parse(text, file: file)
    }

    /// Reads the configuration file at `path`: a regular file of at most ``sizeLimit`` bytes of
    /// UTF-8 text (a FIFO, a folder, a larger file or other bytes are refused, naming it).
    public static func load(file path: String) throws(CenterConfigError) -> CenterConfig {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.contents(of: path, cap: sizeLimit, what: "a configuration")
        } catch {
            throw CenterConfigError(
                file: path, isMissing: error.isMissing,
                problems: error.errors.map { CenterConfigError.Problem(line: nil, column: nil, $0.message) })
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CenterConfigError(file: path, problems: [CenterConfigError.Problem(line: nil, column: nil, "is not UTF-8 text")])
        }
        return try parse(text, file: path)
    }
}
