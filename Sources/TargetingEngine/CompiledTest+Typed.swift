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
            self = .isSet
        case .string(let test):
            switch test {
            case .equals(let text): self = .stringEquals(folded(text), fold: fold)
            case .isIn(let texts): self = .stringIn(foldedSet(texts), fold: fold)
            case .contains(let text): self = .contains(folded(text), fold: fold)
            case .startsWith(let text): self = .startsWith(folded(text), fold: fold)
            case .endsWith(let text): self = .endsWith(folded(text), fold: fold)
            case .matches(let pattern): self = .matches(pattern)
            }
        case .number(let test):
            switch test {
            case .equals(let value): self = .numberEquals(value)
            case .order(let ordering, let value): self = .numberOrder(ordering, value)
            case .between(let low, let high): self = .numberBetween(low, high)
            case .isIn(let values): self = .numberIn(Set(values))
            }
        case .bool(let flag):
            self = .boolEquals(flag)
        case .date(let test):
            switch test {
            case .equals(let instant): self = .dateEquals(instant)
            case .order(let ordering, let instant): self = .dateOrder(ordering, instant)
            case .between(let low, let high): self = .dateBetween(low, high)
            }
        case .version(let test):
            switch test {
            case .equals(let version): self = .versionEquals(version)
            case .order(let ordering, let version): self = .versionOrder(ordering, version)
            case .between(let low, let high): self = .versionBetween(low, high)
            case .isIn(let versions): self = .versionIn(Set(versions))
            }
        case .set(let test):
            switch test {
            case .has(let text): self = .has(folded(text), fold: fold)
            case .hasAny(let texts): self = .hasAny(foldedSet(texts), fold: fold)
            case .hasAll(let texts): self = .hasAll(foldedSet(texts), fold: fold)
            case .hasNone(let texts): self = .hasNone(foldedSet(texts), fold: fold)
            }
        }
    }
}
