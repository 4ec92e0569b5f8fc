import Foundation

/// A second, separate MD5 (RFC 1321) and experiments and the holdout draw, written for the tests from the RFC's
/// text and the spec's words, so the engine's answers are checked against code it does not share.
///
/// The sine table is computed as the RFC defines it (T[i] = floor(2^32 · |sin(i)|)), not copied.
package enum ReferenceDraw {
    /// Per-round left-rotation amounts (RFC 1321 §3.4).
    private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

    private static let sines: [UInt32] = (1...64).map { UInt32(floor(4_294_967_296 * abs(sin(Double($0))))) }

    /// The 16-byte MD5 digest of `message`.
    package static func md5(_ message: [UInt8]) -> [UInt8] {
        // Step 1–2: pad with a 1 bit, zeros to 56 mod 64 bytes, then the bit length little-endian.
        var bytes = message
        let bitLength = UInt64(message.count) &* 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        // Step 3: the four-word buffer.
        var state: (a: UInt32, b: UInt32, c: UInt32, d: UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)

        // Step 4: each 16-word block in four rounds of sixteen operations.
        for blockStart in stride(from: 0, to: bytes.count, by: 64) {
            var words = [UInt32](repeating: 0, count: 16)
            for word in 0..<16 {
                for byte in 0..<4 { words[word] |= UInt32(bytes[blockStart + word * 4 + byte]) << UInt32(8 * byte) }
            }
            var (a, b, c, d) = state
            for step in 0..<64 {
                let round = step / 16
                let mixed: UInt32
                let wordIndex: Int
                switch round {
                case 0:
                    mixed = (b & c) | (~b & d)
                    wordIndex = step
                case 1:
                    mixed = (b & d) | (c & ~d)
                    wordIndex = (1 + 5 * step) % 16
                case 2:
                    mixed = b ^ c ^ d
                    wordIndex = (5 + 3 * step) % 16
                default:
                    mixed = c ^ (b | ~d)
                    wordIndex = (7 * step) % 16
                }
                let shift = shifts[round * 4 + step % 4]
                let sum = a &+ mixed &+ sines[step] &+ words[wordIndex]
                let rotated = (sum << shift) | (sum >> (32 - shift))
                (a, b, c, d) = (d, b &+ rotated, b, c)
            }
            state = (state.a &+ a, state.b &+ b, state.c &+ c, state.d &+ d)
        }

        // Step 5: A, B, C, D, each little-endian.
        var digest: [UInt8] = []
        for word in [state.a, state.b, state.c, state.d] {
            for byte in 0..<4 { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(8 * byte))) }
        }
        return digest
    }

    /// Lower-case hex of a digest.
    package static func hex(_ digest: [UInt8]) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// splits, experiments and the holdout: the last 8 digest bytes of `"<name>-<value>"` as a big-endian UInt64, % 100.
    package static func bucket(_ name: String, _ value: String) -> Int {
        let digest = md5(Array("\(name)-\(value)".utf8))
        var number: UInt64 = 0
        for byte in digest[8..<16] { number = number << 8 | UInt64(byte) }
        return Int(number % 100)
    }

    /// experiments and the holdout: variants sorted by weight ascending, ties by name compared as UTF-8 bytes; r is
    /// walked down by each weight, and the variant that takes it below zero is chosen.
    package static func variant(_ name: String, _ value: String, _ variants: [(weight: Int, name: String)]) -> String {
        let sorted = variants.sorted { left, right in
            if left.weight != right.weight { return left.weight < right.weight }
            return Array(left.name.utf8).lexicographicallyPrecedes(Array(right.name.utf8))
        }
        var rest = bucket(name, value)
        for variant in sorted {
            rest -= variant.weight
            if rest < 0 { return variant.name }
        }
        return sorted.last!.name
    }

    /// A small seeded generator (SplitMix64), so random tests are the same on every run.
    package struct Generator: RandomNumberGenerator {
        package var state: UInt64

        package init(seed: UInt64) { state = seed }

        package mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// A random number in `0..<bound`.
        package mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        /// A random string of `count` characters from `alphabet`.
        package mutating func string(_ count: Int, from alphabet: [Character] = Array("abcdefghijklmnopqrstuvwxyz0123456789-")) -> String {
            String((0..<count).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
        }
    }
}
