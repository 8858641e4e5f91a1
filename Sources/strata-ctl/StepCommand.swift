import ArgumentParser
import StrataControlProtocol

/// `strata-ctl step [N]`: N frames of the manual clock (`strata --clock manual`).
struct StepCommand: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "step",
        abstract: "Advance Strata's manual clock by N frames (default 1): repaints, frame callbacks and presentation feedback happen now.",
        discussion: "Only under `strata --clock manual`; the realtime clock answers with an error. Prints the frames stepped and the virtual time in nanoseconds.")
    @OptionGroup var options: ConnectionOptions
    @Argument(help: ArgumentHelp("How many frames (1...36000).", valueName: "N")) var frames: Int = 1

    func makeRequest() throws -> (command: String, arguments: [String: JSONValue]) {
        guard (1...36_000).contains(frames) else { throw ValidationError("step takes a number of frames between 1 and 36000") }
        return ("step", ["frames": JSONValue(frames)])
    }

    func render(_ reply: JSONValue) -> String? {
        "\(reply["frames"]?.intValue ?? 0) frames, time \(reply["time_ns"]?.intValue ?? 0) ns"
    }
}
