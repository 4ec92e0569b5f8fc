extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text, members in stored order: `{"id":"u1","age":17}`.
    public var description: String { JSONWriter.write(self) }
}

extension JSONMember: CustomStringConvertible {
    /// `"key":value`, as the member appears in compact JSON.
    public var description: String {
        var bytes: [UInt8] = []
        JSONWriter.appendString(key, to: &bytes)
        return String(decoding: bytes, as: UTF8.self) + ":" + JSONWriter.write(value)
    }
}
