/// `Authorization: Bearer <token>` checked against the server's token.
package enum BearerToken {
    /// Whether `header` carries `token`. The comparison takes the same time wherever the two
    /// differ (and whatever the given token's length), so timing tells nothing of the token.
    package static func authorizes(_ header: String?, token: [UInt8]) -> Bool {
        guard let header else { return false }
        let scheme = header.prefix { $0 != " " }
        guard scheme.lowercased() == "bearer" else { return false }
        let given = Array(header.dropFirst(scheme.count).drop { $0 == " " }.utf8)
        return constantTimeEqual(given, token)
    }

    /// Whether two byte strings are equal, looking at every byte of `expected` either way.
    package static func constantTimeEqual(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt(given.count ^ expected.count)
        for index in expected.indices {
            let byte = index < given.count ? given[index] : ~expected[index]
            difference |= UInt(byte ^ expected[index])
        }
        return difference == 0 && !expected.isEmpty
    }
}
