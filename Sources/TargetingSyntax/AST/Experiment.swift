import TargetingBase

/// One variant of an experiment: `50% discount`.
package struct ExperimentVariant: Hashable, Sendable {
    /// The weight literal (a number).
    package var weight: Literal
    /// The variant's name.
    package var name: Identifier
    /// The whole variant.
    package var range: SourceRange

    /// The weight as a whole number (0 when the literal is not one; the checker reports that).
    package var weightValue: Int {
        weight.weightValue
    }
}

/// `sticky DURATION` of an experiment: how long a recorded assignment keeps deciding.
package struct StickyDuration: Hashable, Sendable {
    /// The duration as written (`90d`).
    package var text: String
    /// The duration in milliseconds.
    package var milliseconds: Int64
    /// Where the duration is written.
    package var range: SourceRange
}

/// `experiment NAME [by KEY] [sticky DURATION] { WEIGHT% VARIANT … }`.
package struct ExperimentDeclaration: Hashable, Sendable {
    /// The experiment's name.
    package var name: Identifier
    /// The attribute whose value is drawn; nil for the default, `profile.id`.
    package var key: AttributeReference?
    /// How long an assignment in the profile's history sticks; nil when it does not.
    package var sticky: StickyDuration? = nil
    /// The variants in declaration order.
    package var variants: [ExperimentVariant]
    /// The whole declaration.
    package var range: SourceRange
}

/// `holdout NAME WEIGHT% [by KEY] [except PLACEMENT, …]`.
package struct HoldoutDeclaration: Hashable, Sendable {
    /// The holdout's name.
    package var name: Identifier
    /// The share held out (a number literal).
    package var weight: Literal
    /// The attribute whose value is drawn; nil for the default, `profile.id`.
    package var key: AttributeReference?
    /// The placements the holdout does not cover.
    package var excepted: [Identifier]
    /// The whole declaration.
    package var range: SourceRange

    /// The weight as a whole number (0 when the literal is not one; the checker reports that).
    package var weightValue: Int {
        weight.weightValue
    }
}

/// One arm of an experiment row: `discount -> flow "flow_onb_discount"`.
package struct ExperimentArm: Hashable, Sendable {
    /// The variant the arm is for.
    package var variant: Identifier
    /// What the variant shows (never a split or an experiment).
    package var destination: Destination
    /// The whole arm.
    package var range: SourceRange
}

/// A placement row's `EXPERIMENT { VARIANT -> DESTINATION … }`.
package struct ExperimentDestination: Hashable, Sendable {
    /// The experiment used.
    package var experiment: Identifier
    /// The arms in the order written.
    package var arms: [ExperimentArm]
    /// The whole destination.
    package var range: SourceRange

    /// The arm for the variant named `variant`.
    package func arm(for variant: String) -> ExperimentArm? { arms.first { $0.variant.text == variant } }
}
