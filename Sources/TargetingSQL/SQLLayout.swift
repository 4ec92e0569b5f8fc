/// How the profiles table holds a profile.
package enum SQLLayout: String, Hashable, Sendable, CaseIterable {
    /// One column holding each profile's JSON object (by default `profile`).
    case json
    /// One typed column per field the rules read (`SQLTableSchema`).
    case columns
}
