#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NotiplayCore

/// Writes JSON as UTF-8 into a buffer of its own and hands it on in chunks, so a large output
/// (`history --json` over a hundred thousand notifications is some 50 MB) is never one array.
///
/// Every write is a plain store into memory made ready beforehand: a caller asks for room with
/// ``reserve(_:)`` (an upper bound of what it will write before it asks again), then writes
/// without checks.
struct JSONChunkWriter: ~Copyable {
    /// Where full chunks go.
    enum Output {
        /// Each chunk is lent to a function that copies it out (valid only during the call).
        case lend((UnsafeRawBufferPointer) throws -> Void)
        /// Each chunk's memory is given away with its length, and `exchange` returns the memory
        /// to write on next (at least `chunkSize` bytes; at the start `exchange(nil, 0)`);
        /// `release` takes the last back.
        case handOff(
            exchange: (UnsafeMutableRawBufferPointer?, Int) throws -> UnsafeMutableRawBufferPointer,
            release: (UnsafeMutableRawBufferPointer) -> Void)
    }

    private var buffer: UnsafeMutableRawBufferPointer
    private var count = 0
    private let chunkSize: Int
    private let output: Output
    /// The last day ``date(_:)`` wrote (dates in a list are mostly of a few days).
    private var lastDay: (days: Int64, date: (year: Int64, month: Int64, day: Int64)) = (0, (1970, 1, 1))
    /// The last second ``date(_:)`` wrote, and its first 20 bytes.
    private var lastSecond: (milliseconds: Int64, text: (UInt64, UInt64, UInt32)) = (.min, (0, 0, 0))

    /// A writer handing on chunks of about `chunkSize` bytes to `sink`.
    init(chunkSize: Int, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.chunkSize = max(chunkSize, 4096)
        buffer = .allocate(byteCount: self.chunkSize, alignment: 1)
        output = .lend(sink)
    }

    /// A writer giving its chunks of about `chunkSize` bytes away (``Output/handOff(exchange:release:)``).
    init(
        chunkSize: Int, exchange: @escaping (UnsafeMutableRawBufferPointer?, Int) throws -> UnsafeMutableRawBufferPointer,
        release: @escaping (UnsafeMutableRawBufferPointer) -> Void
    ) throws {
        self.chunkSize = max(chunkSize, 4096)
        buffer = try exchange(nil, 0)
        output = .handOff(exchange: exchange, release: release)
    }

    deinit {
        switch output {
        case .lend: buffer.deallocate()
        case .handOff(_, let release): release(buffer)
        }
    }

    /// Makes room for `byteCount` more bytes, handing on what was written when the chunk is full.
    mutating func reserve(_ byteCount: Int) throws {
        guard count + byteCount > buffer.count else { return }
        try flush()
        if byteCount > buffer.count {
            buffer.deallocate()
            buffer = .allocate(byteCount: byteCount, alignment: 1)
        }
    }

    /// Hands on everything written so far.
    mutating func flush() throws {
        guard count > 0 else { return }
        switch output {
        case .lend(let sink):
            try sink(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        case .handOff(let exchange, _):
            let full = buffer
            buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
            buffer = try exchange(full, count)
        }
        count = 0
    }

    /// Writes one byte.
    @inline(__always)
    mutating func byte(_ value: UInt8) {
        buffer[count] = value
        count += 1
    }

    /// Writes `text`'s UTF-8 as it is.
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        copy(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes `text`'s UTF-8 as it is.
    mutating func raw(string text: String) {
        var text = text
        text.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `utf8` as it is.
    mutating func raw(utf8: UnsafeRawBufferPointer) {
        copy(utf8)
    }

    /// Writes the JSON text `utf8` (a stored payload) with the scalars ``JSONWriter`` escapes
    /// written as `\uXXXX` (at most three bytes out per byte in). ASCII text is copied whole.
    mutating func json(utf8: UnsafeRawBufferPointer) {
        if !utf8.contains(where: { $0 >= 0x80 || $0 == 0x7F }) {
            copy(utf8)
        } else {
            raw(string: JSONWriter.escapingUnsafeScalars(String(decoding: utf8, as: UTF8.self)))
        }
    }

    /// Writes the UTF-8 text `utf8` as a quoted JSON string, escaped as ``JSONWriter`` does (at
    /// most six bytes out per byte in, and two quotes). Text with nothing to escape is copied whole.
    mutating func quoted(utf8: UnsafeRawBufferPointer) {
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            byte(0x22)
            copy(utf8)
            byte(0x22)
        } else {
            var escaped = ""
            JSONWriter.appendString(String(decoding: utf8, as: UTF8.self), to: &escaped)
            raw(string: escaped)
        }
    }

    /// Writes `value` in decimal (at most 20 bytes).
    mutating func integer(_ value: Int64) {
        if value < 0 { byte(0x2D) }
        var magnitude = value.magnitude
        var digits = 1
        var scale: UInt64 = 1
        while magnitude / scale >= 10 {
            scale *= 10
            digits += 1
        }
        for _ in 0..<digits {
            byte(UInt8(48 + magnitude / scale))
            magnitude %= scale
            scale /= 10
        }
    }

    /// Writes `date` quoted, in UTC, to the millisecond (rounded down): 26 bytes,
    /// `"2026-11-23T09:41:00.000Z"`. Years outside 0000–9999 are written as the nearest of
    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z.
    mutating func date(_ date: Date) {
        let lowest = -62_167_219_200_000.0  // 0000-01-01T00:00:00Z in milliseconds
        let highest = 253_402_300_799_999.0  // 9999-12-31T23:59:59.999Z
        let scaled = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let milliseconds = Int64(scaled.isNaN ? 0 : min(max(scaled, lowest), highest))
        let fraction = (milliseconds % 1000 + 1000) % 1000
        let second = milliseconds - fraction
        // The quote and the date to the second, as written last time when it is the same
        // second (a notification's dates, and neighbours in a list, mostly are): `history
        // --json` spent 7 % of its time here, writing every date digit by digit.
        if second != lastSecond.milliseconds { lastSecond = (second, secondText(second)) }
        let start = buffer.baseAddress! + count
        start.storeBytes(of: lastSecond.text.0, as: UInt64.self)
        (start + 8).storeBytes(of: lastSecond.text.1, as: UInt64.self)
        (start + 16).storeBytes(of: lastSecond.text.2, as: UInt32.self)
        count += 20
        byte(0x2E)
        byte(UInt8(48 + fraction / 100))
        twoDigits(fraction % 100)
        raw("Z\"")
    }

    /// `"2026-11-23T09:41:00`: a quote and the date and time of `second` (milliseconds since
    /// 1970, a whole second), 20 bytes in memory order.
    private mutating func secondText(_ second: Int64) -> (UInt64, UInt64, UInt32) {
        var (days, time) = second.quotientAndRemainder(dividingBy: 86_400_000)
        if time < 0 {
            days -= 1
            time += 86_400_000
        }
        if days != lastDay.days { lastDay = (days, Self.civil(fromDays: days)) }
        let (year, month, day) = lastDay.date
        var text: (UInt64, UInt64, UInt32) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { bytes in
            func put(_ number: Int64, at offset: Int, then separator: UInt8?) {
                bytes[offset] = UInt8(48 + number / 10)
                bytes[offset + 1] = UInt8(48 + number % 10)
                if let separator { bytes[offset + 2] = separator }
            }
            bytes[0] = 0x22
            put(year / 100, at: 1, then: nil)
            put(year % 100, at: 3, then: 0x2D)
            put(month, at: 6, then: 0x2D)
            put(day, at: 9, then: 0x54)
            put(time / 3_600_000, at: 12, then: 0x3A)
            put(time / 60_000 % 60, at: 15, then: 0x3A)
            put(time / 1000 % 60, at: 18, then: nil)
        }
        return text
    }

    /// Writes `date` quoted, or `null`.
    mutating func date(_ date: Date?) {
        if let date { self.date(date) } else { raw("null") }
    }

    @inline(__always)
    private mutating func twoDigits(_ value: Int64) {
        byte(UInt8(48 + value / 10))
        byte(UInt8(48 + value % 10))
    }

    @inline(__always)
    private mutating func copy(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (buffer.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
