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

    /// `field(_:in:)` of the scan `scan` points to. A method called on `pointer.pointee` copies
    /// the whole scan (a retain of each of its arrays) to call it; this reads only `fields`.
    package static func field(of scan: UnsafePointer<ProfileScan>, _ name: String, in bytes: UnsafeBufferPointer<UInt8>) -> Member? {
        first(of: scan.pointee.fields, named: name, in: bytes)
    }

    /// `customAttribute(_:in:)` of the scan `scan` points to, reading only `customAttributes`.
    package static func customAttribute(of scan: UnsafePointer<ProfileScan>, _ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> Member? {
        first(of: scan.pointee.customAttributes, named: key, in: bytes)
    }

    /// The first of `members` whose key is `name`, the name's bytes taken once for all of them.
    static func first(of members: [Member], named name: String, in bytes: UnsafeBufferPointer<UInt8>) -> Member? {
        // The name's own storage when it has one (every native string does), without the copy
        // `withUTF8` makes of its receiver.
        func search(_ utf8: UnsafeBufferPointer<UInt8>) -> Member? {
            members.withUnsafeBufferPointer { members in
                for member in members where ScanCursor.same(bytes, member.key, utf8) { return member }
                return nil
            }
        }
        if let found = name.utf8.withContiguousStorageIfAvailable(search) { return found }
        var copy = name
        return copy.withUTF8(search)
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
        guard let member = field("id", in: bytes), member.kind == .string else { return nil }
        return ProfileScan.text(bytes, member.value)
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
        guard peek == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        let range = (index + 1)..<end
        index = end + 1
        skipSpace()
        return range
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
        var end = index + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 || byte == UInt8(ascii: "\\") { return nil }
            if byte < 0x80 {
                end += 1
            } else {
                guard let next = UTF8Validation.endOfSequence(in: bytes, at: end) else { return nil }
                end = next
            }
        }
        guard end < bytes.count else { return nil }
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
        return bytes[range].allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }

    /// Whether a non-empty string starts and ends with visible ASCII, so trimming leaves it as is.
    func needsNoTrimming(_ range: Range<Int>) -> Bool {
        let first = bytes[range.lowerBound], last = bytes[range.upperBound - 1]
        return first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F
    }

    /// The number of Unicode scalars in well-formed UTF-8 `range` (bytes that start a scalar).
    func scalarCount(_ range: Range<Int>) -> Int {
        bytes[range].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}
