/// Integers and floats.
enum NumberReader {
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) throws(Parser.SyntaxError) -> (TOMLSyntaxKind, TOMLValue) {
        var index = start
        var negative = false
        let signed = bytes[index] == Byte.plus || bytes[index] == Byte.minus
        if signed {
            negative = bytes[index] == Byte.minus
            index += 1
        }
        guard index < end else { throw Parser.notAValue(at: start) }
        if bytes[index] == 0x30, index + 1 < end, let radix = radix(bytes[index + 1]) {
            guard !signed else {
                throw Parser.SyntaxError(
                    offset: start, message: "a hexadecimal, octal or binary number cannot have a sign",
                    hint: "write 0xFF, 0o17 or 0b101 without + or -")
            }
            return (.integer, .integer(try integer(bytes, index + 2, end, radix: radix, start: start)))
        }
        let integerStart = index
        while index < end && (Byte.isDigit(bytes[index]) || bytes[index] == Byte.underscore) { index += 1 }
        let integerEnd = index
        guard integerEnd > integerStart else {
            if index < end && bytes[index] == Byte.dot {
                throw Parser.SyntaxError(
                    offset: start, message: "a number needs a digit before its decimal point",
                    hint: "write 0.5, not .5")
            }
            throw Parser.notAValue(at: start)
        }
        try checkUnderscores(bytes, integerStart, integerEnd, start: start)
        if integerEnd - integerStart > 1 && bytes[integerStart] == 0x30 {
            throw Parser.SyntaxError(
                offset: start, message: "a number must not start with 0",
                hint: "write 5, not 05; for a time of day write \"08:30\" in quotes")
        }
        var isFloat = false
        if index < end && bytes[index] == Byte.dot {
            isFloat = true
            index += 1
            let fractionStart = index
            while index < end && (Byte.isDigit(bytes[index]) || bytes[index] == Byte.underscore) { index += 1 }
            guard index > fractionStart else {
                throw Parser.SyntaxError(
                    offset: start, message: "the number is not complete",
                    hint: "write digits after the decimal point, such as 1.0")
            }
            try checkUnderscores(bytes, fractionStart, index, start: start)
        }
        if index < end && (bytes[index] | 0x20) == UInt8(ascii: "e") {
            isFloat = true
            index += 1
            if index < end && (bytes[index] == Byte.plus || bytes[index] == Byte.minus) { index += 1 }
            let exponentStart = index
            while index < end && (Byte.isDigit(bytes[index]) || bytes[index] == Byte.underscore) { index += 1 }
            guard index > exponentStart else {
                throw Parser.SyntaxError(
                    offset: start, message: "the number's exponent is not complete",
                    hint: "write digits after the e, such as 1e6 or 2.5e-3")
            }
            try checkUnderscores(bytes, exponentStart, index, start: start)
        }
        guard index == end else { throw Parser.notAValue(at: start) }
        if isFloat {
            var digits = ""
            digits.unicodeScalars.append(
                contentsOf: bytes[start..<end].lazy.filter { $0 != Byte.underscore }.map { Unicode.Scalar($0) })
            guard let value = Double(digits) else { throw Parser.notAValue(at: start) }
            return (.float, .float(value))
        }
        var value: Int64 = 0
        for byte in bytes[integerStart..<integerEnd] where byte != Byte.underscore {
            let digit = Int64(byte - 0x30)
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowPlus) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes && !overflowPlus else { throw tooLarge(start) }
            value = next
        }
        return (.integer, .integer(value))
    }

    private static func radix(_ byte: UInt8) -> Int64? {
        switch byte {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
    }

    private static func integer(
        _ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int, radix: Int64, start: Int
    ) throws(Parser.SyntaxError) -> Int64 {
        guard from < end else { throw Parser.notAValue(at: start) }
        try checkUnderscores(bytes, from, end, start: start, radix: radix)
        var value: Int64 = 0
        for byte in bytes[from..<end] where byte != Byte.underscore {
            guard let digit = Parser.hexDigit(byte).map(Int64.init), digit < radix else {
                throw Parser.notAValue(at: start)
            }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: radix)
            let (next, overflowPlus) = times.addingReportingOverflow(digit)
            guard !overflowTimes && !overflowPlus else { throw tooLarge(start) }
            value = next
        }
        return value
    }

    private static func tooLarge(_ start: Int) -> Parser.SyntaxError {
        Parser.SyntaxError(
            offset: start, message: "the number is too large", hint: "whole numbers must lie between -2^63 and 2^63-1")
    }

    /// Underscores stand each between two digits.
    private static func checkUnderscores(
        _ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int, start: Int, radix: Int64 = 10
    ) throws(Parser.SyntaxError) {
        var doubled = false
        var position = from + 1
        while position < end && !doubled {
            doubled = bytes[position] == Byte.underscore && bytes[position - 1] == Byte.underscore
            position += 1
        }
        guard bytes[from] == Byte.underscore || bytes[end - 1] == Byte.underscore || doubled else { return }
        throw Parser.SyntaxError(
            offset: start, message: "an underscore in a number must stand between two digits",
            hint: "write 1_000, not _1000, 1000_ or 1__000")
    }
}

/// Dates and times: `1979-05-27`, `07:32:00`, `1979-05-27T07:32:00.5-07:00`.
struct DateTimeReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int
    let version: TOMLVersion
    var index: Int

    init(bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, version: TOMLVersion) {
        self.bytes = bytes
        self.start = start
        self.end = end
        self.version = version
        self.index = start
    }

    static func isDate(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard start + 10 <= bytes.count else { return false }
        for offset in [0, 1, 2, 3, 5, 6, 8, 9] where !Byte.isDigit(bytes[start + offset]) { return false }
        return bytes[start + 4] == Byte.minus && bytes[start + 7] == Byte.minus
    }

    mutating func read() throws(Parser.SyntaxError) -> TOMLDateTime {
        guard Self.isDate(bytes, at: index) && index + 10 <= end else {
            let time = try readTime()
            guard index == end else { throw incomplete() }
            return TOMLDateTime(kind: .localTime, text: time)
        }
        let year = number(at: index, digits: 4)
        let month = number(at: index + 5, digits: 2)
        let day = number(at: index + 8, digits: 2)
        guard (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, year: year) else {
            throw Parser.SyntaxError(
                offset: start, message: "the date \(text(index, index + 10)) does not exist",
                hint: "write dates as YYYY-MM-DD, with a month from 01 to 12 and a day that month has")
        }
        let date = text(index, index + 10)
        index += 10
        if index < end && bytes[index] == Byte.underscore {
            throw Parser.SyntaxError(
                offset: index, message: "a date cannot hold `_`",
                hint: "write dates as 2026-11-24, date-times as 2026-11-24 08:30:00;"
                    + " underscores only group digits of numbers")
        }
        guard index < end else { return TOMLDateTime(kind: .localDate, text: date) }
        guard bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t") || bytes[index] == Byte.space
        else { throw incomplete() }
        index += 1
        let time = try readTime()
        guard index < end else { return TOMLDateTime(kind: .localDateTime, text: date + "T" + time) }
        let offset: String
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            index += 1
            offset = "Z"
        } else if bytes[index] == Byte.plus || bytes[index] == Byte.minus {
            let sign = bytes[index]
            index += 1
            guard twoDigits(at: index), index + 2 < end, bytes[index + 2] == Byte.colon, twoDigits(at: index + 3)
            else { throw incomplete() }
            let hours = number(at: index, digits: 2)
            let minutes = number(at: index + 3, digits: 2)
            guard hours <= 23, minutes <= 59 else { throw outOfRange("offset") }
            offset = hours == 0 && minutes == 0 ? "Z" : (sign == Byte.plus ? "+" : "-") + text(index, index + 5)
            index += 5
        } else {
            throw incomplete()
        }
        guard index == end else { throw incomplete() }
        return TOMLDateTime(kind: .offsetDateTime, text: date + "T" + time + offset)
    }

    /// `HH:MM:SS.fraction`, normalised.
    private mutating func readTime() throws(Parser.SyntaxError) -> String {
        guard twoDigits(at: index), index + 2 < end, bytes[index + 2] == Byte.colon, twoDigits(at: index + 3) else {
            throw incomplete()
        }
        let hour = number(at: index, digits: 2)
        let minute = number(at: index + 3, digits: 2)
        var time = text(index, index + 5)
        index += 5
        var second = 0
        let hasSeconds = index < end && bytes[index] == Byte.colon
        if hasSeconds {
            guard twoDigits(at: index + 1) else { throw incomplete() }
            second = number(at: index + 1, digits: 2)
            time += text(index, index + 3)
            index += 3
        } else if version == .v1_0 {
            throw Parser.SyntaxError(
                offset: start, message: "this is not a complete TOML date or time",
                hint: "TOML times need seconds (15:00:00); to give a time of day as text, quote it: \"15:00\"")
        } else {
            time += ":00"
        }
        guard hour <= 23, minute <= 59, second <= 60 else { throw outOfRange("time") }
        if index < end && bytes[index] == Byte.dot {
            // TOML 1.1 lets the seconds out, but a fraction belongs to seconds: 07:32.5 is no time.
            guard hasSeconds else { throw incomplete() }
            index += 1
            let fractionStart = index
            while index < end && Byte.isDigit(bytes[index]) { index += 1 }
            guard index > fractionStart else { throw incomplete() }
            var fraction = Array(bytes[fractionStart..<min(index, fractionStart + 9)])
            while fraction.last == 0x30 { fraction.removeLast() }
            if !fraction.isEmpty { time += "." + String(decoding: fraction, as: UTF8.self) }
        }
        return time
    }

    private func twoDigits(at position: Int) -> Bool {
        position + 2 <= end && Byte.isDigit(bytes[position]) && Byte.isDigit(bytes[position + 1])
    }

    private func number(at position: Int, digits: Int) -> Int {
        bytes[position..<position + digits].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    private func text(_ from: Int, _ to: Int) -> String { String(decoding: bytes[from..<to], as: UTF8.self) }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private func incomplete() -> Parser.SyntaxError {
        Parser.SyntaxError(
            offset: start, message: "this is not a complete TOML date or time",
            hint: "write a date as 2026-11-24, a time as 08:30:00, a date-time as 2026-11-24 08:30:00"
                + " (or 2026-11-24T08:30:00+01:00); to give a time of day as text, quote it: \"15:00\"")
    }

    private func outOfRange(_ what: String) -> Parser.SyntaxError {
        Parser.SyntaxError(
            offset: start, message: "the \(what) \(text(start, end)) does not exist",
            hint: "hours run from 00 to 23, minutes and seconds from 00 to 59")
    }
}
