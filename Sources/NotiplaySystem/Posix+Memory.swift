// glibc's allocator, told once to hand large buffers straight back to the system. By default it
// raises its mmap threshold to the size of the largest block freed so far (libmpv frees a 10 MiB
// one per file it loads), then serves such blocks from per-thread arenas and keeps up to twice
// that in each arena's top: `serve` grew 32 MB over 100 `clock --advance 2m` (one media start
// each), 181 MB over 80 `--advance 1d`; with the threshold fixed at 128 KiB, 1.5 MB and 27 MB
// (Scripts/bench-memory.py, release build).
@preconcurrency internal import Glibc

extension Posix {
    /// The size from which the allocator maps a block of its own and unmaps it when freed.
    package static let largeAllocation = 128 * 1024

    /// Fixes glibc's mmap threshold at ``largeAllocation``: every larger block is mapped for
    /// itself and unmapped when freed, and an arena's free top is given back past the same size,
    /// so a process that plays file after file keeps no freed media buffers. Process-wide; the
    /// command line calls it once, when it owns the process.
    package static func returnLargeBlocksToTheSystem() {
        // <malloc.h> is not in the Glibc module: the C library's own symbol, looked up once.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, Int32(largeAllocation))
    }
}
