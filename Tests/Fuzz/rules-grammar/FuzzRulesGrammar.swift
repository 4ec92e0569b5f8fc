import TargetingBase
import TargetingFuzzSupport

/// The bytes as choices that build a rules file from the grammar (`RulesGrammar`), so that the
/// inputs get past the parser into the checker, the analysis and the engine.
@main
enum FuzzRulesGrammar {
    static func main() {
        FuzzDriver.run { data, size in
            var grammar = RulesGrammar(FuzzDriver.bytes(data, size))
            RulesCheck.check(SourceFile(path: "fuzz.rules", text: grammar.rulesText()))
            return 0
        }
    }
}
