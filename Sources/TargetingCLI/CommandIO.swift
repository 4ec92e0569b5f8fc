import TargetingBase
import Foundation

/// Where a command writes and reads: real streams, or buffers in tests.
package final class CommandIO: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    /// Reads all of standard input.
    package let readStandardInput: () -> [UInt8]
    /// The working directory of the run, for callers that need it; commands open file paths
    /// as given (relative paths are relative to the process's working directory).
    package let currentDirectory: String

    /// Reads the next bytes of standard input as they arrive (blocking until some do); empty
    /// at the end of the input. For a server that answers while its input is still open.
    package let readStandardInputChunk: () -> [UInt8]

    /// Creates streams from closures; without `stdinChunk`, the chunks are all of `stdin` at once.
    package init(currentDirectory: String, out: @escaping (String) -> Void, err: @escaping (String) -> Void, stdin: @escaping () -> [UInt8],
                 stdinChunk: (() -> [UInt8])? = nil) {
        self.currentDirectory = currentDirectory
        self.writeOut = out
        self.writeErr = err
        self.readStandardInput = stdin
        if let stdinChunk {
            self.readStandardInputChunk = stdinChunk
        } else {
            let readOnce = ReadOnce(stdin)
            self.readStandardInputChunk = { readOnce.next() }
        }
    }

    /// The process's own standard streams. Standard output is buffered (large batches print
    /// millions of lines); it is flushed before anything goes to standard error, so the two
    /// stay in order, and by `flush()` at the end of a run.
    package static var standard: CommandIO {
        let outHandle = FileHandle.standardOutput
        let errHandle = FileHandle.standardError
        let io = CommandIO(currentDirectory: FileManager.default.currentDirectoryPath,
                           out: { outHandle.write(Data($0.utf8)) },
                           err: { errHandle.write(Data($0.utf8)) },
                           stdin: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) },
                           stdinChunk: { [UInt8](FileHandle.standardInput.availableData) })
        io.buffersOutput = true
        return io
    }

    private var buffersOutput = false
    private var pending = ""

    /// Writes to standard output.
    package func out(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        guard buffersOutput else { return writeOut(text) }
        pending += text
        if pending.utf8.count >= 1 << 16 {
            writeOut(pending)
            pending = ""
        }
    }

    /// Writes UTF-8 bytes to standard output.
    package func out(_ bytes: ArraySlice<UInt8>) {
        out(String(decoding: bytes, as: UTF8.self))
    }

    /// Writes a diagnostic to standard error, rendered as §8 text (quoting lines of `files`).
    func report(_ diagnostic: Diagnostic, files: [SourceFile] = []) {
        err(DiagnosticRenderer(files: files).text(diagnostic))
    }

    /// Writes to standard error (after flushing buffered output).
    package func err(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        flushLocked()
        writeErr(text)
    }

    /// Writes out anything buffered.
    package func flush() {
        lock.lock()
        defer { lock.unlock() }
        flushLocked()
    }

    private func flushLocked() {
        guard !pending.isEmpty else { return }
        writeOut(pending)
        pending = ""
    }
}

/// All of a stream the first time, then nothing.
private final class ReadOnce: @unchecked Sendable {
    private var read: (() -> [UInt8])?
    init(_ read: @escaping () -> [UInt8]) { self.read = read }
    func next() -> [UInt8] {
        guard let read else { return [] }
        self.read = nil
        return read()
    }
}
