import Foundation
import Glibc
import StrataRender
import StrataTestSupport
import Testing

/// `strata-ctl compare` as a user runs it: exit 0 within tolerance, 1 beyond, 2 on bad input.
@Suite struct CompareCommandLineTests {
    private func write(
        _ folder: String, _ name: String, width: Int, height: Int, change: ((inout [UInt32]) -> Void)? = nil
    ) throws -> String {
        var argb = [UInt32](repeating: 0xff33_6699, count: width * height)
        change?(&argb)
        let path = folder + "/" + name
        try PNGFile.write(path: path, pixels: PNGFile.Pixels(width: width, height: height, argb: argb))
        return path
    }

    private func compare(_ arguments: [String], in folder: String) async throws -> ProcessResult {
        try await ProcessResult.run(
            [try #require(ControlTests.ctl), "compare"] + arguments, environment: [:], directory: folder)
    }

    @Test func compareExitsByTheToleranceAndWritesTheDiff() async throws {
        let folder = try ScratchFolder()
        let a = try write(folder.path, "a.png", width: 64, height: 48)
        let b = try write(folder.path, "b.png", width: 64, height: 48) { argb in
            for y in 10..<14 { for x in 20..<25 { argb[y * 64 + x] = 0xffff_ffff } }
        }
        let same = try await compare([a, a], in: folder.path)
        #expect(same.status == 0, "\(same.ending)")
        #expect(same.stdout.contains("match: 0 of 3072 pixels differ"), "\(same.stdout)")
        let differ = try await compare([a, b, "-o", folder.path + "/diff.png"], in: folder.path)
        #expect(differ.status == 1, "\(differ.ending)")
        #expect(
            differ.stdout.contains("20 of 3072 pixels differ") && differ.stdout.contains("within 20,10,5x4"),
            "\(differ.stdout)")
        let diff = try PNGFile.read(path: folder.path + "/diff.png")
        #expect(diff.at(20, 10) & 0xffffff == 0xff0000)
        #expect(try await compare([a, b, "--max-diff", "20"], in: folder.path).status == 0)
        #expect(try await compare([a, b, "--max-diff", "1%"], in: folder.path).status == 0)
        #expect(try await compare([a, b, "--max-diff", "0.1%"], in: folder.path).status == 1)
        #expect(try await compare([a, b, "--mask", "20,10,5x4"], in: folder.path).status == 0)
        #expect(try await compare([a, b, "--threshold", "255"], in: folder.path).status == 0)
    }

    @Test func badInputExitsTwoInWords() async throws {
        let folder = try ScratchFolder()
        let a = try write(folder.path, "a.png", width: 4, height: 4)
        let tall = try write(folder.path, "tall.png", width: 4, height: 5)
        let huge = try write(folder.path, "huge.png", width: 20_000, height: 1)
        let sizes = try await compare([a, tall], in: folder.path)
        #expect(sizes.status == 2)
        #expect(sizes.stderr.contains("the pictures differ in size: 4x4 and 4x5"), "\(sizes.stderr)")
        let missing = try await compare([a, folder.path + "/nothing.png"], in: folder.path)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read PNG \(folder.path)/nothing.png"), "\(missing.stderr)")
        let big = try await compare([a, huge], in: folder.path)
        #expect(big.status == 2)
        #expect(big.stderr.contains("20000x1 is larger than"), "\(big.stderr)")
        #expect(try await compare([a, a, "--mask", "1,2,3"], in: folder.path).status == 64)
        #expect(try await compare([a, a, "--max-diff", "lots"], in: folder.path).status == 64)
    }
}
