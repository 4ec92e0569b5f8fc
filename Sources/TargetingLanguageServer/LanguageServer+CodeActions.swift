import TargetingBase

// Not built yet: an empty answer.
extension LanguageServer {
    func codeActions(_ request: DocumentRequest) -> JSONValue { .array([]) }
}
