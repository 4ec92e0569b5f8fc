import TargetingBase

/// A `profile_updated` line of an event file: built-in fields the app set on the profile,
/// forwarded in the same stream as the flow events, so a store can be built from events alone:
///
///     {"profile_id":"u1","name":"profile_updated","fields":{"customer_user_id":"c1","access_levels":["premium"]}}
///
/// Each field is checked against the built-in field table: a stored field (not `id`, which the
/// line's `profile_id` gives, and not a derived field such as `age`), of its type — a string for
/// text fields (one of the listed values where the field has a list), `YYYY-MM-DD` for
/// `birthday`, an RFC 3339 instant for the other dates, a parsable version, a finite number, an
/// array of strings for a set — or `null`, which removes the field. Custom attributes come from
/// `flow_user_input` events, not from here. One bad field rejects the whole line.
package struct ProfileUpdate: Hashable, Sendable {
    /// The event name of such a line.
    package static let eventName = "profile_updated"

    /// The fields to set (nil: remove), in the order given.
    package var fields: [(name: String, value: JSONValue?)]

    /// Reads the line's params; the failure is a lowercase reason naming the field.
    package static func read(_ params: JSONValue) -> Result<ProfileUpdate, ProfileError> {
        func reject(_ message: String) -> Result<ProfileUpdate, ProfileError> { .failure(ProfileError(message: message)) }
        guard let value = params["fields"] else { return reject("missing `fields`, the object of built-in fields to set") }
        guard case .object(let members) = value else { return reject("`fields` must be an object, found \(value.typeName)") }
        var fields: [(name: String, value: JSONValue?)] = []
        for member in members {
            if let problem = problem(member.key, member.value) { return reject(problem) }
            fields.append((member.key, member.value == .null ? nil : member.value))
        }
        return .success(ProfileUpdate(fields: fields))
    }

    /// What is wrong with setting built-in field `name` to `value`, or nil.
    static func problem(_ name: String, _ value: JSONValue) -> String? {
        guard let field = BuiltinField.all[name], !field.isDerived, name != "id" else {
            if name == "id" { return "`id` cannot be set here: the line's `profile_id` names the profile" }
            if BuiltinField.all[name]?.isDerived == true { return "`\(name)` is derived, never stored" }
            if name == "custom_attributes" { return "custom attributes come from `flow_user_input` events, not `profile_updated`" }
            if name == "history" { return "`history` comes from `placement_shown` events, not `profile_updated`" }
            let suggestion = Suggestion.nearest(to: name, in: BuiltinField.all.values.filter { !$0.isDerived && $0.name != "id" }.map(\.name))
            return "unknown built-in field `\(name)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? "")
        }
        if value == .null { return nil }
        let wrong = "`\(name)` must be "
        switch field.type {
        case .string:
            guard case .string(let text) = value else { return wrong + "a string, found \(value.typeName)" }
            if let allowed = field.allowed, !allowed.contains(text) {
                return wrong + "one of " + allowed.map { "`\($0)`" }.joined(separator: ", ") + ", found `\(text)`"
            }
        case .number:
            guard case .number(let number) = value, number.isFinite else { return wrong + "a finite number, found \(value.typeName)" }
        case .date:
            guard case .string(let text) = value else { return wrong + "a date string, found \(value.typeName)" }
            if field.isCalendarDate {
                if Timestamp.parseDate(text) == nil { return wrong + "a calendar date `YYYY-MM-DD`, found `\(text)`" }
            } else if Timestamp.parse(text) == nil {
                return wrong + "an RFC 3339 instant such as `2026-11-20T08:00:00Z`, found `\(text)`"
            }
        case .version:
            guard case .string(let text) = value else { return wrong + "a version string, found \(value.typeName)" }
            if SemanticVersion(parsing: text) == nil { return wrong + "a version such as `4.2.0`, found `\(text)`" }
        case .set:
            guard case .array(let items) = value, items.allSatisfy({ if case .string = $0 { true } else { false } }) else {
                return wrong + "an array of strings, found \(value.typeName)"
            }
        case .bool:
            guard case .bool = value else { return wrong + "a boolean, found \(value.typeName)" }
        }
        return nil
    }

    package static func == (left: ProfileUpdate, right: ProfileUpdate) -> Bool {
        left.fields.map(\.name) == right.fields.map(\.name) && left.fields.map(\.value) == right.fields.map(\.value)
    }

    package func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}

extension AnswerRecipient {
    /// Sets (or removes) each field of `update`, in order.
    package mutating func apply(_ update: ProfileUpdate) {
        for field in update.fields { setField(field.name, field.value) }
    }
}
