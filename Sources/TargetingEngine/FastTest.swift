import TargetingBase

/// A test in the flat code's plain form: fixed-size fields, no references, so running it
/// copies nothing and retains nothing. String literals are interned per slot at compile time
/// (`LiteralTable`), so text equality and set membership compare integers; release versions are
/// packed into one integer. Whatever has no plain form runs as `.general` on its
/// `CompiledTest.Kind`.
///
/// Each operation gives exactly `CompiledTest.outcome` (`Evaluator.compare`'s answer, negated
/// for a negated test, false where that gives nil); `FastTestAgreementTests` holds every kind to it.
package struct FastTest: Sendable {
    package enum Op: UInt8, Sendable {
        /// Run `CompiledTest.Kind` on the slot's full value.
        case general
        case presence
        case numberEquals, numberOrder, numberBetween
        case boolEquals
        case dateEquals, dateOrder, dateBetween
        /// The value's literal id equals `literal`.
        case stringEquals
        /// The value's literal id is in `mask`.
        case stringIn
        /// `has`, `has any`, `has all`, `has none` over the set's literal mask.
        case has, hasAny, hasAll, hasNone
        /// Packed release versions (a pre-release value takes the general path).
        case versionEquals, versionOrder, versionBetween
    }

    package var slot: Int32
    package var op: Op
    package var negated: Bool
    package var ordering: Ordering = .less
    /// Numbers, and 1 or 0 for a boolean literal.
    package var low: Double = 0
    package var high: Double = 0
    package var lowDate: DateOperand = .fixed(0)
    package var highDate: DateOperand = .fixed(0)
    /// A literal id, or packed versions in `lowBits`/`highBits`.
    package var literal: Int32 = -1
    package var lowBits: UInt64 = 0
    package var highBits: UInt64 = 0
    /// Literal ids as bits (ids below 64).
    package var mask: UInt64 = 0

    /// The plain form of `kind` on `slot`, interning its text into `table` (the slot's literals).
    init(slot: Int, kind: CompiledTest.Kind, negated: Bool, table: inout LiteralTable.Builder) {
        self.slot = Int32(slot)
        self.negated = negated
        op = .general
        func bits(_ literals: ExactStringSet) -> UInt64? {
            var mask: UInt64 = 0
            for literal in literals {
                let id = table.intern(literal)
                guard id < 64 else { return nil }
                mask |= 1 << UInt64(id)
            }
            return mask
        }
        switch kind {
        case .presence: op = .presence
        case .number(let test):
            switch test {
            case .equals(let value): op = .numberEquals; low = value
            case .order(let order, let value): op = .numberOrder; ordering = order; low = value
            case .between(let from, let to): op = .numberBetween; low = from; high = to
            case .isIn: break  // a list of numbers takes the typed comparison
            }
        case .bool(let flag): op = .boolEquals; low = flag ? 1 : 0
        case .date(let test):
            switch test {
            case .equals(let date): op = .dateEquals; lowDate = date
            case .order(let order, let date): op = .dateOrder; ordering = order; lowDate = date
            case .between(let from, let to): op = .dateBetween; lowDate = from; highDate = to
            }
        case .text(let test, fold: false):
            switch test {
            case .equals(let text):
                op = .stringEquals
                literal = Int32(table.intern(text))
            case .isIn(let texts):
                if let mask = bits(texts) { op = .stringIn; self.mask = mask }
            case .contains, .startsWith, .endsWith, .matches:
                break  // fragments and patterns take the typed comparison
            }
        case .members(let test, fold: false):
            switch test {
            case .has(let text): if let mask = bits(ExactStringSet([text])) { op = .has; self.mask = mask }
            case .hasAny(let texts): if let mask = bits(texts) { op = .hasAny; self.mask = mask }
            case .hasAll(let texts): if let mask = bits(texts) { op = .hasAll; self.mask = mask }
            case .hasNone(let texts): if let mask = bits(texts) { op = .hasNone; self.mask = mask }
            }
        case .version(let test):
            switch test {
            case .equals(let version): if let packed = version.packed { op = .versionEquals; lowBits = packed }
            case .order(let order, let version): if let packed = version.packed { op = .versionOrder; ordering = order; lowBits = packed }
            case .between(let from, let to): if let low = from.packed, let high = to.packed { op = .versionBetween; lowBits = low; highBits = high }
            case .isIn: break  // a list of versions takes the typed comparison
            }
        // No fixed-size form: folded text and sets take the typed comparison.
        case .text(_, fold: true), .members(_, fold: true):
            break
        }
    }

    /// Whether the test always needs the slot's full value (a general test). A version test
    /// needs it only for a pre-release, which `FlatRun` then reads on demand.
    var needsFullValue: Bool { op == .general }

    /// The outcome on a plain value; nil when only the full value can tell (a pre-release version).
    /// A value of another type fails the test (`Evaluator.compare` gives nil), negated or not.
    @inline(__always)
    func holds(_ value: FastValue, now: Int64) -> Bool? {
        let result: Bool
        switch op {
        case .general:
            // Never asked: a general test runs on the full value.
            return false
        case .presence:
            result = value.isPresent
        case .numberEquals:
            guard value.tag == .number else { return false }
            result = value.number == low
        case .numberOrder:
            guard value.tag == .number else { return false }
            result = ordering.holds(value.number, low)
        case .numberBetween:
            guard value.tag == .number else { return false }
            result = low <= value.number && value.number <= high
        case .boolEquals:
            guard value.tag == .bool else { return false }
            result = value.number == low
        case .dateEquals:
            guard value.tag == .date else { return false }
            result = value.bits == UInt64(bitPattern: lowDate.at(now))
        case .dateOrder:
            guard value.tag == .date else { return false }
            result = ordering.holds(Int64(bitPattern: value.bits), lowDate.at(now))
        case .dateBetween:
            guard value.tag == .date else { return false }
            let ms = Int64(bitPattern: value.bits)
            result = lowDate.at(now) <= ms && ms <= highDate.at(now)
        case .stringEquals:
            guard value.tag == .string else { return false }
            result = value.literal == literal
        case .stringIn:
            guard value.tag == .string else { return false }
            result = value.literal >= 0 && value.literal < 64 && mask & (1 << UInt64(value.literal)) != 0
        case .has, .hasAny:
            guard value.tag == .set else { return false }
            result = value.bits & mask != 0
        case .hasAll:
            guard value.tag == .set else { return false }
            result = value.bits & mask == mask
        case .hasNone:
            guard value.tag == .set else { return false }
            result = value.bits & mask == 0
        case .versionEquals:
            if value.tag == .otherVersion { return nil }
            guard value.tag == .version else { return false }
            result = value.bits == lowBits
        case .versionOrder:
            if value.tag == .otherVersion { return nil }
            guard value.tag == .version else { return false }
            result = ordering.holds(value.bits, lowBits)
        case .versionBetween:
            if value.tag == .otherVersion { return nil }
            guard value.tag == .version else { return false }
            result = lowBits <= value.bits && value.bits <= highBits
        }
        return result != negated
    }
}

/// A slot's value in plain form: its type tag and a number, bits (an instant, a packed
/// version, a set's literal mask) or a literal id.
package struct FastValue: Sendable {
    package enum Tag: UInt8, Sendable {
        case unread, missing, mistyped, string, number, bool, date, version, otherVersion, set
    }

    package var tag: Tag = .unread
    /// The interned literal id of a string (-1: not a literal of this slot).
    package var literal: Int32 = -1
    /// A number; 1 or 0 for a boolean.
    package var number: Double = 0
    package var bits: UInt64 = 0

    package init() {}

    /// Whether the slot holds a value, fitting or not (`SlotValue.isPresent` in plain form).
    @inline(__always)
    var isPresent: Bool { tag != .missing }

    /// The plain form of `value`, looking its text up in the slot's `table`.
    package init(_ value: SlotValue, table: UnsafePointer<LiteralTable>) {
        switch value {
        case .missing: tag = .missing
        case .mistyped: tag = .mistyped
        case .string(let text):
            tag = .string
            literal = table.pointee.id(of: text)
        case .number(let value):
            tag = .number
            number = value
        case .bool(let flag):
            tag = .bool
            number = flag ? 1 : 0
        case .date(let ms):
            tag = .date
            bits = UInt64(bitPattern: ms)
        case .version(let version):
            if let packed = version.packed {
                tag = .version
                bits = packed
            } else {
                tag = .otherVersion
            }
        case .set(let members):
            tag = .set
            for member in members {
                let id = table.pointee.id(of: member)
                if id >= 0, id < 64 { bits |= 1 << UInt64(id) }
            }
        }
    }

    /// The instant `now`, for tests on `now`.
    init(now: Int64) {
        tag = .date
        bits = UInt64(bitPattern: now)
    }
}

/// The string literals rules compare one slot with, each with a small integer id; lookups
/// compare exact UTF-8 bytes (canonically equivalent spellings stay distinct).
package struct LiteralTable: @unchecked Sendable {
    /// Every literal's UTF-8 bytes, back to back, read through a pointer to the table
    /// (`id(in:utf8:)`) without retaining anything: the tables are shared by every thread of a
    /// batch.
    private let literals: PinnedBytes
    /// Literal ids by text, for tables longer than `linearLimit`.
    private let buckets: [String: [Int32]]

    /// Collects literals while compiling.
    package struct Builder {
        var items: [String] = []
        var buckets: [String: [Int32]] = [:]

        /// The id of `text`, added if new.
        mutating func intern(_ text: String) -> Int {
            if let ids = buckets[text], let id = ids.first(where: { ByteText.equals(items[Int($0)], text) }) { return Int(id) }
            items.append(text)
            buckets[text, default: []].append(Int32(items.count - 1))
            return items.count - 1
        }

        var table: LiteralTable { LiteralTable(items: items, buckets: buckets) }
    }

    private init(items: [String], buckets: [String: [Int32]]) {
        literals = PinnedBytes(items.map { Array($0.utf8) })
        self.buckets = items.count > LiteralTable.linearLimit ? buckets : [:]
    }

    /// Short tables are searched in order; longer ones through the buckets.
    static let linearLimit = 8

    /// The id of `text`, or -1 when no rule compares this slot with it.
    package func id(of text: String) -> Int32 {
        PlainStored.withText(text) { stored in
            guard case .text(let bytes) = stored else { return -1 }
            return id(utf8: bytes)
        }
    }

    /// The id of the text spelt by `bytes`, or -1.
    package func id(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        withUnsafePointer(to: self) { LiteralTable.id(in: $0, utf8: bytes) }
    }

    /// The id of the text spelt by `bytes` in the table `table` points to, or -1: what the
    /// evaluators call, reading the table where it lies.
    package static func id(in table: UnsafePointer<LiteralTable>, utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        let all = table.pointee.literals.all, ends = table.pointee.literals.ends
        if ends.count <= LiteralTable.linearLimit {
            var start = 0
            for (index, end) in ends.enumerated() {
                if end - start == bytes.count, LiteralTable.same(all, from: start, bytes) {
                    return Int32(index)
                }
                start = end
            }
            return -1
        }
        guard let ids = table.pointee.buckets[String(decoding: bytes, as: UTF8.self)] else { return -1 }
        return ids.first { id in
            let start = id == 0 ? 0 : ends[Int(id) - 1]
            return ends[Int(id)] - start == bytes.count && LiteralTable.same(all, from: start, bytes)
        } ?? -1
    }

    /// Whether `all` holds `bytes` at `start` (the caller checked the length).
    @inline(__always)
    private static func same(_ all: UnsafeBufferPointer<UInt8>, from start: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            if all[start + index] != bytes[index] { return false }
            index += 1
        }
        return true
    }

    /// The literal mask of the comma-separated set spelt by `bytes` (as `FastValue` builds it
    /// for `.set`), or nil when the text is not ASCII: a comma followed by a combining mark is
    /// no separator to `String.split`, so such text takes the general path.
    package func setMask(utf8 bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        withUnsafePointer(to: self) { LiteralTable.setMask(in: $0, utf8: bytes) }
    }

    /// `setMask(utf8:)` of the table `table` points to, read where it lies.
    package static func setMask(in table: UnsafePointer<LiteralTable>, utf8 bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var mask: UInt64 = 0
        var start = 0
        var index = 0
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == UInt8(ascii: ",") {
                let id = LiteralTable.id(in: table, utf8: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                if id >= 0, id < 64 { mask |= 1 << UInt64(id) }
                start = index + 1
            } else if bytes[index] >= 0x80 {
                return nil
            }
            index += 1
        }
        return mask
    }
}

extension SemanticVersion {
    /// The packed form of the text `MAJOR.MINOR.PATCH` spelt by `bytes` (canonical numbers,
    /// each below 2^20), as `SemanticVersion(parsing:)` and `packed` give it; nil for any other
    /// text, which the full parse then reads (a `v` prefix, a pre-release, larger parts).
    static func packedRelease(utf8 bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var packed: UInt64 = 0
        var part: UInt64 = 0
        var digits = 0
        var parts = 0
        var leadingZero = false
        for index in 0...bytes.count {
            if index == bytes.count || bytes[index] == UInt8(ascii: ".") {
                guard digits > 0, !(leadingZero && digits > 1), part < 1 << 20, parts < 3 else { return nil }
                packed = packed << 20 | part
                parts += 1
                part = 0
                digits = 0
                continue
            }
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 8 else { return nil }
            if digits == 0 { leadingZero = byte == UInt8(ascii: "0") }
            part = part * 10 + UInt64(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return parts == 3 ? packed : nil
    }

    /// A release version whose parts are below 2^20, packed so that integer order is precedence
    /// order; nil for a pre-release or larger parts.
    var packed: UInt64? {
        guard preRelease.isEmpty, let major = UInt64(major), let minor = UInt64(minor), let patch = UInt64(patch),
              major < 1 << 20, minor < 1 << 20, patch < 1 << 20 else { return nil }
        return major << 40 | minor << 20 | patch
    }
}
