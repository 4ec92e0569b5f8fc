import TargetingBase
/// A built-in profile field of SPEC §2 as rules see it.
package struct BuiltinField: Hashable, Sendable {
    /// The JSON field name (also the name after `profile.` in rules).
    package var name: String
    /// The type rules compare it as.
    package var type: ValueType
    /// The allowed values of an enumerated string field.
    package var allowed: [String]?
    /// Whether the value is computed from other fields (`age`, `days_since_install`).
    package var isDerived: Bool

    /// Every built-in field, by name.
    package static let all: [String: BuiltinField] = {
        var table: [String: BuiltinField] = [:]
        func add(_ names: [String], _ type: ValueType, allowed: [String]? = nil, derived: Bool = false) {
            for name in names { table[name] = BuiltinField(name: name, type: type, allowed: allowed, isDerived: derived) }
        }
        add(["id", "customer_user_id", "email", "first_name", "last_name", "phone_number", "country", "store_country",
             "language", "device", "subscription_state", "subscription_product", "attribution_source",
             "attribution_channel", "attribution_campaign", "attribution_ad_group", "attribution_ad_set",
             "attribution_creative"], .string)
        add(["gender"], .string, allowed: ["f", "m", "o"])
        add(["platform"], .string, allowed: ["ios", "ipados", "macos", "visionos", "android"])
        add(["attribution_status"], .string, allowed: ["organic", "non_organic", "unknown"])
        add(["birthday", "created_at", "installed_at", "last_seen_at", "subscription_expires_at"], .date)
        add(["age", "days_since_install"], .number, derived: true)
        add(["total_revenue_usd"], .number)
        add(["os_version", "app_version", "install_app_version"], .version)
        add(["access_levels"], .set)
        return table
    }()

    /// The fields an `input` may write (those the SDK's profile builder sets).
    package static let inputTargets: [String] = ["email", "first_name", "last_name", "phone_number", "gender", "birthday"]
}
