import TargetingBase
import TargetingProfiles

extension InputMapping {
    /// The mapping declared by a checked rule set's `input` and `attribute` declarations.
    package init(_ rules: CheckedRules) {
        var declared: [String: (type: ValueType?, allowed: [String]?)] = [:]
        for (key, type) in rules.attributeTypes where type.isDeclared {
            if case .custom(let name) = key { declared[name] = (type.type, type.allowed) }
        }
        self.init(inputs: rules.inputs.map { ($0.screen?.text, $0.element.text, $0.target.target) }, declaredAttributes: declared)
    }
}
