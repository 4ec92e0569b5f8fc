#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer's driver, for an executable that keeps its own `main` (SwiftPM renames every
/// executable's entry point and points `main` at it, so the executable cannot leave `main` to
/// libFuzzer); present only in a build with `-sanitize=fuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_silgen_name("__lsan_disable") private func lsanDisable()
@_silgen_name("__lsan_enable") private func lsanEnable()

/// Runs libFuzzer over the command line's arguments, calling `callback` once per input.
package enum FuzzDriver {
    /// Hands the process to libFuzzer; returns only to exit with libFuzzer's status.
    package static func run(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
    }

    /// Runs `body` (a target's one-time setup, such as loading a fixed rule set) with leak
    /// detection off for what it allocates. LeakSanitizer does not follow the spare-bit tagged
    /// pointers Swift keeps in enum payloads, so a syntax tree held for the whole run would be
    /// reported as leaked; what one input allocates is still checked.
    package static func setUp<T>(_ body: () -> T) -> T {
        lsanDisable()
        defer { lsanEnable() }
        return body()
    }

    /// The bytes of one input.
    package static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}

/// Stops the run with a message libFuzzer reports as a crash.
package func fuzzFailure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}
