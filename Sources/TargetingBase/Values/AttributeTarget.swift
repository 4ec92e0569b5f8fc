/// An attribute of a profile: a custom attribute key or a built-in field of the profile (README, *Profiles*).
public enum AttributeTarget: Hashable, Sendable {
    /// A custom attribute key.
    case custom(String)
    /// A built-in profile field (the name after `profile.` in rules).
    case builtin(String)
}

extension AttributeTarget {
    /// What a built-in field is written after.
    package static let builtinPrefix = "profile."

    /// Reads a name as written on the left of a comparison: text beginning with `profile.` is
    /// the built-in field named by the rest, any other text a custom key.
    ///
    /// Returns nil only for the empty name. Nothing else is checked: `profile.` alone reads as
    /// the built-in field `""`, and whether a key is valid or a field exists is the checker's
    /// to say. A custom key that itself begins with `profile.` (written in backticks in rules)
    /// reads back as a built-in field, so `AttributeTarget(written: target.written) == target`
    /// for every target except those.
    package init?(written: some StringProtocol) {
        guard !written.isEmpty else { return nil }
        if AttributeTarget.isBuiltinSpelling(written) {
            self = .builtin(String(written.dropFirst(AttributeTarget.builtinPrefix.count)))
        } else {
            self = .custom(String(written))
        }
    }

    /// As written on the left of a comparison, without quotes: `profile.birthday` for a
    /// built-in field, the key for a custom attribute.
    package var written: String {
        switch self {
        case .custom(let key): key
        case .builtin(let field): AttributeTarget.builtinPrefix + field
        }
    }

    /// The key of a custom attribute or the field of a built-in one (`birthday` for
    /// `profile.birthday`): the name without `profile.`.
    package var bareName: String {
        switch self {
        case .custom(let key): key
        case .builtin(let field): field
        }
    }

    /// Whether `name` is written as a built-in field: it begins with `profile.`.
    package static func isBuiltinSpelling(_ name: some StringProtocol) -> Bool {
        name.hasPrefix(builtinPrefix)
    }
}

extension AttributeTarget: CustomStringConvertible {
    /// As written on the left of a comparison: `profile.birthday` for a built-in field, the key
    /// for a custom attribute.
    public var description: String { written }
}
