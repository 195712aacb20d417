// The binary form, bplist00: a header, the objects, an offset table and a 32-byte trailer.

/// Reads one `bplist00` file. Every offset, size and count read from the file is checked
/// before use; arrays and dictionaries are read with a heap-allocated stack, not recursion.
struct BinaryPropertyListReader {
    let bytes: UnsafeBufferPointer<UInt8>

    // From the trailer.
    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var offsetTableStart = 0

    /// Per object: 0 not read yet, 1 being read (an array or dictionary on the stack), 2 read.
    private var state: [UInt8] = []
    /// Per object read: its value and how many values it expands to.
    private var cache: [PropertyListValue?] = []
    private var weight: [Int] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func read() throws(PropertyListError) -> PropertyListValue {
        let top = try readTrailer()
        return try value(of: top)
    }

    // MARK: Trailer

    /// Validates the trailer and returns the top object's number.
    private mutating func readTrailer() throws(PropertyListError) -> Int {
        let count = bytes.count
        guard count >= 8 + 1 + 1 + 32 else {
            throw PropertyListError(message: "binary property list is truncated: \(count) bytes is too short to hold a header, an object, an offset table and the 32-byte trailer", offset: count)
        }
        let trailer = count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard [1, 2, 4, 8].contains(offsetSize) else {
            throw error("the trailer's offset size is \(offsetSize); it must be 1, 2, 4 or 8", at: trailer + 6)
        }
        guard [1, 2, 4, 8].contains(referenceSize) else {
            throw error("the trailer's object reference size is \(referenceSize); it must be 1, 2, 4 or 8", at: trailer + 7)
        }
        let rawCount = unsigned(at: trailer + 8, size: 8)
        let rawTop = unsigned(at: trailer + 16, size: 8)
        let rawTable = unsigned(at: trailer + 24, size: 8)
        guard rawCount >= 1 else { throw error("the trailer says the file holds no objects", at: trailer + 8) }
        guard rawTable >= 9, rawTable < UInt64(trailer) else {
            throw error("the offset table's offset \(rawTable) is outside the file (it must lie between the header and the trailer, 9..<\(trailer))", at: trailer + 24)
        }
        offsetTableStart = Int(rawTable)
        // The table holds `rawCount` entries of `offsetSize` bytes between its start and the trailer.
        guard rawCount <= UInt64((trailer - offsetTableStart) / offsetSize) else {
            throw error("the offset table does not fit: \(rawCount) objects of \(offsetSize) bytes from byte \(offsetTableStart) run past the trailer at byte \(trailer)", at: trailer + 8)
        }
        objectCount = Int(rawCount)
        guard rawTop < rawCount else {
            throw error("the top object is number \(rawTop), but the file holds only \(objectCount) objects", at: trailer + 16)
        }
        state = Array(repeating: 0, count: objectCount)
        cache = Array(repeating: nil, count: objectCount)
        weight = Array(repeating: 0, count: objectCount)
        return Int(rawTop)
    }

    /// The big-endian unsigned integer of `size` bytes at `at` (bounds already checked).
    private func unsigned(at: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for k in 0..<size { value = value << 8 | UInt64(bytes[at + k]) }
        return value
    }

    /// The offset of object `number` (< objectCount), checked to lie among the objects.
    private func offset(of number: Int) throws(PropertyListError) -> Int {
        let entry = offsetTableStart + number * offsetSize
        let raw = unsigned(at: entry, size: offsetSize)
        guard raw >= 8, raw < UInt64(offsetTableStart) else {
            throw error("object \(number)'s offset \(raw) is outside the object area (8..<\(offsetTableStart))", at: entry)
        }
        return Int(raw)
    }

    // MARK: Objects

    /// An array or dictionary being read: its children's object numbers (a dictionary's keys
    /// then its values) and the values read so far.
    private struct Frame {
        var number: Int
        var at: Int
        var isDictionary: Bool
        var children: [Int]
        /// Where each child's reference is, for messages.
        var childrenAt: Int
        var values: [PropertyListValue] = []
        var weight = 1
    }

    /// What reading one object's header gave: a finished value, or a container to fill.
    private enum Header {
        case scalar(PropertyListValue)
        case container(Frame)
    }

    private mutating func value(of top: Int) throws(PropertyListError) -> PropertyListValue {
        var stack: [Frame] = []
        switch try header(of: top) {
        case .scalar(let value): return value
        case .container(let frame): stack.append(frame)
        }
        state[top] = 1
        while let last = stack.indices.last {
            let frame = stack[last]
            if frame.values.count < frame.children.count {
                let position = frame.values.count
                let child = frame.children[position]
                let referenceAt = frame.childrenAt + position * referenceSize
                guard child < objectCount else {
                    throw error("object \(frame.number) refers to object \(child), but the file holds only \(objectCount) objects", at: referenceAt)
                }
                switch state[child] {
                case 2:
                    guard let value = cache[child] else { return .array([]) }
                    try add(value, weight: weight[child], to: &stack[last])
                case 1:
                    throw error("object \(child) refers to itself", at: (try? offset(of: child)) ?? referenceAt)
                default:
                    switch try header(of: child) {
                    case .scalar(let value):
                        state[child] = 2
                        cache[child] = value
                        weight[child] = 1
                        try add(value, weight: 1, to: &stack[last])
                    case .container(let inner):
                        guard stack.count < PropertyListParser.maximumDepth else {
                            throw error("nesting deeper than \(PropertyListParser.maximumDepth) levels", at: inner.at)
                        }
                        state[child] = 1
                        stack.append(inner)
                    }
                }
                continue
            }
            // All children read: build the value.
            guard let done = stack.popLast() else { break }
            let value: PropertyListValue
            if done.isDictionary {
                let half = done.children.count / 2
                var entries: [(key: String, value: PropertyListValue)] = []
                entries.reserveCapacity(half)
                var seen = Set<String>()
                for k in 0..<half {
                    guard case .string(let key) = done.values[k] else {
                        let keyAt = (try? offset(of: done.children[k])) ?? done.at
                        throw error("dictionary (object \(done.number)) has a key that is \(article(done.values[k].typeName)), not a string", at: keyAt)
                    }
                    guard seen.insert(key).inserted else {
                        throw error("dictionary (object \(done.number)) has the key \(quote(key)) twice", at: done.at)
                    }
                    entries.append((key, done.values[half + k]))
                }
                value = .dictionary(PropertyListDictionary(uniqueEntries: entries))
            } else {
                value = .array(done.values)
            }
            state[done.number] = 2
            cache[done.number] = value
            weight[done.number] = done.weight
            guard let parent = stack.indices.last else { return value }
            try add(value, weight: done.weight, to: &stack[parent])
        }
        return .array([])
    }

    private func add(_ value: PropertyListValue, weight: Int, to frame: inout Frame) throws(PropertyListError) {
        frame.values.append(value)
        let (sum, overflow) = frame.weight.addingReportingOverflow(weight)
        guard !overflow, sum <= PropertyListParser.maximumValueCount else {
            throw error("the file expands to more than \(PropertyListParser.maximumValueCount) values through objects it refers to many times", at: frame.at)
        }
        frame.weight = sum
    }

    /// Reads object `number`'s marker and contents: a scalar's value, or a container's
    /// references (all checked to lie within the object area).
    private func header(of number: Int) throws(PropertyListError) -> Header {
        let at = try offset(of: number)
        let end = offsetTableStart
        let marker = bytes[at]
        let nibble = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .scalar(.bool(false))
            case 0x09: return .scalar(.bool(true))
            case 0x00: throw error("null is not supported in property lists (object \(number))", at: at)
            default: throw error("unknown object type 0x\(hex(marker)) (object \(number))", at: at)
            }
        case 0x1:
            guard nibble <= 4 else { throw error("integer of \(1 << min(nibble, 15)) bytes is not supported (object \(number))", at: at) }
            let size = 1 << nibble
            try need(size, after: at, for: "integer", number: number)
            return .scalar(.integer(try integer(at: at + 1, size: size, number: number)))
        case 0x2:
            switch nibble {
            case 2:
                try need(4, after: at, for: "real", number: number)
                return .scalar(.real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: unsigned(at: at + 1, size: 4))))))
            case 3:
                try need(8, after: at, for: "real", number: number)
                return .scalar(.real(Double(bitPattern: unsigned(at: at + 1, size: 8))))
            default:
                throw error("real of \(1 << nibble) bytes is not supported; reals have 4 or 8 bytes (object \(number))", at: at)
            }
        case 0x3:
            guard marker == 0x33 else { throw error("unknown object type 0x\(hex(marker)) (object \(number))", at: at) }
            try need(8, after: at, for: "date", number: number)
            return .scalar(.date(Double(bitPattern: unsigned(at: at + 1, size: 8))))
        case 0x4:
            let (count, start) = try length(at: at, nibble: nibble, number: number)
            try fits(count, unit: 1, from: start, end: end, what: "data", noun: "bytes", at: at, number: number)
            return .scalar(.data(Array(UnsafeBufferPointer(rebasing: bytes[start..<(start + count)]))))
        case 0x5:
            let (count, start) = try length(at: at, nibble: nibble, number: number)
            try fits(count, unit: 1, from: start, end: end, what: "ASCII string", noun: "characters", at: at, number: number)
            let content = UnsafeBufferPointer(rebasing: bytes[start..<(start + count)])
            if let bad = content.firstIndex(where: { $0 >= 0x80 }) {
                throw error("ASCII string (object \(number)) holds byte 0x\(hex(content[bad])), which is not ASCII", at: start + bad)
            }
            return .scalar(.string(String(decoding: content, as: UTF8.self)))
        case 0x6:
            let (count, start) = try length(at: at, nibble: nibble, number: number)
            try fits(count, unit: 2, from: start, end: end, what: "UTF-16 string", noun: "UTF-16 units", at: at, number: number)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for k in 0..<count {
                units.append(UInt16(bytes[start + 2 * k]) << 8 | UInt16(bytes[start + 2 * k + 1]))
            }
            var k = 0
            while k < count {
                let unit = units[k]
                if (0xD800...0xDBFF).contains(unit) {
                    guard k + 1 < count, (0xDC00...0xDFFF).contains(units[k + 1]) else {
                        throw error("UTF-16 string (object \(number)) has an unpaired high surrogate 0x\(String(unit, radix: 16, uppercase: true))", at: start + 2 * k)
                    }
                    k += 2
                } else if (0xDC00...0xDFFF).contains(unit) {
                    throw error("UTF-16 string (object \(number)) has an unpaired low surrogate 0x\(String(unit, radix: 16, uppercase: true))", at: start + 2 * k)
                } else {
                    k += 1
                }
            }
            return .scalar(.string(String(decoding: units, as: UTF16.self)))
        case 0x8:
            throw error("UID values (NSKeyedArchiver) are not supported (object \(number))", at: at)
        case 0xA, 0xC, 0xD:
            let isDictionary = marker >> 4 == 0xD
            let (count, start) = try length(at: at, nibble: nibble, number: number)
            let what = isDictionary ? "dictionary" : marker >> 4 == 0xA ? "array" : "set"
            // A dictionary holds two references per entry.
            let references = isDictionary ? count.multipliedReportingOverflow(by: 2) : (partialValue: count, overflow: false)
            guard !references.overflow else {
                throw error("\(what) (object \(number)) claims \(count) entries, more than the file can hold", at: at)
            }
            try fits(references.partialValue, unit: referenceSize, from: start, end: end, what: what, noun: "object references", at: at, number: number)
            var children: [Int] = []
            children.reserveCapacity(references.partialValue)
            for k in 0..<references.partialValue {
                let raw = unsigned(at: start + k * referenceSize, size: referenceSize)
                children.append(Int(exactly: raw) ?? .max)
            }
            return .container(Frame(number: number, at: at, isDictionary: isDictionary, children: children, childrenAt: start))
        default:
            throw error("unknown object type 0x\(hex(marker)) (object \(number))", at: at)
        }
    }

    /// Checks that `size` bytes follow the marker at `at`, inside the object area.
    private func need(_ size: Int, after at: Int, for what: String, number: Int) throws(PropertyListError) {
        guard size <= offsetTableStart - at - 1 else {
            throw error("\(what) (object \(number)) runs past the end of the object area", at: at)
        }
    }

    /// Checks that `count` items of `unit` bytes from `start` end inside the object area.
    private func fits(_ count: Int, unit: Int, from start: Int, end: Int, what: String, noun: String, at: Int, number: Int) throws(PropertyListError) {
        guard start <= end, count <= (end - start) / unit else {
            throw error("\(what) (object \(number)) claims \(count) \(noun), more than fit before the offset table at byte \(end)", at: at)
        }
    }

    /// The big-endian integer of `size` bytes (1, 2, 4, 8 or 16) at `at`: 1, 2 and 4 bytes
    /// are unsigned, 8 and 16 signed; 16-byte values must fit in 64 bits.
    private func integer(at: Int, size: Int, number: Int) throws(PropertyListError) -> Int64 {
        switch size {
        case 16:
            let high = unsigned(at: at, size: 8)
            let low = unsigned(at: at + 8, size: 8)
            let fits = (high == 0 && low >> 63 == 0) || (high == .max && low >> 63 == 1)
            guard fits else {
                let shown = high == 0 ? "\(low)" : "a 128-bit value"
                throw error("integer \(shown) (object \(number)) is out of the 64-bit signed range", at: at - 1)
            }
            return Int64(bitPattern: low)
        case 8:
            return Int64(bitPattern: unsigned(at: at, size: 8))
        default:
            return Int64(unsigned(at: at, size: size))
        }
    }

    /// The length of a data, string or container object: the marker's low nibble, or with
    /// 0xF an integer object right after the marker. Returns it and where the contents start.
    private func length(at: Int, nibble: Int, number: Int) throws(PropertyListError) -> (count: Int, start: Int) {
        if nibble < 0xF { return (nibble, at + 1) }
        let intAt = at + 1
        guard intAt < offsetTableStart else {
            throw error("object \(number)'s length runs past the end of the object area", at: at)
        }
        let intMarker = bytes[intAt]
        guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
            throw error("object \(number)'s length must be an integer object, found marker 0x\(hex(intMarker))", at: intAt)
        }
        let size = 1 << Int(intMarker & 0x0F)
        try need(size, after: intAt, for: "length", number: number)
        let raw = unsigned(at: intAt + 1, size: size)
        guard raw <= UInt64(Int.max) else {
            throw error("object \(number) claims a length of \(raw), more than the file can hold", at: intAt)
        }
        return (Int(raw), intAt + 1 + size)
    }

    // MARK: Messages

    private func article(_ typeName: String) -> String {
        (typeName.first.map { "aeiou".contains($0) } ?? false) ? "an \(typeName)" : "a \(typeName)"
    }

    private func quote(_ text: String) -> String {
        let shown = text.count > 60 ? String(text.prefix(60)) + "…" : text
        return "\"\(shown)\""
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    private func error(_ message: String, at offset: Int) -> PropertyListError {
        PropertyListError(message: message, offset: offset)
    }
}
