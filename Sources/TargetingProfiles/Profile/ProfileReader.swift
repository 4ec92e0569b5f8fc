import TargetingBase

/// Why a profile was rejected.
public struct ProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A lowercase message naming the key and the rule, e.g. "custom attribute `bio`: value is longer than 50 characters".
    public package(set) var message: String

    /// The message.
    public var description: String { message }

    package init(message: String) {
        self.message = message
    }
}

/// Reads profiles from JSON, applying Adapty's custom-attribute rules.
package enum ProfileReader {
    /// Reads one profile from a JSON line (bytes); a syntax error or a broken rule rejects it.
    package static func read(_ bytes: some Collection<UInt8>) -> Result<Profile, ProfileError> {
        switch JSONParser.parse(bytes) {
        case .failure(let error):
            // A record of a JSON Lines file is one line; a profile file may be pretty-printed.
            let place = error.line > 1 ? "line \(error.line), column \(error.column)" : "column \(error.column)"
            return .failure(ProfileError(message: "invalid JSON at \(place): \(error.message)"))
        case .success(let value):
            return read(value)
        }
    }

    /// Reads one profile from a parsed JSON value; a rejection names the profile (its `id`),
    /// the key and the rule.
    package static func read(_ value: JSONValue) -> Result<Profile, ProfileError> {
        switch readUnnamed(value) {
        case .success(let profile): return .success(profile)
        case .failure(let error):
            guard case .string(let id)? = value["id"] else { return .failure(error) }
            return .failure(ProfileError(message: "profile `\(id)`: " + error.message))
        }
    }

    static func readUnnamed(_ value: JSONValue) -> Result<Profile, ProfileError> {
        guard case .object(let members) = value else {
            return .failure(ProfileError(message: "a profile must be a JSON object, found \(value.typeName)"))
        }
        var profile = Profile()
        for member in members {
            if member.key == "custom_attributes" {
                switch member.value {
                case .null:
                    continue
                case .object(let attributes):
                    if let error = readCustomAttributes(attributes, into: &profile) { return .failure(error) }
                default:
                    return .failure(ProfileError(message: "`custom_attributes` must be an object, found \(member.value.typeName)"))
                }
            } else if member.key == "history" {
                guard profile.history == nil else { return .failure(ProfileError(message: "`history` appears twice")) }
                if case .null = member.value { continue }
                switch ProfileHistory.read(member.value) {
                case .failure(let error): return .failure(error)
                case .success(let history): profile.history = history
                }
            } else {
                profile.fields.append(member)
            }
        }
        return .success(profile)
    }

    static func readCustomAttributes(_ attributes: [JSONMember], into profile: inout Profile) -> ProfileError? {
        var seen: Set<String> = []
        for member in attributes {
            let key = AdaptyLimits.trimmed(member.key)
            guard AdaptyLimits.isValidKey(key) else {
                return ProfileError(message: "custom attribute key `\(member.key)` is invalid: a key is 1–30 characters from `A–Z a–z 0–9 . _ -`")
            }
            guard seen.insert(key).inserted else {
                return ProfileError(message: "custom attribute key `\(key)` appears twice (after trimming)")
            }
            switch storedValue(member.value) {
            case .failure(let reason):
                return ProfileError(message: "custom attribute `\(key)`: \(reason.message)")
            case .success(let value):
                if let value { profile.setCustom(key, value) }
            }
        }
        if profile.customKeys.count > AdaptyLimits.maxAttributes {
            return ProfileError(message: "profile has \(profile.customKeys.count) custom attributes; at most \(AdaptyLimits.maxAttributes) are allowed")
        }
        return nil
    }

    /// The stored form of a JSON value given for a custom attribute: nil means "remove".
    package static func storedValue(_ value: JSONValue) -> Result<CustomValue?, ProfileError> {
        switch value {
        case .null:
            return .success(nil)
        case .bool(let flag):
            return .success(.number(flag ? 1 : 0))
        case .number(let number):
            guard number.isFinite else { return .failure(ProfileError(message: "a number must be finite")) }
            return .success(.number(number))
        case .string(let raw):
            return storedString(AdaptyLimits.trimmed(raw))
        case .array(let items):
            var parts: [String] = []
            for item in items {
                guard case .string(let text) = item else {
                    return .failure(ProfileError(message: "a set must be an array of strings, found \(item.typeName)"))
                }
                parts.append(text)
            }
            // Joined first, then trimmed and checked as the string it is stored as.
            return storedString(AdaptyLimits.trimmed(parts.joined(separator: ",")))
        case .object:
            return .failure(ProfileError(message: "a value must be a string or a number, found object"))
        }
    }

    static func storedString(_ text: String) -> Result<CustomValue?, ProfileError> {
        if text.isEmpty { return .success(nil) }
        let length = AdaptyLimits.length(text)
        guard length <= AdaptyLimits.maxValueLength else {
            return .failure(ProfileError(message: "value is \(length) characters long; at most \(AdaptyLimits.maxValueLength) are allowed"))
        }
        return .success(.string(text))
    }
}
