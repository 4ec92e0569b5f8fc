import TargetingBase
import TargetingEngine
import TargetingSyntax

/// `targeting bucket NAME --id VALUE…`: where a split, an experiment or the holdout puts each
/// value of its key, without computing MD5 by hand (the draw of splits, experiments and the holdout, the same code
/// `resolve` uses).
enum BucketCommand: Command {
    static let name = "bucket"
    static let overview = "Show the bucket (0–99) and variant a split, an experiment, a layer or the holdout gives each id"
    static let usage = "bucket SPLIT|EXPERIMENT|LAYER|HOLDOUT --id VALUE… [--rules PATH] [--format text|json]"
    static let discussion = """
    ARGUMENTS:
      SPLIT|EXPERIMENT|LAYER|HOLDOUT    A split id, an experiment name, a layer's name or the holdout's name

    --id gives the value drawn on: the profile id, or the value of the key written after
    `by` (a customer_user_id for `by profile.customer_user_id`).

    Prints one line per value: the bucket r, the last 8 bytes of md5("NAME-VALUE") read
    big-endian, modulo 100 (the draw every split, experiment and holdout makes), and what it
    chooses. With --format json each is an object:
      split       {"split","profile_id","bucket","kind","id"} (kind and id null for `nothing`)
      experiment  {"experiment","key","value","bucket","variant"}
      holdout     {"holdout","key","value","bucket","held_out"}
      layer       {"layer","key","value","bucket","experiment"} (experiment null outside every share)
    Exit status: 0, or 2 for an unknown name or rules with errors.
    """
    static let options = [
        CommonOptions.rules, CommonOptions.format,
        OptionSpec(names: ["--id"], takesValue: true, valueName: "ID", help: "A profile id (repeat for several)", repeatable: true),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let format = try OutputFormat.from(arguments)
        guard arguments.positionals.count == 1 else { throw UsageError(message: "give exactly one split id") }
        let ids = arguments.values["--id"] ?? []
        guard !ids.isEmpty else { throw UsageError(message: "missing --id: give at least one profile id") }
        let (loadedRules, status) = CommandSupport.loadCheckedRules(arguments, io: io)
        guard let rules = loadedRules else { return status }
        let splitID = arguments.positionals[0]
        let checked = rules.program.ruleSet
        if let experiment = checked.experiment(named: splitID) {
            printExperiment(experiment, ids: ids, format: format, io: io)
            return ExitStatus.success
        }
        if let index = checked.layers.firstIndex(where: { $0.name.text == splitID }) {
            printLayer(rules.program.layers[index], key: checked.layers[index].key?.displayName, ids: ids, format: format, io: io)
            return ExitStatus.success
        }
        if let holdout = checked.holdout, let plan = rules.program.holdout, holdout.name.text == splitID {
            printHoldout(plan, key: holdout.key?.displayName, ids: ids, format: format, io: io)
            return ExitStatus.success
        }
        let splits = rules.program.placements.flatMap { $0.rows.compactMap(\.split) }.filter { !$0.isExperiment }
        guard let split = splits.first(where: { $0.id == splitID }) else {
            let names = splits.map(\.id) + checked.experiments.map(\.name.text) + checked.layers.map(\.name.text)
                + (checked.holdout.map { [$0.name.text] } ?? [])
            io.report(.unknownSplit(splitID, suggestion: Suggestion.nearest(to: splitID, in: names)))
            return ExitStatus.inputError
        }
        for id in ids {
            let bucket = SplitDraw.bucket(splitID: split.id, profileID: id)
            let (kind, target): (String?, String?)
            switch split.destination(forBucket: bucket) {
            case .flow(let flow, _): (kind, target) = ("flow", flow)
            case .paywall(let paywall, _): (kind, target) = ("paywall", paywall)
            case .nothing, .split, .experiment: (kind, target) = (nil, nil)
            }
            switch format {
            case .json:
                func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
                io.out(JSONWriter.write(.object([
                    JSONMember(key: "split", value: .string(split.id)),
                    JSONMember(key: "profile_id", value: .string(id)),
                    JSONMember(key: "bucket", value: .number(Double(bucket))),
                    JSONMember(key: "kind", value: string(kind)),
                    JSONMember(key: "id", value: string(target)),
                ])) + "\n")
            case .text:
                let shown = kind.map { "\($0) \"\(target ?? "")\"" } ?? "nothing"
                io.out("\(id) \(split.id): bucket \(bucket) -> \(shown)\n")
            }
        }
        return ExitStatus.success
    }

    /// One line per value: its bucket and the experiment's variant, as the engine's prepared
    /// draw (`SplitPlan`) picks it.
    static func printExperiment(_ experiment: ExperimentDeclaration, ids: [String], format: OutputFormat, io: CommandIO) {
        let key = experiment.key?.displayName ?? AttributeTarget.builtin("id").written
        let plan = SplitPlan(experiment, key: .profileID)
        for id in ids {
            let bucket = SplitDraw.bucket(splitID: plan.id, profileID: id)
            let chosen = plan.steps[plan.step(forBucket: bucket)].variant ?? plan.id
            switch format {
            case .json:
                io.out(JSONWriter.write(.object([
                    JSONMember(key: "experiment", value: .string(experiment.name.text)),
                    JSONMember(key: "key", value: .string(key)),
                    JSONMember(key: "value", value: .string(id)),
                    JSONMember(key: "bucket", value: .number(Double(bucket))),
                    JSONMember(key: "variant", value: .string(chosen)),
                ])) + "\n")
            case .text:
                io.out("\(id) \(experiment.name.text): bucket \(bucket) -> \(chosen)\n")
            }
        }
    }

    /// One line per value: its bucket in the layer and the experiment whose share holds it, if
    /// any (a profile outside every share enters no experiment of the layer).
    static func printLayer(_ layer: LayerPlan, key written: String?, ids: [String], format: OutputFormat, io: CommandIO) {
        let key = written ?? AttributeTarget.builtin("id").written
        for id in ids {
            let bucket = SplitDraw.bucket(splitID: layer.name, profileID: id)
            let experiment = layer.shares.first { $0.buckets.contains(bucket) }?.experiment
            switch format {
            case .json:
                io.out(JSONWriter.write(.object([
                    JSONMember(key: "layer", value: .string(layer.name)),
                    JSONMember(key: "key", value: .string(key)),
                    JSONMember(key: "value", value: .string(id)),
                    JSONMember(key: "bucket", value: .number(Double(bucket))),
                    JSONMember(key: "experiment", value: experiment.map(JSONValue.string) ?? .null),
                ])) + "\n")
            case .text:
                io.out("\(id) \(layer.name): bucket \(bucket) -> " + (experiment.map { "enters \($0)" } ?? "enters no experiment") + "\n")
            }
        }
    }

    /// One line per value: its bucket and whether the holdout, as the engine draws it, holds it
    /// out; `key` is the holdout's key as written (nil for `profile.id`).
    static func printHoldout(_ holdout: HoldoutPlan, key written: String?, ids: [String], format: OutputFormat, io: CommandIO) {
        let key = written ?? AttributeTarget.builtin("id").written
        for id in ids {
            let bucket = SplitDraw.bucket(splitID: holdout.name, profileID: id)
            let heldOut = holdout.holdsOut(bucket: bucket)
            switch format {
            case .json:
                io.out(JSONWriter.write(.object([
                    JSONMember(key: "holdout", value: .string(holdout.name)),
                    JSONMember(key: "key", value: .string(key)),
                    JSONMember(key: "value", value: .string(id)),
                    JSONMember(key: "bucket", value: .number(Double(bucket))),
                    JSONMember(key: "held_out", value: .bool(heldOut)),
                ])) + "\n")
            case .text:
                io.out("\(id) \(holdout.name): bucket \(bucket) -> " + (heldOut ? "held out (< \(holdout.weight))" : "not held out") + "\n")
            }
        }
    }
}
