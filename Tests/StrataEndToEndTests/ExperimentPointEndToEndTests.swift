import Foundation
import Testing

/// `expect point` in experiment files: a wrong result names the line, the conversion and both
/// results; a malformed result says what a point is.
@Suite struct ExperimentPointEndToEndTests {
    @Test func aWrongOrMalformedExpectPointNamesTheLineAndWhatWasExpected() async throws {
        let ctl = try #require(ControlTests.ctl)
        let run = try StrataRun([], environment: ["PATH": ControlTests.path])
        let wrong = run.root + "/wrong.strata", malformed = run.root + "/malformed.strata"
        try """
        exec -- strata-color-client --app-id e2e.point --seconds 600
        wait-window e2e.point
        move e2e.point --screen 1 --to 40,30
        expect point e2e.point 1,2 41,32
        expect point e2e.point 1,2 1,2
        """.write(toFile: wrong, atomically: true, encoding: .utf8)
        try "expect point e2e.point 0,0 nowhere\n".write(toFile: malformed, atomically: true, encoding: .utf8)
        _ = await run.socketName()
        let socket = try #require(await run.controlSocket(), "no STRATA_SOCKET line: \(run.stderr)")
        let first = try await ProcessResult.run(
            [ctl, "run", wrong], environment: ["STRATA_SOCKET": socket], directory: run.root)
        #expect(first.status == 1)
        #expect(
            first.stderr.contains("wrong.strata:5: expected convert e2e.point 1,2 to give 1,2, but it gives 41,32"),
            "\(first.stderr)")
        let second = try await ProcessResult.run(
            [ctl, "run", malformed], environment: ["STRATA_SOCKET": socket], directory: run.root)
        #expect(second.status == 1)
        #expect(
            second.stderr.contains("malformed.strata:1: expect point's result nowhere: a point is X,Y"),
            "\(second.stderr)")
        run.send(SIGTERM)
        _ = await run.finish()
    }
}
