import TargetingBase
import TargetingProfiles
import TargetingSyntax

/// A profile value read once per profile in the type a comparison needs.
package enum SlotValue: Hashable, Sendable {
    /// The attribute is absent (or `null`).
    case missing
    /// Present, but does not fit the type (every comparison but `is set` is false).
    case mistyped
    case string(String)
    case number(Double)
    case bool(Bool)
    case date(Int64)
    case version(SemanticVersion)
    case set([String])

    /// Whether a value is present, fitting or not.
    package var isPresent: Bool { self != .missing }
}

/// Which attribute a slot reads, and as what type.
package struct Slot: Hashable, Sendable {
    /// The attribute.
    package let target: AttributeReference.Target
    /// The type to read it as (nil: only presence matters).
    package let type: ValueType?
    /// For a built-in field: its recipe when derived, and the type it is read as.
    let derived: BuiltinField.Derived?
    let builtinType: ValueType
    /// How a plain read (`readPlain`, draw keys) takes the slot, decided once, so that a read
    /// switches over a payload-free case and copies no part of `target`.
    let plainRead: PlainRead
    /// The custom attribute's key or the built-in field's name; for a derived field, the
    /// stored field it is computed from.
    let plainName: String
    /// `plainName`'s bytes held in the slot, for reads that compare bytes (nil when too long).
    let plainUTF8: InlineName?

    /// How a plain read takes a slot.
    enum PlainRead: Sendable {
        case custom
        case builtin
        /// A built-in field computed from a stored date (`derived`).
        case derived(BuiltinField.Derivation)
        /// Read from the history, in full.
        case history
    }

    package init(target: AttributeReference.Target, type: ValueType?) {
        self.target = target
        self.type = type
        switch target {
        case .builtin(let field):
            let derivation = BuiltinField.derivation(of: field)
            derived = derivation
            builtinType = type ?? BuiltinField.all[field]?.type ?? .string
            plainRead = derivation.map { .derived($0.rule) } ?? .builtin
            plainName = derivation?.source ?? field
        case .custom(let key):
            derived = nil
            builtinType = .string
            plainRead = .custom
            plainName = key
        case .shownCount, .lastShown:
            derived = nil
            builtinType = .string
            plainRead = .history
            plainName = ""
        }
        plainUTF8 = InlineName(plainName)
    }

    package static func == (lhs: Slot, rhs: Slot) -> Bool { lhs.target == rhs.target && lhs.type == rhs.type }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(target)
        hasher.combine(type)
    }

    /// Reads the slot from a profile at time `now` (Unix ms).
    package func read(from profile: some SlotSource, now: Int64) -> SlotValue {
        switch target {
        case .custom(let key):
            guard let stored = profile.customValue(key) else { return .missing }
            return Slot.view(stored, as: type)
        case .builtin(let field):
            return Slot.builtin(field, in: profile, derived: derived, as: builtinType, now: now)
        case .shownCount(let placements, let window):
            // No history is a count of 0: zero showings are a fact, not a missing value.
            return .number(Double(profile.history?.count(of: placements, window: window, now: now) ?? 0))
        case .lastShown(let placements):
            return profile.history?.lastShown(placements).map(SlotValue.date) ?? .missing
        }
    }

    static func view(_ stored: CustomValue, as type: ValueType?) -> SlotValue {
        switch (stored, type) {
        case (.string(let text), .string), (.string(let text), nil): return .string(text)
        case (.number(let number), .number): return .number(number)
        case (.number(let number), nil): return .number(number)
        case (.number(let number), .bool):
            return number == 1 ? .bool(true) : number == 0 ? .bool(false) : .mistyped
        case (.number(let number), .date):
            guard number.isFinite, abs(number) < 9.0e15 else { return .mistyped }
            return .date(Int64(number.rounded(.down)))
        case (.string(let text), .version):
            return SemanticVersion(parsing: text).map(SlotValue.version) ?? .mistyped
        case (.string(let text), .set):
            return .set(text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
        case (.string, .number), (.string, .bool), (.string, .date), (.number, .string), (.number, .version), (.number, .set):
            return .mistyped
        }
    }

    static func builtin(_ field: String, in profile: some SlotSource, derived: BuiltinField.Derived?, as type: ValueType, now: Int64) -> SlotValue {
        if let derived {
            // Set exactly when computable: a source that is absent, mistyped or unparsable
            // leaves the derived field missing, not mistyped.
            guard let text = profile.field(derived.source)?.stringValue, let ms = Timestamp.parse(text) else { return .missing }
            return .number(Double(derived.rule.value(sourceMs: ms, nowMs: now)))
        }
        guard let value = profile.field(field) else { return .missing }
        switch type {
        case .string:
            if case .string(let text) = value { return .string(text) }
        case .number:
            if case .number(let number) = value { return .number(number) }
        case .date:
            if case .string(let text) = value { return Timestamp.parse(text).map(SlotValue.date) ?? .mistyped }
        case .version:
            if case .string(let text) = value { return SemanticVersion(parsing: text).map(SlotValue.version) ?? .mistyped }
        case .set:
            guard case .array(let items) = value else { break }
            var members: [String] = []
            for item in items {
                guard case .string(let text) = item else { return .mistyped }
                members.append(text)
            }
            return .set(members)
        case .bool:
            // No built-in field is a boolean.
            break
        }
        return .mistyped
    }
}
