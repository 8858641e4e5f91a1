import Foundation
import Testing

/// `strata-ctl input swipe|pinch|hold|tablet` against the built strata: what the command line
/// takes, and its clear refusals (usage errors exit 64 before anything is sent; the server's
/// refusals exit 1).
@Suite(.serialized) struct GestureAndTabletCommandLineTests {
    @Test(.enabled(if: ControlTests.ctl != nil, "strata-ctl is not built"))
    func gestureAndTabletCommandsWorkAndBadArgumentsAreRefused() async throws {
        let session = try await ControlTests.Session.start()
        try await session.ctl("input", "pointer", "move", "10", "20")
        try await session.ctl("input", "swipe", "begin", "3")
        try await session.ctl("input", "swipe", "update", "-3", "4.5")
        try await session.ctl("input", "swipe", "end")
        try await session.ctl("input", "pinch", "begin", "2")
        try await session.ctl("input", "pinch", "update", "1", "-1", "--scale", "0.5", "--rotation", "-15")
        try await session.ctl("input", "pinch", "cancel")
        try await session.ctl("input", "hold", "begin", "1")
        try await session.ctl("input", "hold", "end", "--cancel")
        let pen = try await session.ctl(
            "input", "tablet", "in", "10", "20", "--pressure", "0", "--tilt", "-10,20", "--json"
        ).stdout
        #expect(pen.contains("\"in_proximity\":true"), "\(pen)")
        try await session.ctl("input", "tablet", "down", "--pressure", "0.5")
        try await session.ctl("input", "tablet", "button", "stylus", "down")
        try await session.ctl("input", "tablet", "up")
        try await session.ctl("input", "tablet", "out")
        try await session.ctl(
            "input", "tablet", "in", "5", "5", "--tool", "mouse", "--serial", "7", "--wheel", "-15", "--wheel-clicks",
            "-1")

        func refused(_ arguments: String..., status: Int32 = 64, saying message: String) async throws {
            let result = try await ProcessResult.run(
                [try #require(ControlTests.ctl)] + arguments,
                environment: ["STRATA_SOCKET": session.socket], directory: session.run.root)
            #expect(result.status == status, "\(arguments.joined(separator: " ")): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments.joined(separator: " ")): \(result.stderr)")
        }
        try await refused("input", "swipe", "begin", "0", saying: "swipe begin takes a number of fingers, 1 to 10")
        try await refused("input", "swipe", "begin", "many", saying: "swipe begin takes a number of fingers, 1 to 10")
        try await refused("input", "swipe", "update", "1", saying: "swipe update takes DX DY")
        try await refused("input", "swipe", "update", "1", "nan", saying: "\"nan\" is not a finite number")
        try await refused("input", "swipe", "wiggle", saying: "the phase is begin, update, end or cancel")
        try await refused("input", "swipe", "begin", "3", "--cancel", saying: "--cancel belongs to swipe end")
        try await refused("input", "hold", "update", "1", "2", saying: "a hold has no update")
        try await refused(
            "input", "pinch", "begin", "2", "--scale", "2", saying: "--scale and --rotation belong to pinch update")
        try await refused("input", "pinch", "update", "0", "0", status: 1, saying: "no pinch gesture is in progress")
        try await refused("input", "tablet", "hover", saying: "the phase is in, move, down, up, button, axes or out")
        try await refused("input", "tablet", "in", "1", saying: "tablet in takes X and Y")
        try await refused("input", "tablet", "down", "7", saying: "tablet down takes no values")
        try await refused("input", "tablet", "button", "stylus", "sideways", saying: "tablet button takes a button")
        try await refused("input", "tablet", "in", "1", "1", "--tilt", "10", saying: "--tilt takes X,Y in degrees")
        try await refused("input", "tablet", "down", "--screen", "1", saying: "--screen belongs to tablet in and move")
        try await refused("input", "tablet", "in", "1", "1", "--serial", "-1", saying: "--serial is 0 or more")
        try await refused(
            "input", "tablet", "in", "1", "1", "--tool", "crayon", status: 1, saying: "\"crayon\" is not a tablet tool")
        try await refused(
            "input", "tablet", "in", "1", "1", "--slider", "0.5", status: 1, saying: "a pen has no slider axis")
        try await refused(
            "input", "tablet", "in", "1", "1", "--pressure", "2", status: 1,
            saying: "\"pressure\" must be between 0 and 1")
        try await refused(
            "input", "tablet", "down", "--tool", "eraser", status: 1,
            saying: "the eraser (serial 1) is not in proximity")
        #expect(await session.stop().status == 0)
    }
}
