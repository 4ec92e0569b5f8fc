/// The sample-ratio check of one experiment: the profiles first assigned to each variant
/// against the variants' declared weights, by Pearson's chi-squared test.
///
/// A profile counts once, for the variant of the first shown line that named the experiment
/// for it (its `history.assigned`). The statistic sums (observed − expected)² / expected over
/// the declared variants, expected being the declared share of the profiles assigned to a
/// declared variant; its p-value has variants − 1 degrees of freedom. A variant the rules do not
/// declare is counted and reported, but takes no part in the test (nothing is expected of it;
/// its lines are classified as mismatches anyway). With no profile assigned to a declared
/// variant there is nothing to test: the p-value is nil and nothing is flagged. Checked rules
/// give every variant a weight from 1 to 100; a variant of weight 0 would be left out of the
/// statistic and the degrees of freedom.
package struct SampleRatioCheck: Hashable, Sendable {
    /// One variant: its name, declared weight (0 for one the rules do not declare), and the
    /// profiles first assigned to it.
    package struct Variant: Hashable, Sendable {
        package var name: String
        package var weight: Int
        package var assigned: Int
        /// Whether the experiment declares the variant.
        package var isDeclared: Bool
    }

    /// A p-value below this flags the experiment.
    package static let threshold = 0.001

    /// The experiment's name.
    package var experiment: String
    /// The declared variants in declaration order, then undeclared ones in the order first seen.
    package var variants: [Variant]

    package init(experiment: String, variants: [Variant]) {
        self.experiment = experiment
        self.variants = variants
    }

    /// The variants that take part in the test: declared, with a positive weight.
    private var tested: [Variant] { variants.filter(isTested) }

    /// The profiles assigned to a tested variant.
    package var testedProfiles: Int { tested.reduce(0) { $0 + $1.assigned } }

    /// The weights of the tested variants together.
    package var testedWeight: Int { tested.reduce(0) { $0 + $1.weight } }

    /// Whether `variant` takes part in the test.
    package func isTested(_ variant: Variant) -> Bool { variant.isDeclared && variant.weight > 0 }

    /// The share of the tested profiles the weights expect `variant` to take, from 0 to 1: its
    /// weight over the tested variants' weights; nil for a variant that takes no part in the test.
    package func expectedFraction(_ variant: Variant) -> Double? {
        let weights = testedWeight
        guard isTested(variant), weights > 0 else { return nil }
        return Double(variant.weight) / Double(weights)
    }

    /// Pearson's statistic, or nil when no profile was assigned to a tested variant.
    package var statistic: Double? {
        let total = Double(testedProfiles)
        guard total > 0 else { return nil }
        return tested.reduce(0.0) { sum, variant in
            let expected = total * (expectedFraction(variant) ?? 0)
            let difference = Double(variant.assigned) - expected
            return sum + difference * difference / expected
        }
    }

    /// Degrees of freedom: tested variants − 1.
    package var degreesOfFreedom: Int { tested.count - 1 }

    /// The p-value of `statistic`, or nil when there is nothing to test.
    package var pValue: Double? {
        guard let statistic, degreesOfFreedom >= 1 else { return nil }
        return IncompleteGamma.chiSquaredPValue(statistic, degreesOfFreedom: degreesOfFreedom)
    }

    /// Whether the assignment ratio is off: a p-value below `threshold`.
    package var isFlagged: Bool { (pValue ?? 1) < SampleRatioCheck.threshold }
}
