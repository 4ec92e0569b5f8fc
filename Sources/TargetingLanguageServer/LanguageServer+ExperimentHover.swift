import TargetingBase
import TargetingSyntax

/// Hover on the names of experiments and the holdout:
///
/// - an experiment (its declaration or a row's use): the declaration, its key (`profile.id`
///   when none is written), and the placement rows that use it;
/// - a variant (in the experiment or a row's arm): its weight and, per row that uses the
///   experiment, what it shows there;
/// - the holdout: its weight, key, and the placements it covers and those it excepts.
extension LanguageServer {
    /// A row of a placement that uses an experiment.
    struct ExperimentUse {
        /// The placement's name.
        var placement: String
        /// The row's audience, as written (`everyone` or a name).
        var audience: String
        /// The row's arms.
        var row: ExperimentDestination
    }

    /// The hover text of an experiment named `name`.
    func describeExperiment(_ name: String, _ request: DocumentRequest) -> String {
        guard let experiment = LanguageServer.experiment(named: name, in: request.analysis.ruleFiles) else {
            return "unknown experiment `\(name)`"
        }
        var text = LanguageServer.code(LanguageServer.declaration(of: experiment, request))
        text += "\n\n" + LanguageServer.keyLine(experiment.key, withoutID: "cannot be drawn: an error for that profile",
                                                withoutKey: "does not enter the experiment")
        text += "\n\ndeclared at \(LanguageServer.place(experiment.name.range))"
        let uses = LanguageServer.uses(of: name, in: request.analysis.ruleFiles)
        if uses.isEmpty {
            text += "\n\nused by no placement"
        } else {
            text += "\n\nused by:\n" + uses.map { "- placement `\($0.placement)`, row `\($0.audience)`" }.joined(separator: "\n")
        }
        return text
    }

    /// The hover text of the variant `EXPERIMENT.VARIANT` named by `occurrence`.
    func describeVariant(_ occurrence: SymbolIndex.Occurrence, _ request: DocumentRequest) -> String {
        let name = occurrence.writtenName, experimentName = occurrence.experiment ?? ""
        guard let experiment = LanguageServer.experiment(named: experimentName, in: request.analysis.ruleFiles) else {
            return "variant `\(name)` of an unknown experiment `\(experimentName)`"
        }
        guard let variant = experiment.variants.first(where: { $0.name.text == name }) else {
            let names = experiment.variants.map { "`\($0.name.text)`" }.joined(separator: ", ")
            return "`\(name)` is not a variant of experiment `\(experimentName)`; its variants are \(names)"
        }
        var text = LanguageServer.code("\(variant.weight.text)% \(name)")
            + "\n\nvariant of experiment `\(experimentName)`: \(variant.weight.text)% of the profiles it draws"
        let uses = LanguageServer.uses(of: experimentName, in: request.analysis.ruleFiles)
        if uses.isEmpty {
            text += "\n\nshown by no placement: no row uses `\(experimentName)`"
        } else {
            text += "\n\nshows:\n" + uses.map { use in
                let shown = use.row.arm(for: name).map { "`\($0.destination)`" } ?? "not given"
                return "- in placement `\(use.placement)`, row `\(use.audience)`: \(shown)"
            }.joined(separator: "\n")
        }
        return text
    }

    /// The hover text of a holdout named `name`.
    func describeHoldout(_ name: String, _ request: DocumentRequest) -> String {
        let files = request.analysis.ruleFiles
        let holdouts = files.flatMap(\.declarations).compactMap { declaration -> HoldoutDeclaration? in
            if case .holdout(let d) = declaration, d.name.text == name { return d }
            return nil
        }
        guard let holdout = holdouts.first else { return "unknown holdout `\(name)`" }
        var text = LanguageServer.code(LanguageServer.declaration(of: holdout, request))
        text += "\n\nholds out \(holdout.weight.text)% of profiles; " + LanguageServer.keyLine(holdout.key, withoutID: "is not held out", withoutKey: "is not held out")
        let excepted = Set(holdout.excepted.map(\.text))
        let placements = LanguageServer.placementNames(in: files)
        let covered = placements.filter { !excepted.contains($0) }
        func list(_ names: [String]) -> String { names.map { "`\($0)`" }.joined(separator: ", ") }
        text += "\n\ncovers " + (covered.isEmpty ? "no placement" : list(covered))
        if !holdout.excepted.isEmpty { text += "\n\nexcept " + list(holdout.excepted.map(\.text)) }
        text += "\n\na held-out profile skips every row but `everyone` in the placements it covers"
        text += "\n\ndeclared at \(LanguageServer.place(holdout.name.range))"
        return text
    }

    /// How the holdout treats a placement, for the placement's hover; nil without a holdout.
    static func holdoutLine(for placement: String, in files: [RuleFile]) -> String? {
        for file in files {
            for case .holdout(let holdout) in file.declarations {
                if holdout.excepted.contains(where: { $0.text == placement }) {
                    return "not covered by the holdout `\(holdout.name.text)` (`except`)"
                }
                return "covered by the holdout `\(holdout.name.text)`: \(holdout.weight.text)% of profiles see only its `everyone` row"
            }
        }
        return nil
    }

    /// A Markdown code block of rules text.
    static func code(_ text: String) -> String { "```targeting\n\(text)\n```" }

    /// The experiment declared as `name`, the first when it is declared twice.
    static func experiment(named name: String, in files: [RuleFile]) -> ExperimentDeclaration? {
        for file in files {
            for case .experiment(let experiment) in file.declarations where experiment.name.text == name { return experiment }
        }
        return nil
    }

    /// The placement rows that use the experiment `name`, in file and source order.
    static func uses(of name: String, in files: [RuleFile]) -> [ExperimentUse] {
        var found: [ExperimentUse] = []
        for file in files {
            for case .placement(let placement) in file.declarations {
                for row in placement.rows {
                    guard case .experiment(let destination) = row.destination, destination.experiment.text == name else { continue }
                    found.append(ExperimentUse(placement: placement.name.text, audience: row.audience.name, row: destination))
                }
            }
        }
        return found
    }

    /// The placements declared, in file and source order, each once.
    static func placementNames(in files: [RuleFile]) -> [String] {
        var names: [String] = []
        for file in files {
            for case .placement(let placement) in file.declarations where !names.contains(placement.name.text) {
                names.append(placement.name.text)
            }
        }
        return names
    }

    /// What the key of a draw is, the one written or `profile.id`, and what becomes of a
    /// profile without a value for it: `withoutID` for `profile.id`, `withoutKey` for
    /// any other key.
    static func keyLine(_ key: AttributeReference?, withoutID: String, withoutKey: String) -> String {
        guard let key else { return "key `profile.id` (the default): a profile without `id` \(withoutID)" }
        if key.target == .builtin("id") { return "key `profile.id`: a profile without `id` \(withoutID)" }
        return "key `\(key.displayName)`: a profile without a string value for it \(withoutKey)"
    }

    /// An experiment as rules write it, its key spelled as in the source.
    static func declaration(of experiment: ExperimentDeclaration, _ request: DocumentRequest) -> String {
        let variants = experiment.variants.map { "  \($0.weight.text)% \($0.name.text)" }.joined(separator: "\n")
        return "experiment \(experiment.name.text)\(by(experiment.key, request)) {\n\(variants)\n}"
    }

    /// A holdout as rules write it.
    static func declaration(of holdout: HoldoutDeclaration, _ request: DocumentRequest) -> String {
        let excepted = holdout.excepted.isEmpty ? "" : " except " + holdout.excepted.map(\.text).joined(separator: ", ")
        return "holdout \(holdout.name.text) \(holdout.weight.text)%\(by(holdout.key, request))\(excepted)"
    }

    /// ` by KEY` as written in the source (backticks kept), or nothing.
    private static func by(_ key: AttributeReference?, _ request: DocumentRequest) -> String {
        guard let key else { return "" }
        let range = key.range
        guard let bytes = request.analysis.sources[range.file]?.bytes, range.end.offset <= bytes.count else { return " by " + key.displayName }
        return " by " + String(decoding: bytes[range.start.offset..<range.end.offset], as: UTF8.self)
    }
}
