import Foundation
import TargetingBase
import TargetingEngine
import TargetingProfiles
import TargetingSemantics

/// A checked and compiled rule set: segments, audiences and placements ready to decide for
/// profiles.
///
/// Parsing, checking and compiling happen once, when the rule set is created; afterwards it is
/// immutable and safe to share across threads. Loading does not run the reachability analysis
/// of `targeting check` (unreachable rows, placements some profile falls through): run `check`
/// on the rules in CI to see its warnings.
///
/// ```swift
/// let rules = try RuleSet(contentsOf: Bundle.main.url(forResource: "Rules", withExtension: nil)!)
/// let decision = try rules.resolve("onboarding_followup", for: profile)
/// if let flowID = decision.flowID { presentFlow(flowID) }
/// ```
public struct RuleSet: Sendable {
    /// The compiled program; it exists only for a rule set without errors.
    package let program: Program
    /// The source files, for quoting lines in diagnostics.
    package let sources: [SourceFile]
    /// The checker's warnings (undeclared attributes, unused names …), sorted by file and
    /// position. The reachability analysis's warnings (unreachable rows, fall-through) are not
    /// among them: loading does not run it, `targeting check` does.
    public let warnings: [Diagnostic]

    /// Loads every `.rules` file under a directory URL (recursively), or the one file a file URL names.
    ///
    /// - Throws: `RuleSetError` with the diagnostics when a file cannot be read or the rules have errors.
    public init(contentsOf url: URL) throws {
        switch LoadedRules.load(path: url.path) {
        case .failure(let error):
            throw RuleSetError(diagnostics: [.unreadable(error.message, path: url.path)], sources: [])
        case .success(let loaded):
            try self.init(loaded)
        }
    }

    /// Checks and compiles rules held in memory, as if read from a file named `fileName`.
    ///
    /// - Throws: `RuleSetError` with the diagnostics when the rules have errors.
    public init(source: String, fileName: String = "rules.rules") throws {
        try self.init(LoadedRules(sources: [SourceFile(path: fileName, text: source)]))
    }

    /// A rule set from rules loaded by the tools; its warnings are `loaded`'s diagnostics (with
    /// the analysis's when the tools ran `analyzed(by:)`).
    /// The program compiled anew from the same sources: equal to `program`, sharing none of
    /// its objects (for a thread of its own).
    package func compiledAgain() -> Program? {
        LoadedRules(sources: sources).program
    }

    package init(_ loaded: LoadedRules) throws(RuleSetError) {
        guard let checked = loaded.checked else {
            throw RuleSetError(diagnostics: loaded.diagnostics, sources: loaded.sources)
        }
        self.program = loaded.program ?? Program(checked)
        self.sources = loaded.sources
        self.warnings = loaded.diagnostics
    }

    /// The names of the placements, in declaration order.
    public var placements: [String] { program.placements.map(\.name) }

    /// Which flow or paywall `profile` sees in `placement` at `now`: the first row whose audience
    /// matches decides. An experiment row sets `Decision.experiment` and `.variant`,
    /// the same variant in every placement that uses the experiment; a profile the holdout holds
    /// out sees only the `everyone` row and has `Decision.heldOut`.
    ///
    /// - Throws: `ResolveError` for an unknown placement (naming the nearest one), or when a split
    ///   or an experiment keyed on `profile.id` must draw for a profile without `id`.
    public func resolve(_ placement: String, for profile: Profile, at now: Date = Date()) throws -> Decision {
        // The program is used where it lies: a `Placement` handle made per call would copy it
        // (a retain and a release of each of its parts), which costs more than the lookup.
        try program.decide(placement: placementIndex(placement), for: profile, now: Self.milliseconds(now)).get()
    }

    /// One decision per placement, in declaration order.
    ///
    /// A placement whose split or experiment cannot draw (the profile has no `id`) gives a
    /// decision with the matched `audience` and the `split` id (or `experiment` name) but no
    /// `outcome`.
    public func resolveAll(for profile: Profile, at now: Date = Date()) -> [Decision] {
        program.decideAll(for: profile, now: Self.milliseconds(now))
    }

    /// Why `profile` sees what it sees in `placement`: every row with matched / not matched and
    /// the first failing condition. Its `description` is the text of `resolve --explain`.
    ///
    /// - Throws: `ResolveError`, as `resolve` does.
    public func explain(_ placement: String, for profile: Profile, at now: Date = Date()) throws -> Explanation {
        try self.placement(placement).explain(for: profile, at: now)
    }

    func placementIndex(_ name: String) throws(ResolveError) -> Int {
        try program.placementIndex(of: name).get()
    }

    /// Unix milliseconds of a date, rounded down.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
