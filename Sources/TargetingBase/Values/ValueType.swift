/// The storage-independent type of an attribute.
package enum ValueType: String, Hashable, Sendable, CaseIterable {
    case string, number, bool, date, version, set
}
