@preconcurrency internal import Glibc  // stdout, setvbuf, fflush

/// C's standard streams (`stdout`, `stderr`): what `print` and C libraries write through.
extension Posix {
    /// Makes C's `stdout` line-buffered (`setvbuf(3)`, `_IOLBF`), even when it is not a
    /// terminal: each line reaches descriptor 1 when its newline is written. Call it before
    /// anything is written.
    package static func lineBufferStandardOutput() {
        setvbuf(stdout, nil, _IOLBF, 0)
    }

    /// Writes what every C output stream holds to its descriptor (`fflush(NULL)`).
    package static func flushStandardStreams() {
        fflush(nil)
    }
}
