internal import CLibFuzzer
internal import Glibc

/// Runs libFuzzer from a Swift executable's `main.swift`.
///
/// A Swift executable has its own `main`, so libFuzzer's is never linked in: `main.swift` calls
/// ``run(_:)`` with the target's `LLVMFuzzerTestOneInput`, and libFuzzer takes over (its flags,
/// the corpus folders, the crash files) exactly as its own `main` would.
public enum LibFuzzer {
    /// libFuzzer's callback: one input, return 0.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    /// Hands the process to libFuzzer; it exits when the run is over.
    public static func run(_ test: TestOneInput) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, test))
    }

    /// The input's bytes.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}

/// What a target found wrong: the message goes to standard error and the process aborts, which
/// libFuzzer records as a crash with the input that caused it.
public func oracleFailure(_ message: String) -> Never {
    let text = Array("ORACLE FAILURE: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
