import TargetingBase

/// A built-in profile field as rules see it: the one table every stage reads
/// (evaluation, explanations, SQL, the analysis, the test builder, the input handler).
package struct BuiltinField: Hashable, Sendable {
    /// How a derived field is computed from a stored date field and the instant of evaluation.
    package enum Derivation: Hashable, Sendable {
        /// Whole years from the stored calendar date to the UTC calendar date of now (`age`).
        case wholeYears
        /// Whole days, the floor of elapsed time / 24 hours, from the stored instant to now
        /// (`days_since_install`; negative when the instant is in the future).
        case wholeDays

        /// The derived value for a stored instant `sourceMs` at `nowMs` (Unix ms).
        package func value(sourceMs: Int64, nowMs: Int64) -> Int64 {
            switch self {
            case .wholeYears: Int64(Timestamp.age(birthday: Timestamp.civilDate(ms: sourceMs), nowMs: nowMs))
            case .wholeDays: Int64(Timestamp.daysBetween(fromMs: sourceMs, toMs: nowMs))
            }
        }
    }

    /// A derived field's recipe: the stored field it reads and how.
    package struct Derived: Hashable, Sendable {
        /// The stored date field read (`birthday`, `installed_at`).
        package var source: String
        /// How the value follows from it.
        package var rule: Derivation
    }

    /// The JSON field name (also the name after `profile.` in rules).
    package var name: String
    /// The type rules compare it as.
    package var type: ValueType
    /// The allowed values of an enumerated string field.
    package var allowed: [String]?
    /// How the value is computed, for a field that is never stored (`age`, `days_since_install`).
    package var derived: Derived?
    /// Whether the field holds a calendar date `YYYY-MM-DD` rather than an RFC 3339 instant.
    package var isCalendarDate: Bool

    /// Whether the value is computed from another field.
    package var isDerived: Bool { derived != nil }

    /// Every built-in field, by name.
    package static let all: [String: BuiltinField] = {
        var table: [String: BuiltinField] = [:]
        func add(_ names: [String], _ type: ValueType, allowed: [String]? = nil, derived: Derived? = nil, calendarDate: Bool = false) {
            for name in names {
                table[name] = BuiltinField(name: name, type: type, allowed: allowed, derived: derived, isCalendarDate: calendarDate)
            }
        }
        add(["id", "customer_user_id", "email", "first_name", "last_name", "phone_number", "country", "store_country",
             "language", "device", "subscription_state", "subscription_product", "attribution_source",
             "attribution_channel", "attribution_campaign", "attribution_ad_group", "attribution_ad_set",
             "attribution_creative"], .string)
        add(["gender"], .string, allowed: ["f", "m", "o"])
        add(["platform"], .string, allowed: ["ios", "ipados", "macos", "visionos", "android"])
        add(["attribution_status"], .string, allowed: ["organic", "non_organic", "unknown"])
        add(["birthday"], .date, calendarDate: true)
        add(["created_at", "installed_at", "last_seen_at", "subscription_expires_at"], .date)
        add(["age"], .number, derived: Derived(source: "birthday", rule: .wholeYears))
        add(["days_since_install"], .number, derived: Derived(source: "installed_at", rule: .wholeDays))
        add(["total_revenue_usd"], .number)
        add(["os_version", "app_version", "install_app_version"], .version)
        add(["access_levels"], .set)
        return table
    }()

    /// The recipe of a derived field, or nil for a stored (or unknown) one.
    package static func derivation(of name: String) -> Derived? { all[name]?.derived }

    /// The stored field a rule's `profile.NAME` reads: the source of a derived field, else the field itself.
    package static func storedField(of name: String) -> String { derivation(of: name)?.source ?? name }

    /// How derived fields are computed from the stored field `name` (empty for most fields).
    package static func derivations(from name: String) -> [Derivation] {
        all.values.compactMap { $0.derived?.source == name ? $0.derived?.rule : nil }
    }

    /// Whether some derived field is computed from the stored field `name`.
    package static func isDerivationSource(_ name: String) -> Bool { !derivations(from: name).isEmpty }

    /// Whether `name` holds a calendar date (`birthday`).
    package static func isCalendarDate(_ name: String) -> Bool { all[name]?.isCalendarDate ?? false }

    /// The fields an `input` may write (those the SDK's profile builder sets).
    package static let inputTargets: [String] = ["email", "first_name", "last_name", "phone_number", "gender", "birthday"]
}
