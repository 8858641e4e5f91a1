import Foundation
import StrataRender
import Testing

/// An image-heavy X program under the built `strata`: strata-x11-color-client holding 2,500
/// depth-24 pixmaps (Xwayland backs each with a wl_shm pool, past an ordinary client's cap of
/// 1,024) drawn into and kept, then mapping its window, while another X client starts, shows and
/// closes beside it (docs/xwayland.md, "Xwayland's budget").
@Suite("An image-heavy X program end to end", .serialized)
struct XwaylandPixmapEndToEndTests {
    static let ready =
        StrataRun.sibling("strata-ctl") != nil && StrataRun.sibling("strata-x11-color-client") != nil
        && StrataRun.isInstalled("Xwayland")

    /// Whether `strata-ctl windows` lists a shown window of class `name`.
    private static func shown(_ session: ControlTests.Session, _ name: String) async throws -> Bool {
        try await session.ctl("windows").stdout.split(separator: "\n").contains {
            $0.contains(name) && $0.contains(" no  ")
        }
    }

    @Test(.enabled(if: ready, "strata-ctl, strata-x11-color-client or Xwayland is missing"))
    func anXProgramHoldingThousandsOfPixmapsShowsItsWindowBesideAnotherXClient() async throws {
        let session = try await ControlTests.Session.start(["--backend", "headless", "--size", "640x480"])
        let green: UInt32 = 0xff20_c040, blue: UInt32 = 0xff20_40c0
        _ = try await session.ctl(
            "exec", "--", "sh", "-c",
            "strata-x11-color-client --pixmaps 2500 --class Pixmaps --size 200x150 --color 20c040 "
                + "--seconds 120 > '\(session.run.root)/pixmaps.out' 2>&1")
        var heavy = false
        for _ in 0..<1200 where !heavy { heavy = try await Self.shown(session, "Pixmaps") }
        let output = (try? String(contentsOfFile: session.run.root + "/pixmaps.out", encoding: .utf8)) ?? ""
        #expect(heavy, "the pixmap-heavy client's window never showed; it wrote: \(output)")
        #expect(output.contains("pixmaps 2500"), "\(output)")
        // Another X client works beside it: maps, shows, and closes when asked.
        _ = try await session.ctl(
            "exec", "--", "sh", "-c",
            "strata-x11-color-client --class Other --size 160x120 --color 2040c0 --seconds 120 "
                + "> '\(session.run.root)/other.out' 2>&1")
        var other = false
        for _ in 0..<600 where !other { other = try await Self.shown(session, "Other") }
        #expect(other, "the second X client's window never showed")
        _ = try await session.ctl("move", "Pixmaps", "--to", "10,10")
        _ = try await session.ctl("move", "Other", "--to", "300,200")
        var shot: PNGFile.Pixels?
        for _ in 0..<400 {
            _ = try await session.ctl("screenshot", "-o", "pixmaps.png")
            let image = try PNGFile.read(path: session.run.root + "/pixmaps.png")
            if image.at(110, 85) == green, image.at(380, 260) == blue {
                shot = image
                break
            }
        }
        let image = try #require(shot, "the two X windows never showed together")
        #expect(image.at(10, 10) == green && image.at(209, 159) == green)
        #expect(image.at(300, 200) == blue && image.at(459, 319) == blue)
        _ = try await session.ctl("close", "Other")
        var gone = false
        for _ in 0..<600 where !gone { gone = try await !session.ctl("windows").stdout.contains("Other") }
        #expect(gone, "the second X client's window stayed")
        let closed = (try? String(contentsOfFile: session.run.root + "/other.out", encoding: .utf8)) ?? ""
        #expect(closed.contains("closed"), "the second X client did not close: \(closed)")
        // The pixmap-heavy client is still there, its window still shown (Xwayland lived).
        #expect(try await Self.shown(session, "Pixmaps"))
        let result = await session.stop()
        #expect(result.status == 0)
        #expect(!result.stderr.contains("per-client limit"), "\(result.stderr.suffix(2000))")
    }
}
