/// MD5 message digest as specified by RFC 1321.
///
/// Used only for deterministic bucketing (not for security): the result of
/// hashing "<splitID>-<profileID>" decides which variant a profile receives.
package enum MD5 {
    /// Returns the 16-byte MD5 digest of `bytes`.
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let state = bytes.withUnsafeBufferPointer { finalState($0) }
        var out = [UInt8]()
        out.reserveCapacity(16)
        for word in [state.a, state.b, state.c, state.d] {
            out.append(UInt8(truncatingIfNeeded: word))
            out.append(UInt8(truncatingIfNeeded: word >> 8))
            out.append(UInt8(truncatingIfNeeded: word >> 16))
            out.append(UInt8(truncatingIfNeeded: word >> 24))
        }
        return out
    }

    /// The first `count` bytes of `bytes`' digest as lowercase hex digits (`count * 2` of them):
    /// a short name for content, such as a rules version or an entity tag.
    package static func hexPrefix(of bytes: [UInt8], count: Int) -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        var text = String.UnicodeScalarView()
        for byte in digest(bytes).prefix(count) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(text)
    }

    /// The digest's last 8 bytes read as a big-endian integer, computed in stack memory.
    package static func lastEightBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let state = finalState(bytes)
        // The digest is A, B, C, D, each little-endian; bytes 8..<16 are C then D.
        return UInt64(state.c.byteSwapped) << 32 | UInt64(state.d.byteSwapped)
    }

    /// The chaining variables after hashing `bytes`, using no heap memory.
    private static func finalState(_ bytes: UnsafeBufferPointer<UInt8>) -> State {
        var state = State()
        let fullBlocks = bytes.count / 64
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
            for block in 0..<fullBlocks {
                loadWords(from: bytes, at: block * 64, into: w)
                state.compress(w)
            }
            // Final one or two blocks: the remaining bytes, the 0x80 marker,
            // zero padding and the message length in bits (little-endian).
            let remaining = bytes.count - fullBlocks * 64
            let tailCount = remaining < 56 ? 64 : 128
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                tail.initialize(repeating: 0)
                for i in 0..<remaining {
                    tail[i] = bytes[fullBlocks * 64 + i]
                }
                tail[remaining] = 0x80
                let bitLength = UInt64(truncatingIfNeeded: bytes.count) &* 8
                for i in 0..<8 {
                    tail[tailCount - 8 + i] = UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i)))
                }
                let input = UnsafeBufferPointer(tail)
                var offset = 0
                while offset < tailCount {
                    loadWords(from: input, at: offset, into: w)
                    state.compress(w)
                    offset += 64
                }
            }
        }
        return state
    }

    /// Returns the lowercase hexadecimal MD5 digest of the UTF-8 encoding of `text`.
    package static func hexDigest(_ text: String) -> String {
        let hexDigits: [Character] = Array("0123456789abcdef")
        var result = ""
        result.reserveCapacity(32)
        for byte in digest(Array(text.utf8)) {
            result.append(hexDigits[Int(byte >> 4)])
            result.append(hexDigits[Int(byte & 0x0f)])
        }
        return result
    }

    /// Reads 16 little-endian 32-bit words starting at `offset`.
    private static func loadWords(
        from input: UnsafeBufferPointer<UInt8>,
        at offset: Int,
        into w: UnsafeMutableBufferPointer<UInt32>
    ) {
        for i in 0..<16 {
            let p = offset + i * 4
            w[i] = UInt32(input[p])
                | UInt32(input[p + 1]) << 8
                | UInt32(input[p + 2]) << 16
                | UInt32(input[p + 3]) << 24
        }
    }

    /// The four chaining variables A, B, C, D.
    private struct State {
        var a: UInt32 = 0x6745_2301
        var b: UInt32 = 0xefcd_ab89
        var c: UInt32 = 0x98ba_dcfe
        var d: UInt32 = 0x1032_5476

        /// Processes one 512-bit block given as 16 words.
        mutating func compress(_ x: UnsafeMutableBufferPointer<UInt32>) {
            var aa = a, bb = b, cc = c, dd = d

            @inline(__always)
            func step(_ f: UInt32, _ k: UInt32, _ m: UInt32, _ s: UInt32) {
                let sum = aa &+ f &+ k &+ m
                let rotated = (sum << s) | (sum >> (32 - s))
                aa = dd
                dd = cc
                cc = bb
                bb = bb &+ rotated
            }

            // Round 1: F(b, c, d) = (b & c) | (~b & d), message index i.
            step((bb & cc) | (~bb & dd), 0xd76a_a478, x[0], 7)
            step((bb & cc) | (~bb & dd), 0xe8c7_b756, x[1], 12)
            step((bb & cc) | (~bb & dd), 0x2420_70db, x[2], 17)
            step((bb & cc) | (~bb & dd), 0xc1bd_ceee, x[3], 22)
            step((bb & cc) | (~bb & dd), 0xf57c_0faf, x[4], 7)
            step((bb & cc) | (~bb & dd), 0x4787_c62a, x[5], 12)
            step((bb & cc) | (~bb & dd), 0xa830_4613, x[6], 17)
            step((bb & cc) | (~bb & dd), 0xfd46_9501, x[7], 22)
            step((bb & cc) | (~bb & dd), 0x6980_98d8, x[8], 7)
            step((bb & cc) | (~bb & dd), 0x8b44_f7af, x[9], 12)
            step((bb & cc) | (~bb & dd), 0xffff_5bb1, x[10], 17)
            step((bb & cc) | (~bb & dd), 0x895c_d7be, x[11], 22)
            step((bb & cc) | (~bb & dd), 0x6b90_1122, x[12], 7)
            step((bb & cc) | (~bb & dd), 0xfd98_7193, x[13], 12)
            step((bb & cc) | (~bb & dd), 0xa679_438e, x[14], 17)
            step((bb & cc) | (~bb & dd), 0x49b4_0821, x[15], 22)

            // Round 2: G(b, c, d) = (b & d) | (c & ~d), message index (5i + 1) mod 16.
            step((bb & dd) | (cc & ~dd), 0xf61e_2562, x[1], 5)
            step((bb & dd) | (cc & ~dd), 0xc040_b340, x[6], 9)
            step((bb & dd) | (cc & ~dd), 0x265e_5a51, x[11], 14)
            step((bb & dd) | (cc & ~dd), 0xe9b6_c7aa, x[0], 20)
            step((bb & dd) | (cc & ~dd), 0xd62f_105d, x[5], 5)
            step((bb & dd) | (cc & ~dd), 0x0244_1453, x[10], 9)
            step((bb & dd) | (cc & ~dd), 0xd8a1_e681, x[15], 14)
            step((bb & dd) | (cc & ~dd), 0xe7d3_fbc8, x[4], 20)
            step((bb & dd) | (cc & ~dd), 0x21e1_cde6, x[9], 5)
            step((bb & dd) | (cc & ~dd), 0xc337_07d6, x[14], 9)
            step((bb & dd) | (cc & ~dd), 0xf4d5_0d87, x[3], 14)
            step((bb & dd) | (cc & ~dd), 0x455a_14ed, x[8], 20)
            step((bb & dd) | (cc & ~dd), 0xa9e3_e905, x[13], 5)
            step((bb & dd) | (cc & ~dd), 0xfcef_a3f8, x[2], 9)
            step((bb & dd) | (cc & ~dd), 0x676f_02d9, x[7], 14)
            step((bb & dd) | (cc & ~dd), 0x8d2a_4c8a, x[12], 20)

            // Round 3: H(b, c, d) = b ^ c ^ d, message index (3i + 5) mod 16.
            step(bb ^ cc ^ dd, 0xfffa_3942, x[5], 4)
            step(bb ^ cc ^ dd, 0x8771_f681, x[8], 11)
            step(bb ^ cc ^ dd, 0x6d9d_6122, x[11], 16)
            step(bb ^ cc ^ dd, 0xfde5_380c, x[14], 23)
            step(bb ^ cc ^ dd, 0xa4be_ea44, x[1], 4)
            step(bb ^ cc ^ dd, 0x4bde_cfa9, x[4], 11)
            step(bb ^ cc ^ dd, 0xf6bb_4b60, x[7], 16)
            step(bb ^ cc ^ dd, 0xbebf_bc70, x[10], 23)
            step(bb ^ cc ^ dd, 0x289b_7ec6, x[13], 4)
            step(bb ^ cc ^ dd, 0xeaa1_27fa, x[0], 11)
            step(bb ^ cc ^ dd, 0xd4ef_3085, x[3], 16)
            step(bb ^ cc ^ dd, 0x0488_1d05, x[6], 23)
            step(bb ^ cc ^ dd, 0xd9d4_d039, x[9], 4)
            step(bb ^ cc ^ dd, 0xe6db_99e5, x[12], 11)
            step(bb ^ cc ^ dd, 0x1fa2_7cf8, x[15], 16)
            step(bb ^ cc ^ dd, 0xc4ac_5665, x[2], 23)

            // Round 4: I(b, c, d) = c ^ (b | ~d), message index 7i mod 16.
            step(cc ^ (bb | ~dd), 0xf429_2244, x[0], 6)
            step(cc ^ (bb | ~dd), 0x432a_ff97, x[7], 10)
            step(cc ^ (bb | ~dd), 0xab94_23a7, x[14], 15)
            step(cc ^ (bb | ~dd), 0xfc93_a039, x[5], 21)
            step(cc ^ (bb | ~dd), 0x655b_59c3, x[12], 6)
            step(cc ^ (bb | ~dd), 0x8f0c_cc92, x[3], 10)
            step(cc ^ (bb | ~dd), 0xffef_f47d, x[10], 15)
            step(cc ^ (bb | ~dd), 0x8584_5dd1, x[1], 21)
            step(cc ^ (bb | ~dd), 0x6fa8_7e4f, x[8], 6)
            step(cc ^ (bb | ~dd), 0xfe2c_e6e0, x[15], 10)
            step(cc ^ (bb | ~dd), 0xa301_4314, x[6], 15)
            step(cc ^ (bb | ~dd), 0x4e08_11a1, x[13], 21)
            step(cc ^ (bb | ~dd), 0xf753_7e82, x[4], 6)
            step(cc ^ (bb | ~dd), 0xbd3a_f235, x[11], 10)
            step(cc ^ (bb | ~dd), 0x2ad7_d2bb, x[2], 15)
            step(cc ^ (bb | ~dd), 0xeb86_d391, x[9], 21)

            a = a &+ aa
            b = b &+ bb
            c = c &+ cc
            d = d &+ dd
        }
    }
}
