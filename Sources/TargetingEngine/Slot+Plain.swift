import TargetingBase

extension Slot {
    /// The slot's plain value, as `FastValue(read(from: profile, now: now), table: table)` gives
    /// it, read without building a `String` or a `SlotValue` where the type allows: text is
    /// matched against the slot's literals by its bytes, and a set's members by theirs.
    ///
    /// It reads the slot and the profile through pointers, so neither is copied.
    package static func readPlain<Source: SlotSource>(_ slot: UnsafePointer<Slot>, from profile: UnsafePointer<Source>, now: Int64,
                                                   table: UnsafePointer<LiteralTable>) -> FastValue {
        switch slot.pointee.plainRead {
        case .custom:
            let type = slot.pointee.type
            let plain: FastValue? = Source.withCustomPlain(profile, slot) { stored in
                switch (stored, type) {
                case (.missing, _): return FastValue(tag: .missing)
                case (.text(let bytes), .string), (.text(let bytes), nil): return FastValue(literal: LiteralTable.id(in: table, utf8: bytes))
                case (.text(let bytes), .set): return LiteralTable.setMask(in: table, utf8: bytes).map { FastValue(setBits: $0) }
                case (.text(let bytes), .version): return SemanticVersion.packedRelease(utf8: bytes).map { FastValue(version: $0) }
                case (.number(let number), .number), (.number(let number), nil): return FastValue(number: number)
                case (.number(let number), .bool), (.number(let number), .date):
                    return FastValue(Slot.view(.number(number), as: type), table: table)
                // Mistyped, or not plain: the full read decides.
                case (.text, .number), (.text, .bool), (.text, .date), (.number, .string), (.number, .version), (.number, .set), (.other, _):
                    return nil
                }
            }
            if let plain { return plain }
        case .derived(let rule):
            // Set exactly when the source is a date string, as `Slot.builtin` reads it.
            return Source.withFieldPlain(profile, slot) { stored in
                guard case .text(let bytes) = stored, let ms = Timestamp.parse(utf8: bytes) else { return FastValue(tag: .missing) }
                return FastValue(number: Double(rule.value(sourceMs: ms, nowMs: now)))
            }
        case .builtin:
            let type = slot.pointee.builtinType
            guard type == .string || type == .number || type == .version else { break }
            let plain: FastValue? = Source.withFieldPlain(profile, slot) { stored in
                switch (stored, type) {
                case (.missing, _): return FastValue(tag: .missing)
                case (.text(let bytes), .string): return FastValue(literal: LiteralTable.id(in: table, utf8: bytes))
                case (.text(let bytes), .version): return SemanticVersion.packedRelease(utf8: bytes).map { FastValue(version: $0) }
                case (.number(let number), .number): return FastValue(number: number)
                case (.text, .number), (.text, .bool), (.text, .date), (.text, .set), (.number, .string), (.number, .bool),
                     (.number, .date), (.number, .version), (.number, .set), (.other, _):
                    return FastValue(tag: .mistyped)
                }
            }
            if let plain { return plain }
        case .history:
            break  // read from the history, in full
        }
        return FastValue(slot.pointee.read(from: profile.pointee, now: now), table: table)
    }
}

extension FastValue {
    init(tag: Tag) {
        self.init()
        self.tag = tag
    }

    /// A string whose literal id is `literal` (-1: not a literal of the slot).
    init(literal: Int32) {
        self.init()
        tag = .string
        self.literal = literal
    }

    init(number: Double) {
        self.init()
        tag = .number
        self.number = number
    }

    /// A release version packed as `SemanticVersion.packed` packs it.
    init(version: UInt64) {
        self.init()
        tag = .version
        bits = version
    }

    /// A set whose members' literal ids are the bits of `setBits`.
    init(setBits: UInt64) {
        self.init()
        tag = .set
        bits = setBits
    }
}
