import Foundation
import StrataRender
import Testing

/// `strata --overscan` for the start-up screens, and strata-ctl's checks on overscan and convert
/// arguments before anything is sent.
@Suite struct OverscanEndToEndTests {
    @Test(arguments: [
        ("10", 0xff00_0000 as UInt32, "scale"), ("10:inset", 0xff00_0000, "inset"), ("10:none", 0xff20_2428, "none"),
    ])
    func startUpScreensOverscanAsTheOptionSays(option: String, corner: UInt32, compensation: String) async throws {
        let ctl = try #require(StrataRun.sibling("strata-ctl"))
        let result = try await StrataRun.run(
            ["--size", "200x100", "--overscan", option],
            command: [ctl, "screens", "--json"], screenshots: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"overscan\":10"), "\(result.stdout)")
        #expect(result.stdout.contains("\"overscan_compensation\":\"\(compensation)\""), "\(result.stdout)")
        let shot = try #require(result.screenshots["HEADLESS-1.png"], "no screenshot; stderr: \(result.stderr)")
        #expect(shot.width == 200 && shot.height == 100)
        #expect(shot.at(0, 0) == corner)
        #expect(shot.at(100, 50) == 0xff20_2428)
    }

    @Test func strataCtlRefusesBadOverscanAndConvertArgumentsBeforeSending() async throws {
        let ctl = try #require(StrataRun.sibling("strata-ctl"))
        let cases: [([String], String)] = [
            (["screen", "overscan", "1", "wide"], "overscan compensation is scale, inset or none"),
            (["screen", "overscan", "1", "scale", "--percent", "25"], "overscan is a percentage between 0 and 20"),
            (["screen", "add", "--overscan", "5:tall"], "'5:tall': an overscan is PERCENT[:scale|inset|none]"),
            (["convert", "1", "10"], "'10': a point is X,Y and a rectangle X,Y,WxH"),
            (["convert", "1", "1,2,3"], "'1,2,3': a point is X,Y and a rectangle X,Y,WxH"),
            (
                ["convert", "1", "1,2", "--to", "2", "--to-screen", "1"],
                "give at most one of --to, --to-screen, --from and --from-screen"
            ),
        ]
        for (arguments, message) in cases {
            // No Strata runs: validation happens before strata-ctl looks for a socket.
            let result = try await ProcessResult.run(
                [ctl] + arguments, environment: ["STRATA_SOCKET": "/nonexistent"], directory: "/")
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
