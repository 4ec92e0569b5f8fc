import Foundation

/// Where a command writes and reads: real streams, or buffers in tests.
public final class CommandIO: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    /// Reads all of standard input.
    public let readStandardInput: () -> [UInt8]
    /// The working directory of the run, for callers that need it; commands open file paths
    /// as given (relative paths are relative to the process's working directory).
    public let currentDirectory: String

    /// Creates streams from closures.
    public init(currentDirectory: String, out: @escaping (String) -> Void, err: @escaping (String) -> Void, stdin: @escaping () -> [UInt8]) {
        self.currentDirectory = currentDirectory
        self.writeOut = out
        self.writeErr = err
        self.readStandardInput = stdin
    }

    /// The process's own standard streams.
    public static var standard: CommandIO {
        let outHandle = FileHandle.standardOutput
        let errHandle = FileHandle.standardError
        return CommandIO(currentDirectory: FileManager.default.currentDirectoryPath,
                         out: { outHandle.write(Data($0.utf8)) },
                         err: { errHandle.write(Data($0.utf8)) },
                         stdin: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) })
    }

    /// Writes to standard output.
    public func out(_ text: String) { lock.lock(); writeOut(text); lock.unlock() }

    /// Writes to standard error.
    public func err(_ text: String) { lock.lock(); writeErr(text); lock.unlock() }
}
