import TargetingBase
import TargetingLanguageServer

/// `targeting lsp`: the language server for editors, speaking LSP over standard input and
/// output. Standard output carries only protocol messages; problems with the stream itself
/// (a header without `Content-Length`) go to standard error.
enum LspCommand: Command {
    static let name = "lsp"
    static let overview = "Run the language server for .rules and .tests files (LSP over stdio)"
    static let usage = "lsp [--stdio]"
    static let discussion = """
    Speaks the Language Server Protocol 3.17 on standard input and output (JSON-RPC with
    Content-Length framing), for any editor: diagnostics as you type, hover, definition,
    references, rename, completion, formatting, quick fixes, semantic tokens and symbols.
    Each rule set under the workspace folder (a directory of .rules files, with the .tests
    files next to or under it) is analysed on its own; the initialization option `rules`
    names them. Open documents take the place of their files on disk.
    Exit status: 0 after `shutdown` then `exit`; 1 when the input ends or `exit` comes first.
    """
    static let options = [
        OptionSpec(names: ["--stdio"], takesValue: false, valueName: "", help: "Use standard input and output (the default and only transport)"),
    ]

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "`lsp` takes no arguments") }
        var server = LanguageServer()
        var framer = MessageFramer()
        while true {
            let chunk = io.readStandardInputChunk()
            if chunk.isEmpty { return server.exitStatus ?? 1 }
            framer.append(chunk)
            while let frame = framer.next() {
                switch frame {
                case .malformed(let problem):
                    io.err("targeting lsp: \(problem)\n")
                case .message(let body):
                    for message in server.handle(body) {
                        io.out(String(decoding: MessageFramer.frame(Array(JSONWriter.write(message).utf8)), as: UTF8.self))
                    }
                    io.flush()
                    if let status = server.exitStatus { return status }
                }
            }
        }
    }
}
