import ArgumentParser
import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataTrace

/// `strata-ctl report TRACE -o report.html`: the trace as one self-contained page.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Write a trace as one self-contained HTML page: exploded stacks by level, a timeline to scrub, thumbnails where pictures changed.",
        discussion: """
            The trace is untrusted input: report runs nothing, and the page shows every value of the trace \
            as text, with a Content-Security-Policy that allows only its own script and style (no fetch). \
            Exit status 0 when written, 2 for a trace that cannot be read, 1 when the page cannot be written.
            """)
    @Argument(help: "The trace (strata --record).") var trace: String
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The HTML file to write.", valueName: "file"))
    var output: String
    @Option(
        help: ArgumentHelp(
            "The trace of a what-if replay of TRACE (strata-ctl replay --policy/--delegate): write both timelines side by side, the steps where key or stacking differ highlighted.",
            valueName: "replayed"))
    var compare: String?

    func run() throws {
        if let problem = OutputPath.problemWritingFile(output) {
            Output.printError("strata-ctl: error: cannot write the report to \(output): \(problem)")
            throw ExitCode(1)
        }
        let file: TraceFile
        do {
            file = try TraceFile(path: trace)
        } catch {
            Output.printError("strata-ctl: error: \(error.message)")
            throw ExitCode(2)
        }
        var html = TraceReport.html(for: file)
        if let compare {
            let replayed: TraceFile
            do {
                replayed = try TraceFile(path: compare)
            } catch {
                Output.printError("strata-ctl: error: \(error.message)")
                throw ExitCode(2)
            }
            html = WhatIfReport.html(
                recorded: file, replayed: replayed, comparison: WhatIfComparison(recorded: file, replayed: replayed),
                title: "What-if: \(trace) and \(compare)")
        }
        if let problem = OutputPath.write(html, to: output) {
            Output.printError("strata-ctl: error: cannot write the report: \(problem)")
            throw ExitCode(1)
        }
        print(output)
    }
}
