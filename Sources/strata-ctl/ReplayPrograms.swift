import FoundationEssentials
import StrataControlProtocol
import StrataTrace

/// The programs a replay would start: the header's command (when it drives the replay,
/// `ReplayDriver`) and every recorded `exec` the replay issues again, each with the directory it
/// would run in. A trace is untrusted input, so `strata-ctl replay`
/// starts them only with `--run-commands`, or when every one is one of Strata's own test
/// clients: argv[0] is `strata-color-client`, `strata-x11-color-client` or `strata-im-client`,
/// given by that bare name or as the path of the one beside strata-ctl, and that one exists
/// (it is then run by that path, never found on PATH). strata-ctl itself is not one of them:
/// its `exec`, `run` and file-writing subcommands make it a program runner.
struct ReplayPrograms {
    struct Program {
        var argv: [String]
        var cwd: String
        /// Where the trace asks for it: "the header's command" or "line N".
        var origin: String
    }

    static let ownClients: Set<String> = ["strata-color-client", "strata-x11-color-client", "strata-im-client"]

    let programs: [Program]
    /// The directory strata-ctl runs from (its own clients are looked for there).
    let toolDirectory: String

    init(trace: TraceFile, driver: ReplayDriver, toolDirectory: String, currentDirectory: String) {
        self.toolDirectory = toolDirectory
        var programs: [Program] = []
        if let command = driver.command {
            programs.append(Program(argv: command, cwd: currentDirectory, origin: "the header's command"))
        }
        for (index, line) in trace.lines.enumerated()
        where line["type"] == "command" && line["request"]?["command"] == "exec" && driver.replays(line: index) {
            let argv = line["request"]?["argv"]?.arrayValue?.map { $0.stringValue ?? "\($0)" } ?? []
            let cwd = line["request"]?["cwd"]?.stringValue ?? currentDirectory
            programs.append(Program(argv: argv, cwd: cwd, origin: "line \(index + 1)"))
        }
        self.programs = programs
    }

    /// The path of Strata's own client `argv0` names, or nil when it names anything else.
    func ownClient(_ argv0: String) -> String? {
        let name = argv0.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? argv0
        guard Self.ownClients.contains(name) else { return nil }
        let sibling = toolDirectory + "/" + name
        guard argv0 == name || argv0 == sibling, FileManager.default.isExecutableFile(atPath: sibling) else {
            return nil
        }
        return sibling
    }

    /// True when every program is one of Strata's own clients (or there is none).
    var onlyOwnClients: Bool {
        programs.allSatisfy { $0.argv.first.flatMap(ownClient) != nil }
    }

    /// `argv` as the replay runs it: an own client by its path beside strata-ctl.
    func resolved(_ argv: [String]) -> [String] {
        guard let first = argv.first, let path = ownClient(first) else { return argv }
        return [path] + argv.dropFirst()
    }

    /// One line per program, for the refusal.
    var listing: [String] {
        programs.map { program in
            "  \(program.origin): \(program.argv.map(Self.quoted).joined(separator: " "))  (in \(Self.quoted(program.cwd)))"
        }
    }

    /// A word as a shell would need it, so the listing shows exactly what would run.
    static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil))
                    || "-_./=:@%+,".unicodeScalars.contains($0)
            }
        guard !plain else { return word }
        // Control characters shown, never sent to the terminal.
        let shown = String(
            String.UnicodeScalarView(word.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : $0 }))
        return "'" + shown.replacing("'", with: "'\\''") + "'"
    }
}
