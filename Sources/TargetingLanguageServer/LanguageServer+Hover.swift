import TargetingBase

// Not built yet: an empty answer.
extension LanguageServer {
    func hover(_ request: DocumentRequest) -> JSONValue { .null }
}
