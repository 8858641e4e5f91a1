import ArgumentParser
import FoundationEssentials
import Glibc
import StrataControlProtocol
import StrataTrace

/// `strata-ctl replay TRACE --policy NAME | --delegate CMD`: the recording replayed under
/// another policy, compared decision by decision (`WhatIfComparison`; docs/experiments.md,
/// "What-if replay"). Exit status 0 when the replay completed (differences are its result), 1
/// when it could not be completed (a recorded window never opened or showed, the replay's
/// Strata failed, the delegate did not register), 2 for bad input (checked before: `run`).
extension ReplayCommand {
    func runWhatIf(
        trace: TraceFile, session: ReplaySession, driver: ReplayDriver, replayPath: String, directory: String
    ) throws {
        let kept = keptPath
        var helper: ReplayDelegate?
        if let command = delegate {
            do {
                helper = try ReplayDelegate(command: command, socket: session.socketPath, directory: directory)
            } catch {
                _ = session.finish()
                Output.printError("\(file): the what-if replay could not be completed: \(error)")
                throw ExitCode(1)
            }
            if let problem = helper?.waitUntilRegistered(
                session.client, timeout: timeout, errorPath: directory + "/delegate.err")
            {
                helper?.stop()
                _ = session.finish()
                Output.printError("\(file): the what-if replay could not be completed: \(problem)")
                throw ExitCode(1)
            }
        }
        session.whatIf = WhatIfSync(trace: trace)
        let failure = session.drive(trace, driver: driver)
        helper?.stop()
        let ending = session.finish()
        if let problem = ending.problem {
            reportStrataFailure(problem, stoppedBy: failure, session: session, replayPath: replayPath, kept: kept)
            throw ExitCode(1)
        }
        let replay = try Self.readReplay(replayPath)
        keepReplay(replayPath, as: kept)
        let comparison = WhatIfComparison(recorded: trace, replayed: replay)
        let recordedPolicy = trace.header["policy"]?.stringValue ?? "?"
        let under = [policy.map { "policy \($0)" }, delegate.map { "delegate \($0)" }].compactMap { $0 }
            .joined(separator: " and ")
        let problem = failure ?? session.missedPoint
        if json {
            print(
                String(
                    decoding: comparison.json(
                        trace: file, policy: policy, delegate: delegate, recordedPolicy: recordedPolicy,
                        completed: problem == nil
                    ).encodedLine(), as: UTF8.self))
        } else {
            let title =
                "\(TraceReportText.plain(file)) under \(TraceReportText.plain(under)) (recorded under \(TraceReportText.plain(recordedPolicy)))"
            for line in comparison.text(title: title) { print(line) }
        }
        Output.printError("the replay's trace: \(kept)")
        if let page = report {
            let html = WhatIfReport.html(
                recorded: trace, replayed: replay, comparison: comparison,
                title: "What-if: \(file) under \(under) (recorded under \(recordedPolicy))")
            if let problem = OutputPath.write(html, to: page) {
                Output.printError("strata-ctl: error: cannot write the report: \(problem)")
            } else {
                Output.printError("report: \(page)")
            }
        }
        if let problem {
            Output.printError("\(file): the what-if replay could not be completed: \(problem)")
            throw ExitCode(1)
        }
    }
}
