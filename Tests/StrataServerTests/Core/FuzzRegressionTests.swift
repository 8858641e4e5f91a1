import Foundation
import StrataTestSupport
import StrataTestRandom
import Testing

/// The fuzzer's inputs replayed as tests: the seed corpus (fuzz/corpus), every input that once
/// crashed or leaked (fuzz/regressions, named after what they found), and a few hundred seeded
/// random programs, each against a fresh server, which must survive and be back at its baseline.
@Suite struct FuzzRegressionTests {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz")

    static func inputs(in folder: String) -> [String] {
        let directory = fuzzDirectory.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { "\(folder)/\($0)" }
    }

    /// The folders are in git: an empty listing means the tests look in the wrong place (or the
    /// files went missing), and the parameterized test below would then pass having run nothing.
    @Test func theSavedInputsAreFound() {
        #expect(
            Self.inputs(in: "regressions").count >= 2, "no regression inputs in \(Self.fuzzDirectory.path)/regressions")
        #expect(Self.inputs(in: "corpus").count >= 12, "no seed corpus in \(Self.fuzzDirectory.path)/corpus")
    }

    /// Each saved input on screens at scale 1 and at 1.5 (CI fuzzes at both).
    @Test(arguments: inputs(in: "regressions") + inputs(in: "corpus"))
    func savedInputLeavesTheServerUnharmed(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fuzzDirectory.appendingPathComponent(name)))
        for scale in [1, 1.5] {
            let fuzzer = WireFuzzer(server: try TestServer(screens: 2), screenScale: scale)
            #expect(fuzzer.run(bytes) == nil, "\(name) at scale \(scale)")
        }
    }

    /// The structure-aware seeds (fuzz/corpus/structured-*): each one still drives the fuzzer's
    /// client to the state it was made for (subsurface chains and fans with content, a far
    /// subsurface, huge transformed buffers, viewports, scaled and transformed surfaces, a
    /// fractionally scaled screen), and leaves the server unharmed. STRATA_WRITE_SEEDS=1 writes
    /// the missing ones (`WireFuzzer.program(reaching:seed:)`).
    @Test(arguments: WireFuzzer.Milestone.allCases)
    func structuredSeedReachesItsMilestone(_ milestone: WireFuzzer.Milestone) throws {
        let url = Self.fuzzDirectory.appendingPathComponent("corpus/structured-\(milestone.rawValue)")
        let fuzzer = WireFuzzer(server: try TestServer(screens: 2))
        if !FileManager.default.fileExists(atPath: url.path),
            ProcessInfo.processInfo.environment["STRATA_WRITE_SEEDS"] == "1"
        {
            let bytes = try #require(fuzzer.program(reaching: milestone, seed: 17), "no program reaches \(milestone)")
            try Data(bytes).write(to: url)
        }
        let bytes = try [UInt8](Data(contentsOf: url))
        #expect(fuzzer.run(bytes) == nil)
        #expect(
            fuzzer.reached.contains(milestone),
            "structured-\(milestone.rawValue) reaches \(fuzzer.reached.map(\.rawValue))")
    }

    @Test func seededRandomProgramsLeaveTheServerUnharmed() throws {
        let fuzzer = WireFuzzer(server: try TestServer(screens: 2))
        var generator = SeededGenerator(seed: 9)
        for index in 0..<300 {
            let bytes = (0..<(64 + index % 512)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let result = fuzzer.run(bytes)
            #expect(result == nil, "program \(index): \(result ?? "")")
            if result != nil { break }
        }
    }
}
