import TargetingBase

/// A user profile: built-in fields read from its JSON object as needed, and custom
/// attributes validated against Adapty's storage rules.
public struct Profile: Hashable, Sendable {
    /// Every top-level member except `custom_attributes`, in input order (unknown fields kept).
    package var fields: [JSONMember]
    /// Custom attributes by (trimmed) key, in input order of first appearance.
    public private(set) var customAttributes: [String: CustomValue]
    /// Keys of `customAttributes` in order.
    package private(set) var customKeys: [String]
    /// What the user was shown (the reserved key `history`), or nil when the profile has none.
    package var history: ProfileHistory?

    /// An empty profile.
    public init() {
        fields = []
        customAttributes = [:]
        customKeys = []
    }

    /// The profile id (`id`), when it is a string.
    public var id: String? { self["id"]?.stringValue }

    /// The built-in field `name`, or nil when absent or `null`.
    public subscript(name: String) -> JSONValue? {
        for member in fields where member.key == name {
            if case .null = member.value { return nil }
            return member.value
        }
        return nil
    }

    /// Sets (or with nil removes) a built-in field; a new field goes at the end.
    package mutating func setField(_ name: String, _ value: JSONValue?) {
        if let index = fields.firstIndex(where: { $0.key == name }) {
            if let value { fields[index].value = value } else { fields.remove(at: index) }
        } else if let value {
            fields.append(JSONMember(key: name, value: value))
        }
    }

    /// Sets (or with nil removes) a custom attribute without checking limits.
    package mutating func setCustom(_ key: String, _ value: CustomValue?) {
        if let value {
            if customAttributes.updateValue(value, forKey: key) == nil { customKeys.append(key) }
        } else if customAttributes.removeValue(forKey: key) != nil {
            customKeys.removeAll { $0 == key }
        }
    }

    /// The profile as a JSON object: its fields, then `custom_attributes` (omitted when empty
    /// and absent before), then `history` when it has one.
    package var json: JSONValue {
        var members = fields
        if !customKeys.isEmpty {
            members.append(JSONMember(key: "custom_attributes", value: .object(customKeys.map { JSONMember(key: $0, value: customAttributes[$0]!.json) })))
        }
        if let history { members.append(JSONMember(key: "history", value: history.json)) }
        return .object(members)
    }
}

extension Profile {
    /// Whether `other` holds the same fields, custom attributes and history, in any order (as JSON
    /// objects compare): a store keeps a line whose profile ends equivalent to what it held.
    package func hasSameContent(as other: Profile) -> Bool {
        guard customAttributes == other.customAttributes, history == other.history, fields.count == other.fields.count else { return false }
        var byKey: [String: JSONValue] = [:]
        for member in other.fields { byKey[member.key] = member.value }
        return fields.allSatisfy { byKey[$0.key] == $0.value }
    }
}
