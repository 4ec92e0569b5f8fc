import TargetingBase

extension JSONValue {
    /// An object with members in the order written.
    package static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(members.map { JSONMember(key: $0.key, value: $0.value) })
    }

    /// A number from an integer.
    package static func int(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// The integer payload, when this is a whole number.
    package var intValue: Int? {
        guard case .number(let number) = self, number == number.rounded(), abs(number) < 9e15 else { return nil }
        return Int(number)
    }

    /// The value at a path of object keys.
    package subscript(path: String...) -> JSONValue? {
        var value: JSONValue? = self
        for key in path { value = value?[key] }
        return value
    }
}

extension LSPPosition {
    /// The position as JSON.
    package var json: JSONValue { .object(["line": .int(line), "character": .int(character)]) }

    /// A position read from JSON (`{"line", "character"}`), negative parts clamped to 0.
    package init?(json: JSONValue?) {
        guard let line = json?["line"]?.intValue, let character = json?["character"]?.intValue else { return nil }
        self.init(line: max(0, line), character: max(0, character))
    }
}

extension LineIndex {
    /// The LSP range of a source range, as JSON.
    package func json(_ range: SourceRange) -> JSONValue {
        let (start, end) = self.range(of: range)
        return .object(["start": start.json, "end": end.json])
    }

    /// The LSP range between two byte offsets, as JSON.
    package func json(from start: Int, to end: Int) -> JSONValue {
        .object(["start": position(of: start).json, "end": position(of: end).json])
    }
}
