import TargetingBase

/// A profile line read without building a JSON tree: where each top-level member and each
/// stored custom attribute sits in the line's bytes.
///
/// The scan accepts a common subset of profile lines and checks that subset exactly as
/// `ProfileReader` does: keys of visible ASCII without escapes; values that are
/// strings without escapes, numbers, `true`, `false` or `null`, or at the top level arrays of
/// such strings; `custom_attributes` an object (or `null`) whose keys need no trimming, whose
/// strings need no trimming and fit the length limit, and whose values are strings, numbers,
/// booleans or nulls; `history` an object (or `null`) in the form `ProfileHistory` writes, with
/// keys and strings as above. Any other line, valid or not, fails the scan, and the caller reads it
/// with `ProfileReader`, which accepts it or rejects it with its message. So a scan never
/// accepts a line the reader rejects, and never reads a value differently.
///
/// One scan is reused line after line: its member lists keep their capacity.
package struct ProfileScan: Sendable {
    /// What a value is.
    package enum Kind: UInt8, Sendable {
        /// A string; `value` is its content, between the quotes.
        case string
        /// A number; `number` holds it.
        case number
        /// `true` or `false` (a custom attribute stores these as the numbers 1 and 0).
        case bool
        /// `null`.
        case null
        /// An array of strings; `value` is what lies between the brackets.
        case stringArray
    }

    /// One member: byte ranges into the scanned line.
    package struct Member: Sendable {
        /// The key, between its quotes.
        package var key: Range<Int>
        /// The value (see `Kind`).
        package var value: Range<Int>
        package var kind: Kind
        /// The number, for `.number`; 1 or 0 for `.bool`.
        package var number: Double
    }

    /// The top-level members except `custom_attributes`, in input order.
    package private(set) var fields: [Member] = []
    /// The stored custom attributes (`null` and empty strings store nothing), in input order.
    package private(set) var customAttributes: [Member] = []
    /// Every custom attribute key seen, stored or not (for the duplicate check).
    private var customKeys: [Range<Int>] = []
    /// The line's `history`, read and checked as `ProfileHistory.read` reads it; nil without one
    /// (or for `null`).
    package internal(set) var history: ProfileHistory?

    /// More top-level members than this are left to `ProfileReader` (the duplicate check here is a linear scan).
    static let maxFields = 64

    package init() {}

    /// Scans `bytes` as one profile; false when the line is outside the subset (or invalid).
    package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        fields.removeAll(keepingCapacity: true)
        customAttributes.removeAll(keepingCapacity: true)
        customKeys.removeAll(keepingCapacity: true)
        history = nil
        var cursor = ScanCursor(bytes: bytes)
        guard cursor.take(UInt8(ascii: "{")) else { return false }
        var sawCustomAttributes = false
        var sawHistory = false
        if !cursor.take(UInt8(ascii: "}")) {
            repeat {
                guard let key = cursor.key(), cursor.take(UInt8(ascii: ":")) else { return false }
                if cursor.equals(key, "history") {
                    guard !sawHistory else { return false }
                    sawHistory = true
                    if cursor.peek == UInt8(ascii: "{") {
                        guard let read = ProfileScan.history(&cursor) else { return false }
                        history = read
                    } else {
                        guard let member = cursor.value(key: key, arrays: false), member.kind == .null else { return false }
                    }
                    continue
                }
                if cursor.equals(key, "custom_attributes") {
                    guard !sawCustomAttributes else { return false }
                    sawCustomAttributes = true
                    if cursor.peek == UInt8(ascii: "{") {
                        guard scanCustomAttributes(&cursor) else { return false }
                    } else {
                        guard let member = cursor.value(key: key, arrays: true), member.kind == .null else { return false }
                    }
                    continue
                }
                guard fields.count < ProfileScan.maxFields,
                      !fields.contains(where: { cursor.equals($0.key, key) }),
                      let member = cursor.value(key: key, arrays: true) else { return false }
                fields.append(member)
            } while cursor.take(UInt8(ascii: ","))
            guard cursor.take(UInt8(ascii: "}")) else { return false }
        }
        return cursor.atEnd
    }

    private mutating func scanCustomAttributes(_ cursor: inout ScanCursor) -> Bool {
        guard cursor.take(UInt8(ascii: "{")) else { return false }
        if cursor.take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = cursor.key(), cursor.isValidCustomKey(key), cursor.take(UInt8(ascii: ":")),
                  customKeys.count < AdaptyLimits.maxAttributes * 2,
                  !customKeys.contains(where: { cursor.equals($0, key) }),
                  let member = cursor.value(key: key, arrays: false) else { return false }
            customKeys.append(key)
            switch member.kind {
            case .null: continue
            case .string:
                if member.value.isEmpty { continue }
                guard cursor.needsNoTrimming(member.value), cursor.scalarCount(member.value) <= AdaptyLimits.maxValueLength else { return false }
            case .number, .bool: break
            case .stringArray: return false
            }
            customAttributes.append(member)
        } while cursor.take(UInt8(ascii: ","))
        return cursor.take(UInt8(ascii: "}")) && customAttributes.count <= AdaptyLimits.maxAttributes
    }

    /// The top-level member `name` (compared by bytes), if present.
    package func field(_ name: String, in bytes: UnsafeBufferPointer<UInt8>) -> Member? {
        ProfileScan.first(of: fields, named: name, in: bytes)
    }

    /// The stored custom attribute `key`, if present.
    package func customAttribute(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> Member? {
        ProfileScan.first(of: customAttributes, named: key, in: bytes)
    }

    /// Calls `body` with a pointer to the scan and its top-level members and stored custom
    /// attributes as buffers, all borrowed for the call: lookups through them
    /// (`first(in:named:in:)`) retain nothing.
    package mutating func withMembers<R>(_ body: (_ scan: UnsafePointer<ProfileScan>, _ fields: UnsafeBufferPointer<Member>,
                                                  _ customAttributes: UnsafeBufferPointer<Member>) -> R) -> R {
        withUnsafeMutablePointer(to: &self) { scan in
            scan.pointee.fields.withUnsafeBufferPointer { fields in
                scan.pointee.customAttributes.withUnsafeBufferPointer { customAttributes in body(scan, fields, customAttributes) }
            }
        }
    }

    /// The first of `members` whose key is `name`, the name's bytes taken once for all of them.
    static func first(of members: [Member], named name: String, in bytes: UnsafeBufferPointer<UInt8>) -> Member? {
        members.withUnsafeBufferPointer { first(in: $0, named: name, in: bytes) }
    }

    /// The first of `members` whose key is `name`.
    package static func first(in members: UnsafeBufferPointer<Member>, named name: String, in bytes: UnsafeBufferPointer<UInt8>) -> Member? {
        // The name's own storage when it has one (every native string does), without the copy
        // `withUTF8` makes of its receiver.
        if let found = name.utf8.withContiguousStorageIfAvailable({ first(in: members, named: $0, in: bytes) }) { return found }
        var copy = name
        return copy.withUTF8 { first(in: members, named: $0, in: bytes) }
    }

    /// The first of `members` whose key (in `bytes`) is spelt `name`.
    @inline(__always)
    package static func first(in members: UnsafeBufferPointer<Member>, named name: UnsafeBufferPointer<UInt8>,
                              in bytes: UnsafeBufferPointer<UInt8>) -> Member? {
        for member in members where ScanCursor.same(bytes, member.key, name) { return member }
        return nil
    }

    /// The profile id (`id`) among `fields`, when it is a string.
    package static func id(in fields: UnsafeBufferPointer<Member>, _ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let name: StaticString = "id"
        guard let member = first(in: fields, named: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), in: bytes),
              member.kind == .string else { return nil }
        return text(bytes, member.value)
    }

    /// The top-level field `name` as `Profile`'s subscript gives it (nil when absent or `null`).
    package func fieldValue(_ name: String, in bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        field(name, in: bytes).flatMap { value(of: $0, in: bytes) }
    }

    /// A top-level member's value (nil for `null`).
    func value(of member: Member, in bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        ProfileScan.value(of: member, in: bytes)
    }

    /// A scanned member's value as `JSONParser` reads it, except nil for `null`.
    package static func value(of member: Member, in bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        switch member.kind {
        case .null: return nil
        case .bool: return .bool(member.number == 1)
        case .number: return .number(member.number)
        case .string: return .string(ProfileScan.text(bytes, member.value))
        case .stringArray:
            var items: [JSONValue] = []
            var index = member.value.lowerBound
            while index < member.value.upperBound {
                guard bytes[index] == UInt8(ascii: "\"") else { index += 1; continue }
                var end = index + 1
                while bytes[end] != UInt8(ascii: "\"") { end += 1 }
                items.append(.string(ProfileScan.text(bytes, (index + 1)..<end)))
                index = end + 1
            }
            return .array(items)
        }
    }

    /// The stored custom attribute `key` as `Profile.customAttributes` holds it.
    package func customValue(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> CustomValue? {
        guard let member = customAttribute(key, in: bytes) else { return nil }
        return member.kind == .string ? .string(ProfileScan.text(bytes, member.value)) : .number(member.number)
    }

    /// The scanned line as a `Profile`: the one `ProfileReader` reads from it, built without a JSON tree.
    package func profile(in bytes: UnsafeBufferPointer<UInt8>) -> Profile {
        var profile = Profile()
        profile.fields.reserveCapacity(fields.count)
        for member in fields {
            let key = ProfileScan.text(bytes, member.key)
            profile.fields.append(JSONMember(key: key, value: value(of: member, in: bytes) ?? .null))
        }
        for member in customAttributes {
            let value: CustomValue = member.kind == .string ? .string(ProfileScan.text(bytes, member.value)) : .number(member.number)
            profile.setCustom(ProfileScan.text(bytes, member.key), value)
        }
        profile.history = history
        return profile
    }

    /// The profile id (`id`), when it is a string.
    package func id(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        fields.withUnsafeBufferPointer { ProfileScan.id(in: $0, bytes) }
    }

    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}

/// A position in the scanned bytes, skipping JSON white space between tokens (shared by
/// `ProfileScan` and `EventScan`).
struct ScanCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        skipSpace()
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    var atEnd: Bool { index == bytes.count }

    /// Consumes `byte` (and the space after it) if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        skipSpace()
        return true
    }

    /// A key: a string of visible ASCII without escapes.
    mutating func key() -> Range<Int>? {
        guard peek == UInt8(ascii: "\""), let base = bytes.baseAddress else { return nil }
        // Visible ASCII up to the first byte that is not; it must be the closing quote.
        let end = ScanCursor.firstSpecial(base, from: index + 1, to: bytes.count, deleteIsSpecial: true)
        guard end < bytes.count, base[end] == UInt8(ascii: "\"") else { return nil }
        let range = (index + 1)..<end
        index = end + 1
        skipSpace()
        return range
    }

    /// The index of the first byte from `start` (before `end`) that a plain string cannot hold
    /// as is: `"`, `\\`, a control character, a byte of a multi-byte sequence, and with
    /// `deleteIsSpecial` DEL; `end` when there is none. Eight bytes are tested at a time.
    @inline(__always)
    static func firstSpecial(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, deleteIsSpecial: Bool) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        /// High bits of the bytes of `word` that are zero (exact for the lowest such byte).
        @inline(__always) func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word }
        var index = start
        while index + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            var flags = word  // bytes from 0x80
            flags |= (word &- ones &* 0x20) & ~word  // bytes below 0x20
            flags |= zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C))
            if deleteIsSpecial { flags |= zeroBytes(word ^ (ones &* 0x7F)) }
            flags &= highs
            // A borrow can only mark bytes after a marked one, so the lowest mark is exact.
            if flags != 0 { return index + flags.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < end {
            let byte = base[index]
            if byte < 0x20 || byte >= 0x80 || byte == 0x22 || byte == 0x5C || (deleteIsSpecial && byte == 0x7F) { return index }
            index += 1
        }
        return end
    }

    /// A value, ending at `,` `}` or `]` (the space after it consumed).
    mutating func value(key: Range<Int>, arrays: Bool) -> ProfileScan.Member? {
        guard let first = peek else { return nil }
        var member = ProfileScan.Member(key: key, value: index..<index, kind: .null, number: 0)
        switch first {
        case UInt8(ascii: "\""):
            guard let content = string() else { return nil }
            member.kind = .string
            member.value = content
        case UInt8(ascii: "["):
            guard arrays else { return nil }
            let start = index + 1
            index += 1
            skipSpace()
            var end = start
            if peek != UInt8(ascii: "]") {
                repeat {
                    guard peek == UInt8(ascii: "\""), let content = string() else { return nil }
                    end = content.upperBound + 1
                } while take(UInt8(ascii: ","))
            }
            guard take(UInt8(ascii: "]")) else { return nil }
            member.kind = .stringArray
            member.value = start..<max(start, end)
            return member
        case UInt8(ascii: "t"):
            guard literal("true") else { return nil }
            member.kind = .bool
            member.number = 1
        case UInt8(ascii: "f"):
            guard literal("false") else { return nil }
            member.kind = .bool
        case UInt8(ascii: "n"):
            guard literal("null") else { return nil }
        default:
            guard let (number, end) = JSONParser.number(in: bytes, at: index) else { return nil }
            member.kind = .number
            member.number = number
            member.value = index..<end
            index = end
            skipSpace()
        }
        return member
    }

    /// A string without escapes or control characters, of well-formed UTF-8: its content range.
    mutating func string() -> Range<Int>? {
        guard let base = bytes.baseAddress else { return nil }
        var end = index + 1
        while true {
            end = ScanCursor.firstSpecial(base, from: end, to: bytes.count, deleteIsSpecial: false)
            guard end < bytes.count else { return nil }
            let byte = base[end]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 || byte == UInt8(ascii: "\\") { return nil }
            guard let next = UTF8Validation.endOfSequence(in: bytes, at: end) else { return nil }
            end = next
        }
        let range = (index + 1)..<end
        index = end + 1
        skipSpace()
        return range
    }

    /// Consumes the keyword `word`, which must end at a delimiter.
    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        skipSpace()
        switch peek {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): return true
        default: return false
        }
    }

    func equals(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        ScanCursor.same(bytes, lhs, UnsafeBufferPointer(rebasing: bytes[rhs]))
    }

    func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        ScanCursor.same(bytes, range, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether the bytes at `range` of `bytes` are `other`'s, compared byte by byte.
    @inline(__always)
    static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard range.count == other.count, let base = bytes.baseAddress, let start = other.baseAddress else { return range.count == other.count }
        let first = base + range.lowerBound
        var index = 0
        while index < other.count {
            if first[index] != start[index] { return false }
            index += 1
        }
        return true
    }

    /// A custom attribute key as stored: 1–30 characters from `A–Z a–z 0–9 . _ -` (so nothing to trim).
    func isValidCustomKey(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty, range.count <= AdaptyLimits.maxKeyLength else { return false }
        // The allowed bytes as bits: `- . 0–9` below 64, `A–Z _ a–z` from 64.
        let low: UInt64 = 0x03FF_6000_0000_0000, high: UInt64 = 0x07FF_FFFE_87FF_FFFE
        for byte in bytes[range] {
            let mask = byte < 64 ? low : high
            guard byte < 128, mask >> UInt64(byte & 63) & 1 == 1 else { return false }
        }
        return true
    }

    /// Whether a non-empty string starts and ends with visible ASCII, so trimming leaves it as is.
    func needsNoTrimming(_ range: Range<Int>) -> Bool {
        let first = bytes[range.lowerBound], last = bytes[range.upperBound - 1]
        return first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F
    }

    /// The number of Unicode scalars in well-formed UTF-8 `range` (bytes that start a scalar),
    /// counted eight bytes at a time.
    func scalarCount(_ range: Range<Int>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var continuations = 0
        var index = range.lowerBound
        while index + 8 <= range.upperBound {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // A continuation byte is 10xxxxxx: its high bit set and the next one clear.
            continuations += (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
            index += 8
        }
        while index < range.upperBound {
            if base[index] & 0xC0 == 0x80 { continuations += 1 }
            index += 1
        }
        return range.count - continuations
    }
}
