import TargetingBase
import TargetingProfiles

extension InputMapping {
    /// The mapping declared by a checked rule set's `input` and `attribute` declarations.
    package init(_ rules: CheckedRules) {
        var declared: [String: (type: ValueType?, allowed: [String]?)] = [:]
        for (key, type) in rules.attributeTypes where type.isDeclared {
            if case .custom(let name) = key { declared[name] = (type.type, type.allowed) }
        }
        // An input writes an attribute (the parser reads nothing else after `->`).
        let inputs = rules.inputs.compactMap { input in
            input.target.target.attribute.map { (screen: input.screen?.text, element: input.element.text, target: $0) }
        }
        self.init(inputs: inputs, declaredAttributes: declared)
    }
}
