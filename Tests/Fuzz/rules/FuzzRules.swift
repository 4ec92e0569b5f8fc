import TargetingBase
import TargetingFuzzSupport

/// Arbitrary bytes as a rules file: lexer, parser, checker, analysis and (when the rules check)
/// the compiled engine must take anything without crashing.
@main
enum FuzzRules {
    static func main() {
        FuzzDriver.run { data, size in
            RulesCheck.check(SourceFile(path: "fuzz.rules", bytes: FuzzDriver.bytes(data, size)))
            return 0
        }
    }
}
