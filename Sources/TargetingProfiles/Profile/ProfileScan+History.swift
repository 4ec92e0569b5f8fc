import TargetingBase

extension ProfileScan {
    /// Reads a `history` object at `cursor` as `ProfileHistory.read` reads the same JSON, or nil
    /// when it is outside the scanned subset (keys or strings with escapes, non-ASCII keys, any
    /// other shape) or invalid: the caller then leaves the line to `ProfileReader`, which gives
    /// the message. Instants are kept as `ProfileHistory.listPlacement` keeps them.
    static func history(_ cursor: inout ScanCursor) -> ProfileHistory? {
        var history = ProfileHistory()
        var sawShown = false, sawAssigned = false
        let read = cursor.object { cursor, key in
            if cursor.equals(key, "shown"), !sawShown {
                sawShown = true
                return cursor.object { cursor, key in shownPlacement(&cursor, key, into: &history) }
            }
            if cursor.equals(key, "assigned"), !sawAssigned {
                sawAssigned = true
                return cursor.object { cursor, key in assignment(&cursor, key, into: &history) }
            }
            return false
        }
        return read ? history : nil
    }

    /// One placement of `history.shown`: its list of at most `maxShown` instants.
    private static func shownPlacement(_ cursor: inout ScanCursor, _ key: Range<Int>, into history: inout ProfileHistory) -> Bool {
        guard !key.isEmpty, cursor.take(UInt8(ascii: "[")) else { return false }
        let placement = text(cursor.bytes, key)
        guard !history.shown.contains(where: { $0.placement == placement }) else { return false }
        var instants: [Int64] = []
        if !cursor.take(UInt8(ascii: "]")) {
            instants.reserveCapacity(16)
            repeat {
                guard instants.count < ProfileHistory.maxShown else { return false }
                if let at = canonicalInstant(&cursor) {
                    instants.append(at)
                    continue
                }
                guard cursor.peek == UInt8(ascii: "\""), let item = cursor.string(), let at = instant(cursor.bytes, item) else { return false }
                instants.append(at)
            } while cursor.take(UInt8(ascii: ","))
            guard cursor.take(UInt8(ascii: "]")) else { return false }
        }
        history.listPlacement(placement, instants: instants)
        return true
    }

    /// One experiment of `history.assigned`: `{"variant": …, "at": …}`.
    private static func assignment(_ cursor: inout ScanCursor, _ key: Range<Int>, into history: inout ProfileHistory) -> Bool {
        guard !key.isEmpty else { return false }
        let experiment = text(cursor.bytes, key)
        guard history.assignment(of: experiment) == nil else { return false }
        var variant: String?
        var at: Int64?
        let read = cursor.object { cursor, field in
            guard cursor.peek == UInt8(ascii: "\""), let value = cursor.string() else { return false }
            if cursor.equals(field, "variant"), variant == nil, !value.isEmpty {
                variant = text(cursor.bytes, value)
            } else if cursor.equals(field, "at"), at == nil, let instant = instant(cursor.bytes, value) {
                at = instant
            } else {
                return false
            }
            return true
        }
        guard read, let variant, let at else { return false }
        history.recordAssignment(experiment, variant: variant, at: at)
        return true
    }

    /// A string of the form the store writes, `"YYYY-MM-DDTHH:MM:SSZ"`, read without walking it
    /// twice; nil (the cursor unmoved) for any other string, which the general path reads. Every
    /// byte of such an instant is a digit or a separator `Timestamp.parseWholeSecondsUTC` checks,
    /// so no escape or control character can hide in it.
    private static func canonicalInstant(_ cursor: inout ScanCursor) -> Int64? {
        let start = cursor.index
        let bytes = cursor.bytes
        guard start + 22 <= bytes.count, bytes[start] == UInt8(ascii: "\""), bytes[start + 21] == UInt8(ascii: "\""),
              let at = Timestamp.parseWholeSecondsUTC(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(start + 21)])) else { return nil }
        cursor.index = start + 22
        cursor.skipSpace()
        return at
    }

    /// The instant a scanned string holds, as `ProfileHistory.instant` reads it.
    private static func instant(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
        guard range.count > 10 else { return nil }
        return Timestamp.parse(utf8: UnsafeBufferPointer(rebasing: bytes[range]))
    }
}

extension ScanCursor {
    /// An object at the cursor, `{}` or `{"key": value, …}`: after each key and its `:`,
    /// `member` reads the value. False when `member` does, or the object is malformed.
    mutating func object(_ member: (inout ScanCursor, Range<Int>) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = key(), take(UInt8(ascii: ":")), member(&self, key) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }
}
