import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// Per-client budgets (`ClientBudget`): past each cap the client gets the named error and is
/// disconnected; the counts follow what the client holds; nobody else notices.
@Suite struct ClientBudgetTests {
    /// A memfd of `size` bytes (sparse), open in the test: the caller closes it.
    static func memfd(size: Int) -> Int32 {
        let fd = strata_client_memfd("strata-budget-test")
        _ = ftruncate(fd, off_t(size))
        return fd
    }

    @Test func aClientPastTheObjectCapGetsNoMemoryAndNobodyElseNotices() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            client.keepsEvents = false
            let compositor = try #require(client.bind("wl_compositor"))
            let budget = try #require(ClientBudget.of(client.serverClient))
            #expect(client.roundtrip())
            #expect(budget.objects == 2, "the registry and the compositor")
            // Up to one below the cap (the roundtrip's wl_callback is an object while it lives).
            let cap = Int(ClientBudget.maxObjects)
            for index in 0..<(cap - 3) {
                client.request(compositor, "wl_compositor.create_region", .newID(client.newID()))
                if index % 2000 == 0 { client.pump() }
            }
            #expect(client.roundtrip(limit: 1000))
            #expect(budget.objects == cap - 1)
            #expect(client.error == nil)
            client.request(compositor, "wl_compositor.create_region", .newID(client.newID()))
            client.request(compositor, "wl_compositor.create_region", .newID(client.newID()))
            client.expectOverBudget(naming: "more than \(cap) objects")
        }
        harness.expectUnharmed()
    }

    @Test func aClientPastTheSurfaceCapGetsNoMemory() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            client.keepsEvents = false
            let compositor = try #require(client.bind("wl_compositor"))
            let budget = try #require(ClientBudget.of(client.serverClient))
            let cap = Int(ClientBudget.maxSurfaces)
            for index in 0..<cap {
                client.request(compositor, "wl_compositor.create_surface", .newID(client.newID()))
                if index % 1000 == 0 { client.pump() }
            }
            #expect(client.roundtrip(limit: 1000))
            #expect(budget.surfaces == cap)
            #expect(client.error == nil)
            client.request(compositor, "wl_compositor.create_surface", .newID(client.newID()))
            client.expectOverBudget(naming: "more than \(cap) wl_surfaces")
        }
        harness.expectUnharmed()
    }

    @Test func poolsAndTheirBuffersAreCountedAsObjectsAndAsOneMappingUntilTheLastOfThemDies() throws {
        let server = try TestServer()
        let client = try RawClient(server: server)
        client.getRegistry()
        let shm = try #require(client.bind("wl_shm"))
        let budget = try #require(ClientBudget.of(client.serverClient))
        #expect(client.roundtrip())
        #expect(budget.objects == 2 && budget.pools == 0 && budget.poolBytes == 0)
        let (pool, buffer) = client.makeBuffer(shm: shm, width: 4, height: 4)
        #expect(client.roundtrip())
        #expect(budget.objects == 4 && budget.pools == 1 && budget.poolBytes == 64)
        client.request(pool, "wl_shm_pool.destroy")
        #expect(client.roundtrip())
        #expect(budget.objects == 3 && budget.pools == 1 && budget.poolBytes == 64, "the buffer keeps the mapping")
        client.request(buffer, "wl_buffer.destroy")
        #expect(client.roundtrip())
        #expect(budget.objects == 2 && budget.pools == 0 && budget.poolBytes == 0)
        // A pool grown by resize counts its new size.
        let (grown, _) = client.makeBuffer(shm: shm, width: 4, height: 4, poolSize: 64, fileSize: 4096)
        client.request(grown, "wl_shm_pool.resize", .int(4096))
        #expect(client.roundtrip())
        #expect(budget.pools == 1 && budget.poolBytes == 4096)
        #expect(client.error == nil)
    }

    @Test func aClientPastThePoolCapGetsNoMemoryWhileAnotherStillMakesPools() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            client.keepsEvents = false
            let shm = try #require(client.bind("wl_shm"))
            let fd = Self.memfd(size: 4096)
            defer { close(fd) }
            for index in 0..<Int(ClientBudget.maxPools) {
                client.request(shm, "wl_shm.create_pool", .newID(client.newID()), .fd(fd), .int(4096))
                if index % 100 == 0 { client.pump() }
            }
            #expect(client.roundtrip(limit: 1000))
            let budget = try #require(ClientBudget.of(client.serverClient))
            #expect(budget.pools == Int(ClientBudget.maxPools))
            #expect(budget.poolBytes == UInt64(ClientBudget.maxPools) * 4096)
            // Another client's pools are its own budget.
            let other = try harness.raw()
            let otherShm = try #require(other.bind("wl_shm"))
            other.request(otherShm, "wl_shm.create_pool", .newID(other.newID()), .fd(fd), .int(4096))
            #expect(other.roundtrip())
            #expect(other.error == nil)
            client.request(shm, "wl_shm.create_pool", .newID(client.newID()), .fd(fd), .int(4096))
            client.expectOverBudget(naming: "wl_shm pools")
        }
        harness.expectUnharmed()
    }

    /// Pools of 2 GiB on a file of one page (address space, not memory): four fit in the 8 GiB,
    /// a fifth does not; nor does growing a small one past the total.
    @Test(arguments: ["create_pool", "resize"])
    func aClientPastThePoolBytesCapGetsNoMemory(_ how: String) throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let shm = try #require(client.bind("wl_shm"))
            let fd = Self.memfd(size: 4096)
            defer { close(fd) }
            for _ in 0..<4 {
                client.request(shm, "wl_shm.create_pool", .newID(client.newID()), .fd(fd), .int(Int32.max))
            }
            let small = client.newID()
            client.request(shm, "wl_shm.create_pool", .newID(small), .fd(fd), .int(4))
            #expect(client.roundtrip())
            let budget = try #require(ClientBudget.of(client.serverClient))
            #expect(budget.poolBytes == ClientBudget.maxPoolBytes, "exactly the cap is allowed")
            #expect(client.error == nil)
            if how == "resize" {
                client.request(small, "wl_shm_pool.resize", .int(8))
            } else {
                client.request(shm, "wl_shm.create_pool", .newID(client.newID()), .fd(fd), .int(4))
            }
            client.expectOverBudget(naming: "bytes of wl_shm pools")
        }
        harness.expectUnharmed()
    }

    @Test func frameCallbacksAskedPastTheCapWithoutACommitAreNoMemory() throws {
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            let compositor = try #require(client.bind("wl_compositor"))
            let surface = client.createSurface(compositor)
            for _ in 0..<ClientBudget.maxFrameCallbacksPerSurface {
                client.request(surface, "wl_surface.frame", .newID(client.newID()))
            }
            #expect(client.roundtrip())
            #expect(client.error == nil)
            client.request(surface, "wl_surface.frame", .newID(client.newID()))
            client.expectOverBudget(naming: "frame callbacks")
        }
        harness.expectUnharmed()
    }

    /// A surface that is never shown keeps its callbacks; a client committing with one each time
    /// gets them done at the cap instead of growing Strata's memory, and stays connected.
    @Test func callbacksOfASurfaceNeverShownAreDoneAtTheCapAndTheClientStays() throws {
        let server = try TestServer()
        let client = try RawClient(server: server)
        client.getRegistry()
        let compositor = try #require(client.bind("wl_compositor"))
        let surface = client.createSurface(compositor)
        let cap = ClientBudget.maxFrameCallbacksPerSurface
        var callbacks: [UInt32] = []
        for index in 0..<(2 * cap + 10) {
            let callback = client.newID()
            callbacks.append(callback)
            client.request(surface, "wl_surface.frame", .newID(callback))
            client.request(surface, "wl_surface.commit")
            if index % 100 == 0 { client.pump() }
        }
        #expect(client.roundtrip())
        #expect(client.error == nil)
        let done = callbacks.map { id in client.events(for: id).contains { $0.opcode == 0 } }
        #expect(done.prefix(2 * cap).allSatisfy { $0 }, "the first \(2 * cap) are done")
        #expect(done.suffix(10).allSatisfy { !$0 }, "the last 10 still wait for a frame")
    }

    // MARK: MIME types

    enum MimeCase: String, CaseIterable, CustomTestStringConvertible {
        case tooLong, tooMany, tooManyBytes, tooManyBytesForTheClient
        var testDescription: String { rawValue }
    }

    static let sourceFactories = [
        ("wl_data_device_manager", "wl_data_device_manager.create_data_source", "wl_data_source.offer"),
        (
            "zwp_primary_selection_device_manager_v1", "zwp_primary_selection_device_manager_v1.create_source",
            "zwp_primary_selection_source_v1.offer"
        ),
        (
            "gtk_primary_selection_device_manager", "gtk_primary_selection_device_manager.create_source",
            "gtk_primary_selection_source.offer"
        ),
    ]

    /// A MIME type of exactly `length` bytes, distinct by `index`.
    static func mimeType(_ index: Int, length: Int) -> String {
        let head = "x-test/\(index)-"
        return head + String(repeating: "m", count: max(0, length - head.utf8.count))
    }

    @Test(arguments: [0, 1, 2], MimeCase.allCases)
    func mimeTypesPastACapAreNoMemory(_ factory: Int, _ kind: MimeCase) throws {
        let (global, create, offer) = Self.sourceFactories[factory]
        let harness = try HostileHarness()
        do {
            let client = try harness.raw()
            client.keepsEvents = false
            let manager = try #require(client.bind(global))
            func newSource() -> UInt32 {
                let id = client.newID()
                client.request(manager, create, .newID(id))
                return id
            }
            var source = newSource()
            // The same type many times is one type (and costs one set lookup each).
            for _ in 0..<5_000 { client.request(source, offer, .string("text/plain")) }
            var last: String
            switch kind {
            case .tooLong:
                client.request(source, offer, .string(Self.mimeType(0, length: ClientBudget.maxMimeTypeLength)))
                last = Self.mimeType(1, length: ClientBudget.maxMimeTypeLength + 1)
            case .tooMany:
                for index in 1..<ClientBudget.maxMimeTypesPerSource {
                    client.request(source, offer, .string(Self.mimeType(index, length: 20)))
                }
                last = Self.mimeType(0, length: 20)
            case .tooManyBytes:
                // text/plain costs 26; types of 238 bytes cost 254: 64 more fit in 16 KiB.
                for index in 0..<64 { client.request(source, offer, .string(Self.mimeType(index, length: 238))) }
                last = Self.mimeType(64, length: 238)
            case .tooManyBytesForTheClient:
                // Sources of 16 KiB each: 128 types of 112 bytes (cost 128); 64 of them are 1 MiB.
                client.request(source, "\(offer.split(separator: ".")[0]).destroy")
                for _ in 0..<64 {
                    source = newSource()
                    for index in 0..<128 { client.request(source, offer, .string(Self.mimeType(index, length: 112))) }
                    client.pump()
                }
                source = newSource()
                last = "text/plain"
            }
            #expect(client.roundtrip(limit: 1000))
            #expect(client.error == nil)
            client.request(source, offer, .string(last))
            client.expectOverBudget(naming: "MIME type")
        }
        harness.expectUnharmed()
    }

    // MARK: Buffers destroyed while shown

    /// A raw client's xdg toplevel showing a `width`×`height` ARGB buffer whose first `rows` rows
    /// are `argb` (the rest of its sparse file is zero). Returns (surface, pool, buffer).
    static func showColouredBuffer(_ client: RawClient, width: Int32, height: Int32, rows: Int32, argb: UInt32) -> (
        surface: UInt32, pool: UInt32, buffer: UInt32
    ) {
        let core = client.bindCore()
        let window = client.makeToplevel(core, width: 8, height: 8)
        let size = Int(width) * Int(height) * 4
        let fd = memfd(size: size)
        defer { close(fd) }
        let row = [UInt32](repeating: argb, count: Int(width) * Int(rows))
        _ = row.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        let pool = client.newID(), buffer = client.newID()
        client.request(core.shm, "wl_shm.create_pool", .newID(pool), .fd(fd), .int(Int32(size)))
        client.request(
            pool, "wl_shm_pool.create_buffer", .newID(buffer), .int(0), .int(width), .int(height), .int(width * 4),
            .uint(0))
        client.request(window.surface, "wl_surface.attach", .object(buffer), .int(0), .int(0))
        client.request(window.surface, "wl_surface.damage", .int(0), .int(0), .int(width), .int(height))
        client.request(window.surface, "wl_surface.commit")
        return (window.surface, pool, buffer)
    }

    @Test func aBufferDestroyedWhileShownIsCopiedOnTheClientsBudgetUntilReplaced() throws {
        let server = try TestServer()
        let client = try RawClient(server: server)
        client.getRegistry()
        let red: UInt32 = 0xffff_0000
        let (surface, pool, buffer) = Self.showColouredBuffer(client, width: 40, height: 40, rows: 40, argb: red)
        #expect(client.roundtrip())
        server.repaint()
        let frame = try #require(server.windows.windows.first?.frame)
        #expect(server.pixel(x: Int32(frame.x) + 20, y: Int32(frame.y) + 20) == red)
        let budget = try #require(ClientBudget.of(client.serverClient))
        client.request(buffer, "wl_buffer.destroy")
        client.request(pool, "wl_shm_pool.destroy")
        #expect(client.roundtrip())
        #expect(budget.copiedBytes == 40 * 40 * 4)
        #expect(budget.pools == 1, "the 8×8 buffer's pool; the destroyed one is unmapped")
        server.repaint()
        #expect(server.pixel(x: Int32(frame.x) + 20, y: Int32(frame.y) + 20) == red, "the copy is shown")
        // A new buffer replaces the copy, which goes with the next frame.
        let shm = try #require(client.bind("wl_shm"))
        let (_, next) = client.makeBuffer(shm: shm, width: 40, height: 40)
        client.request(surface, "wl_surface.attach", .object(next), .int(0), .int(0))
        client.request(surface, "wl_surface.commit")
        #expect(client.roundtrip())
        server.repaint()
        #expect(client.roundtrip())
        #expect(budget.copiedBytes == 0)
        #expect(client.error == nil)
    }

    /// Four 256 MiB buffers of sparse files cost the client nothing and cost Strata nothing:
    /// destroyed while shown they are not copied (past the copy budget), their pools are
    /// unmapped at once, and the window shows nothing until its next buffer.
    @Test func hugeBuffersDestroyedWhileShownAreNotCopied() throws {
        let server = try TestServer()
        var clients: [RawClient] = []
        for _ in 0..<4 {
            let client = try RawClient(server: server)
            client.getRegistry()
            clients.append(client)
        }
        let red: UInt32 = 0xffff_0000
        var shown: [(pool: UInt32, buffer: UInt32)] = []
        for client in clients {
            let (_, pool, buffer) = Self.showColouredBuffer(client, width: 8192, height: 8192, rows: 64, argb: red)
            shown.append((pool, buffer))
            #expect(client.roundtrip())
        }
        server.repaint()
        let frames = server.windows.windows.map(\.frame)
        #expect(frames.count == 4)
        for frame in frames {
            #expect(server.pixel(x: Int32(frame.x) + 4, y: Int32(frame.y) + 4) == red)
        }
        for (client, (pool, buffer)) in zip(clients, shown) {
            client.request(buffer, "wl_buffer.destroy")
            client.request(pool, "wl_shm_pool.destroy")
            #expect(client.roundtrip())
            let budget = try #require(ClientBudget.of(client.serverClient))
            #expect(budget.copiedBytes == 0)
            #expect(budget.pools == 1 && budget.poolBytes == 8 * 8 * 4, "only the small first buffer's pool is left")
        }
        server.repaint()
        for frame in server.windows.windows.map(\.frame) {
            #expect(
                server.pixel(x: Int32(frame.x) + 4, y: Int32(frame.y) + 4) != red,
                "nothing of the destroyed buffer is shown")
        }
        for client in clients { #expect(client.roundtrip() && client.error == nil) }
    }

    // MARK: Many clients

    /// 300 clients connected at once (each a socket, two descriptors in this process: 600, within
    /// the usual soft limit of 1,024, which a test does not raise) all get the registry and a
    /// roundtrip. Strata raising its own limit for more is `ClientCapacityEndToEndTests`'.
    @Test func threeHundredClientsConnectedAtOnceAreAllServed() throws {
        let server = try TestServer()
        var clients: [RawClient] = []
        for _ in 0..<300 {
            let client = try RawClient(server: server)
            client.keepsEvents = false
            client.getRegistry()
            clients.append(client)
        }
        for client in clients { #expect(client.roundtrip()) }
        #expect(clients.allSatisfy { !$0.isDisconnected && $0.error == nil && $0.globals.count > 20 })
    }
}
