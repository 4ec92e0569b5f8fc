/// The storage-independent type of an attribute (SPEC §4.2).
package enum ValueType: String, Hashable, Sendable, CaseIterable {
    case string, number, bool, date, version, set
}
