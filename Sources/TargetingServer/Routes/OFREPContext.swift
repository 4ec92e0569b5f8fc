import TargetingBase
import TargetingProfiles

/// An OpenFeature evaluation context read as a profile: `targetingKey` is `id`, a key named
/// as a built-in field is that field, `history` is the shown history, and every other key is
/// a custom attribute stored as ingest stores it (`true` is 1, a list of strings is a set).
package enum OFREPContext {
    package static func profile(_ context: JSONValue) -> Result<Profile, ProfileError> {
        guard let members = context.objectMembers else {
            return .failure(ProfileError(message: "`context` must be an object, found \(context.typeName)"))
        }
        var fields: [JSONMember] = []
        var custom: [JSONMember] = []
        var targetingKey: JSONValue?
        for member in members {
            if member.key == "targetingKey" {
                guard case .string = member.value else {
                    return .failure(ProfileError(message: "`targetingKey` must be a string, found \(member.value.typeName)"))
                }
                targetingKey = member.value
            } else if member.key == "history" || BuiltinField.all[member.key] != nil {
                fields.append(member)
            } else {
                custom.append(member)
            }
        }
        if let targetingKey {
            if let id = fields.first(where: { $0.key == "id" }), id.value != targetingKey {
                return .failure(ProfileError(message: "`targetingKey` and `id` name different profiles"))
            }
            fields.removeAll { $0.key == "id" }
            fields.insert(JSONMember(key: "id", value: targetingKey), at: 0)
        }
        if !custom.isEmpty { fields.append(JSONMember(key: "custom_attributes", value: .object(custom))) }
        return ProfileReader.read(.object(fields))
    }
}
