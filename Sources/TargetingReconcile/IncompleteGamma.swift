import Foundation

/// The regularised incomplete gamma functions, for the p-values of chi-squared statistics.
package enum IncompleteGamma {
    /// Relative precision the series and the continued fraction stop at.
    static let precision = 1e-15
    /// The most terms either is given (convergence takes a few dozen for the arguments met here).
    static let maxTerms = 10_000

    /// Q(a, x) = Γ(a, x) / Γ(a), the regularised upper incomplete gamma function, for a > 0 and
    /// x ≥ 0: 1 at x = 0, falling towards 0 as x grows. Below x = a + 1 it is 1 − P(a, x), with
    /// P from its power series; from there on, its continued fraction, evaluated by the modified
    /// Lentz method. Each converges fast on its side of a + 1.
    package static func upperRegularized(_ a: Double, _ x: Double) -> Double {
        precondition(a > 0, "the shape must be positive")
        guard x > 0 else { return 1 }
        // x^a e^(−x) / Γ(a), the factor both forms share, in logarithms to avoid overflow.
        let logFactor = a * Foundation.log(x) - x - logGamma(a)
        if x < a + 1 {
            // P(a, x) = factor · Σ x^n / (a (a+1) … (a+n)).
            var term = 1 / a
            var sum = term
            var denominator = a
            for _ in 0..<maxTerms {
                denominator += 1
                term *= x / denominator
                sum += term
                if abs(term) < abs(sum) * precision { break }
            }
            return max(0, 1 - sum * Foundation.exp(logFactor))
        }
        // Q(a, x) = factor · 1 / (x + 1 − a − 1·(1 − a) / (x + 3 − a − 2·(2 − a) / (x + 5 − a − …))).
        let tiny = Double.leastNormalMagnitude / precision
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var fraction = d
        for step in 1...maxTerms {
            let n = Double(step)
            let numerator = -n * (n - a)
            b += 2
            d = numerator * d + b
            if abs(d) < tiny { d = tiny }
            c = b + numerator / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let change = d * c
            fraction *= change
            if abs(change - 1) < precision { break }
        }
        return min(1, Foundation.exp(logFactor) * fraction)
    }

    /// ln Γ(z) for z > 0: raised by the recurrence Γ(z + 1) = z Γ(z) until z ≥ 15, then
    /// Stirling's series to the z⁻⁹ term (the first term left out is below 1e-15 there).
    package static func logGamma(_ z: Double) -> Double {
        precondition(z > 0, "the argument must be positive")
        var shifted = z
        var logProduct = 0.0
        while shifted < 15 {
            logProduct += Foundation.log(shifted)
            shifted += 1
        }
        let inverse = 1 / shifted
        let inverseSquared = inverse * inverse
        let series = inverse * (1.0 / 12 - inverseSquared * (1.0 / 360 - inverseSquared * (1.0 / 1260 - inverseSquared * (1.0 / 1680 - inverseSquared / 1188))))
        let stirling = (shifted - 0.5) * Foundation.log(shifted) - shifted + 0.5 * Foundation.log(2 * Double.pi) + series
        return stirling - logProduct
    }

    /// The p-value of a chi-squared statistic with `degreesOfFreedom` (≥ 1): the chance of a
    /// statistic at least as large when the hypothesis holds, Q(df / 2, statistic / 2).
    package static func chiSquaredPValue(_ statistic: Double, degreesOfFreedom: Int) -> Double {
        precondition(degreesOfFreedom >= 1, "a chi-squared distribution needs at least one degree of freedom")
        return upperRegularized(Double(degreesOfFreedom) / 2, max(0, statistic) / 2)
    }
}
