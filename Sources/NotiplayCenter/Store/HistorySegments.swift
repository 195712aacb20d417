import Dispatch
import Synchronization

/// The JSON of a history read as consecutive segments by two readers at once, handed to one
/// output in order (``CenterStore/writeHistoryJSON(limit:chunkSize:to:)``).
///
/// Readers take the next segment (``take()``), write its elements into chunks of memory they get
/// from here and give back full (``exchange(_:count:segment:)``), and say when it is done
/// (``finish(_:)``); the output's thread writes them (``drain(into:)``), segment after segment,
/// with the array's brackets and the commas between segments, and keeps each chunk's memory for
/// the next (fresh pages cost a fault each: copying into new 1 MiB arrays made 5,600 more, 20 ms
/// of 100). A reader is kept at most ``window`` segments ahead of what was written, so a slow
/// output (a pager) holds a few segments in memory, not the whole history.
final class HistorySegments: Sendable {
    /// Why a reader's exchange failed: the output failed and the work was called off.
    struct Cancelled: Error {}

    /// What a reader threw, told apart from what the output throws.
    struct ReaderFailure: Error {
        var underlying: any Error
    }

    /// Memory of at least ``HistorySegments/chunkSize`` bytes and how many of them are written;
    /// owned by whoever holds it (a reader, the queue under the lock, or the output).
    private struct Chunk: @unchecked Sendable {
        var memory: UnsafeMutableRawBufferPointer
        var count: Int
    }

    private struct State {
        var chunks: [[Chunk]]
        var finished: [Bool]
        var free: [Chunk] = []
        var next = 0
        var failure: ReaderFailure?
        var cancelled = false
    }

    /// How many segments.
    let count: Int
    /// The size of each chunk.
    let chunkSize: Int
    /// How many segments readers may be ahead of the output.
    let window: Int
    private let state: Mutex<State>
    /// Signalled at each chunk, finished segment and failure (the output waits on it).
    private let progress = DispatchSemaphore(value: 0)
    /// One permit per segment a reader may start (the output gives one back per segment written).
    private let room: DispatchSemaphore

    /// Segments `0..<count`, newest first, written in chunks of `chunkSize` bytes.
    init(count: Int, chunkSize: Int, window: Int = 3) {
        self.count = count
        self.chunkSize = max(chunkSize, 4096)
        self.window = window
        state = Mutex(State(chunks: Array(repeating: [], count: count), finished: Array(repeating: false, count: count)))
        room = DispatchSemaphore(value: window)
    }

    deinit {
        state.withLock { state in
            for chunk in state.free + state.chunks.joined() { chunk.memory.deallocate() }
        }
    }

    /// The next segment no reader has taken, waiting while readers are ``window`` ahead; `nil`
    /// when there is none left or the work was called off.
    func take() -> Int? {
        room.wait()
        let taken: Int? = state.withLock { state in
            guard !state.cancelled, state.failure == nil, state.next < count else { return nil }
            state.next += 1
            return state.next - 1
        }
        if taken == nil { room.signal() }  // for the other reader
        return taken
    }

    /// Takes `full` (its first `count` bytes the next of `segment`'s elements' bytes; none at the
    /// start), and returns memory to write on next.
    /// - Throws: ``Cancelled`` when the output failed (`full` is kept all the same).
    func exchange(_ full: UnsafeMutableRawBufferPointer?, count: Int, segment: Int) throws -> UnsafeMutableRawBufferPointer {
        let reused: Chunk? = try state.withLock { state in
            if let full, full.baseAddress != nil {
                if state.cancelled { state.free.append(Chunk(memory: full, count: 0)) } else {
                    state.chunks[segment].append(Chunk(memory: full, count: count))
                }
            }
            if state.cancelled { throw Cancelled() }
            return state.free.popLast()
        }
        if full != nil { progress.signal() }
        return reused?.memory ?? .allocate(byteCount: chunkSize, alignment: 1)
    }

    /// Takes back the memory a reader wrote on last.
    func release(_ memory: UnsafeMutableRawBufferPointer) {
        guard memory.baseAddress != nil else { return }
        state.withLock { $0.free.append(Chunk(memory: memory, count: 0)) }
    }

    /// Says `segment` has all its bytes.
    func finish(_ segment: Int) {
        state.withLock { $0.finished[segment] = true }
        progress.signal()
    }

    /// Stops the work: a reader failed with `error` (kept if it is the first).
    func fail(_ error: any Error) {
        state.withLock { state in
            if state.failure == nil && !state.cancelled { state.failure = ReaderFailure(underlying: error) }
        }
        progress.signal()
    }

    /// Writes the segments in order as one JSON array (`[]` when all are empty), each chunk as
    /// it comes.
    /// - Throws: What `write` threw, as it threw it (the readers are then called off), or the
    ///   first reader's ``ReaderFailure``.
    func drain(into write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var segment = 0
        var wroteAny = false
        var started = false
        var written: [Chunk] = []
        defer { state.withLock { $0.free.append(contentsOf: written) } }
        do {
            while segment < count {
                let (chunks, done, failure) = state.withLock { state in
                    state.free.append(contentsOf: written)
                    let chunks = state.chunks[segment]
                    state.chunks[segment].removeAll(keepingCapacity: true)
                    return (chunks, state.finished[segment], state.failure)
                }
                written.removeAll(keepingCapacity: true)
                if let failure { throw failure }
                for chunk in chunks {
                    written.append(chunk)
                    if !started {
                        try Self.write(wroteAny ? ",\n" : "[\n", to: write)
                        started = true
                        wroteAny = true
                    }
                    try write(UnsafeRawBufferPointer(rebasing: chunk.memory[..<chunk.count]))
                }
                if done && chunks.isEmpty {
                    segment += 1
                    started = false
                    room.signal()
                } else if chunks.isEmpty {
                    progress.wait()
                }
            }
            try Self.write(wroteAny ? "\n]" : "[]", to: write)
        } catch {
            cancel()
            throw error
        }
    }

    /// Calls the readers off: their exchanges throw, and none waits for room.
    private func cancel() {
        state.withLock { $0.cancelled = true }
        for _ in 0..<(window + 2) { room.signal() }
    }

    private static func write(_ text: StaticString, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        try write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

/// A value one thread sets once and another waits for.
final class OneShot<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let set = DispatchSemaphore(value: 0)

    /// Sets the value, unless it was set already.
    func put(_ newValue: Value) {
        let first = value.withLock { value in
            guard value == nil else { return false }
            value = newValue
            return true
        }
        if first { set.signal() }
    }

    /// Waits for the value.
    func wait() -> Value {
        set.wait()
        set.signal()  // for any later wait
        return value.withLock { $0! }
    }
}
