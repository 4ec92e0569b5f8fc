import TargetingBase
import Foundation

/// Where a command writes and reads: real streams, or buffers in tests.
package final class CommandIO: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: (String) -> Void
    /// Writes UTF-8 bytes to standard output as they are, when the stream takes bytes.
    private var writeOutBytes: ((UnsafeRawBufferPointer) -> Void)?
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
        io.writeOutBytes = { bytes in
            guard let base = bytes.baseAddress else { return }
            outHandle.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none))
        }
        io.buffersOutput = true
        return io
    }

    private var buffersOutput = false
    /// Buffered standard output, as UTF-8.
    private var pending: [UInt8] = []

    /// Writes to standard output.
    package func out(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        guard buffersOutput else { return writeOut(text) }
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { flushLocked() }
    }

    /// Writes UTF-8 bytes to standard output (copied as they are when the stream is buffered).
    package func out(_ bytes: ArraySlice<UInt8>) {
        lock.lock()
        defer { lock.unlock() }
        guard buffersOutput else { return writeOut(String(decoding: bytes, as: UTF8.self)) }
        if let writeOutBytes, bytes.count >= 1 << 16 {
            // A large run goes out from where it lies, after what was buffered before it.
            flushLocked()
            bytes.withUnsafeBytes { writeOutBytes($0) }
            return
        }
        pending.append(contentsOf: bytes)
        if pending.count >= 1 << 16 { flushLocked() }
    }

    /// Writes a diagnostic to standard error, rendered as `check` prints them (quoting lines of `files`).
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
        if let writeOutBytes { pending.withUnsafeBytes { writeOutBytes($0) } } else { writeOut(String(decoding: pending, as: UTF8.self)) }
        pending.removeAll(keepingCapacity: true)
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
