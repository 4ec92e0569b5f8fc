import TargetingBase
import TargetingSemantics

extension CompiledTest.Kind {
    /// The compiled form of a checked test: each typed test becomes the kind of its type, and
    /// under `ignoring case` (`fold`) text literals are lowercased once here.
    init(_ typed: TypedTest, ignoringCase fold: Bool) {
        func folded(_ text: String) -> String { fold ? CaseFolding.lowercase(text) : text }
        func foldedSet(_ texts: [String]) -> ExactStringSet { ExactStringSet(texts.map(folded)) }
        switch typed {
        case .presence:
            self = .presence
        case .string(let test):
            switch test {
            case .equals(let text): self = .text(.equals(folded(text)), fold: fold)
            case .isIn(let texts): self = .text(.isIn(foldedSet(texts)), fold: fold)
            case .contains(let text): self = .text(.contains(folded(text)), fold: fold)
            case .startsWith(let text): self = .text(.startsWith(folded(text)), fold: fold)
            case .endsWith(let text): self = .text(.endsWith(folded(text)), fold: fold)
            case .matches(let pattern): self = .text(.matches(pattern), fold: pattern.ignoringCase)
            }
        case .number(let test):
            self = .number(OrderedTest(test))
        case .bool(let flag):
            self = .bool(flag)
        case .date(let test):
            switch test {
            case .equals(let instant): self = .date(.equals(instant))
            case .order(let ordering, let instant): self = .date(.order(ordering, instant))
            case .between(let low, let high): self = .date(.between(low, high))
            }
        case .version(let test):
            self = .version(OrderedTest(test))
        case .set(let test):
            switch test {
            case .has(let text): self = .members(.has(folded(text)), fold: fold)
            case .hasAny(let texts): self = .members(.hasAny(foldedSet(texts)), fold: fold)
            case .hasAll(let texts): self = .members(.hasAll(foldedSet(texts)), fold: fold)
            case .hasNone(let texts): self = .members(.hasNone(foldedSet(texts)), fold: fold)
            }
        }
    }
}

extension OrderedTest {
    /// The compiled form of a checked test of numbers or versions.
    init(_ typed: TypedTest.Ordered<Value>) {
        switch typed {
        case .equals(let value): self = .equals(value)
        case .order(let ordering, let value): self = .order(ordering, value)
        case .between(let low, let high): self = .between(low, high)
        case .isIn(let values): self = .isIn(Set(values))
        }
    }
}
