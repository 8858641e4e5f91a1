import CStrataClientGlue
import CWaylandClient
import StrataServer
import StrataTestSupport

/// Commit throughput: clients of an in-process Strata push `wl_surface.commit`s with a new
/// 256×256 ARGB buffer and full damage (what weston-simple-shm sends each frame), as fast as the
/// one thread that runs both sides allows. The server copies each buffer's damage into the
/// surface's texture, releases it, and composites at its 60 Hz clock meanwhile.
public final class CommitThroughput {
    public let scene: CompositeScene
    public let side: Int32 = 256

    public init(clients: Int) throws {
        var specs: [SceneLayout.WindowSpec] = []
        for i in 0..<clients {
            specs.append(
                .init(
                    x: Int32(i % 7) * 260, y: Int32(i / 7 % 4) * 260, width: side, height: side, hasAlpha: true,
                    argb: 0xc040_4040))
        }
        scene = try CompositeScene(layout: SceneLayout(specs: specs), clients: clients)
    }

    /// Pushes `rounds` rounds; each round, every client commits `batch` times and then waits for
    /// the server (a roundtrip). Returns the number of commits.
    @discardableResult
    public func push(rounds: Int, batch: Int = 16) -> Int {
        var commits = 0
        for _ in 0..<rounds {
            for (index, surface) in scene.surfaces.enumerated() {
                let buffer = scene.buffers[index]
                for _ in 0..<batch {
                    wl_surface_attach(surface, buffer.buffer, 0, 0)
                    wl_surface_damage_buffer(surface, 0, 0, side, side)
                    wl_surface_commit(surface)
                    commits += 1
                }
                wl_display_flush(scene.clients[index].client.display)
            }
            for shell in scene.clients { shell.client.roundtrip() }
        }
        return commits
    }
}
