internal import NotiplaySystem

/// Reading the values of step arguments: durations, counts, sizes and paths (dates are read by
/// ``ScriptDate``). Every reader is total: it never traps, whatever the text.
enum ScriptValues {
    /// The longest duration a card step (`wait`, `seek`, `expect heard`…) may name.
    static let longestDuration = Duration.seconds(3600)

    /// What became of a duration's text.
    enum DurationReading: Equatable {
        case value(Duration)
        case malformed
        case negative
        case tooLong
    }

    /// Reads `250ms`, `1.5s`, `2` (seconds), `.5s`, `15m`, `2h` or `7d` exactly (no binary
    /// rounding: `0.1s` is 100 ms); anything longer than `longest` is ``DurationReading/tooLong``.
    /// Digits past the attosecond are ignored.
    static func duration(_ text: String, longest: Duration = longestDuration) -> DurationReading {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "-" {
            scalars.removeFirst()
            if scalars.first == "-" { return .malformed }
            if case .malformed = duration(String(String.UnicodeScalarView(scalars)), longest: longest) { return .malformed }
            return .negative
        }
        // The unit: milliseconds, or a whole number of seconds.
        var secondsPerUnit: Int64? = 1
        if scalars.count >= 2, scalars[scalars.count - 2] == "m", scalars[scalars.count - 1] == "s" {
            scalars.removeLast(2)
            secondsPerUnit = nil
        } else if let last = scalars.last, let seconds = unitSeconds[last] {
            scalars.removeLast()
            secondsPerUnit = seconds
        }
        var whole: [UInt8] = []
        var fraction: [UInt8] = []
        var seenPoint = false
        for scalar in scalars {
            if scalar == "." {
                guard !seenPoint else { return .malformed }
                seenPoint = true
            } else if let digit = decimalDigit(scalar) {
                if seenPoint { fraction.append(digit) } else { whole.append(digit) }
            } else {
                return .malformed
            }
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return .malformed }
        while whole.first == 0 { whole.removeFirst() }
        // Every limit is under 10^9 s, which 13 digits exceed in any unit; 12 cannot overflow.
        guard whole.count <= 12 else { return .tooLong }
        let units = whole.reduce(Int64(0)) { $0 * 10 + Int64($1) }
        let value: Duration
        if let secondsPerUnit {
            value = Duration(secondsComponent: units, attosecondsComponent: digits(fraction, 18)) * secondsPerUnit
        } else {
            // digits(fraction, 15) < 10^15, so (units % 1000) * 10^15 + it < 10^18.
            let attoseconds = (units % 1000) * 1_000_000_000_000_000 + digits(fraction, 15)
            value = Duration(secondsComponent: units / 1000, attosecondsComponent: attoseconds)
        }
        return value > longest ? .tooLong : .value(value)
    }

    /// The units after a number, but `ms`, in seconds.
    private static let unitSeconds: [Unicode.Scalar: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]

    /// The first `count` of the `fraction` digits as a whole number (padded with zeros).
    private static func digits(_ fraction: [UInt8], _ count: Int) -> Int64 {
        var value = Int64(0)
        for k in 0..<count { value = value * 10 + Int64(k < fraction.count ? fraction[k] : 0) }
        return value
    }

    /// What became of a count's text.
    enum CountReading: Equatable {
        case value(Int)
        case malformed
        case negative
        case tooLarge
    }

    /// Reads a non-negative whole number written in ASCII digits.
    static func count(_ text: String) -> CountReading {
        var scalars = Array(text.unicodeScalars)
        var negative = false
        if scalars.first == "-" {
            negative = true
            scalars.removeFirst()
        }
        guard !scalars.isEmpty else { return .malformed }
        var value = 0
        for scalar in scalars {
            guard let digit = decimalDigit(scalar) else { return .malformed }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(digit))
            if o1 || o2 {
                return negative ? .negative : .tooLarge
            }
            value = sum
        }
        if negative, value != 0 { return .negative }
        return .value(value)
    }

    /// `COLSxROWS` split into its two numbers (and their text), with the scalar offset of the
    /// rows' first digit; nil unless it is digits, `x`, digits. Numbers too large for `Int` read
    /// as `Int.max`.
    static func size(
        _ text: String
    ) -> (columns: Int, rows: Int, columnsText: String, rowsText: String, rowsOffset: Int)? {
        let scalars = Array(text.unicodeScalars)
        guard let x = scalars.firstIndex(of: "x"), x > 0, x + 1 < scalars.count else { return nil }
        func number(_ part: ArraySlice<Unicode.Scalar>) -> Int? {
            var value = 0
            for scalar in part {
                guard let digit = decimalDigit(scalar) else { return nil }
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int(digit))
                value = o1 || o2 ? Int.max : sum
            }
            return value
        }
        let columnsPart = scalars[..<x]
        let rowsPart = scalars[(x + 1)...]
        guard let columns = number(columnsPart), let rows = number(rowsPart) else { return nil }
        return (
            columns, rows, String(String.UnicodeScalarView(columnsPart)), String(String.UnicodeScalarView(rowsPart)),
            x + 1
        )
    }

    /// `COL,ROW`: two whole numbers from 1 to 500 (a card's cell, as a terminal counts).
    static func cell(_ text: String) -> (column: Int, row: Int)? {
        let parts = text.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3 else { return nil }
            var value = 0
            for scalar in part {
                guard let digit = decimalDigit(scalar) else { return nil }
                value = value * 10 + Int(digit)
            }
            guard (1...500).contains(value) else { return nil }
            numbers.append(value)
        }
        return (numbers[0], numbers[1])
    }

    static func decimalDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        let v = scalar.value
        guard v >= 0x30, v <= 0x39 else { return nil }
        return UInt8(v - 0x30)
    }
}

/// Absolute paths without Foundation.
enum ScriptPath {
    /// The folder `script` is in, made absolute against the current directory.
    static func folder(of script: String) -> String {
        let directory: String
        if let slash = script.lastIndex(of: "/") {
            directory = slash == script.startIndex ? "/" : String(script[..<slash])
        } else {
            directory = "."
        }
        return directory.hasPrefix("/") ? normalized(directory) : normalized(currentDirectory() + "/" + directory)
    }

    /// `path` if absolute, else `folder/path`, without `.` components or repeated slashes
    /// (`..` is kept: a symbolic link may stand before it).
    static func resolve(_ path: String, in folder: String) -> String {
        normalized(path.hasPrefix("/") ? path : folder + "/" + path)
    }

    static func normalized(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }

    /// The process's current directory (`/` if it cannot be known, e.g. after it was removed).
    static func currentDirectory() -> String {
        (try? Posix.currentFolder()) ?? "/"
    }
}
