import CStrataClientGlue
import CWaylandClient
import StrataServer
import StrataTestSupport
import Testing

final class RelativeRecord {
    var motions: [(dx: Double, dy: Double, time: UInt64)] = []
}

/// zwp_relative_pointer_manager_v1: the focus client's relative pointers get the deltas of the
/// seat's pointer motion.
@Suite struct RelativePointerTests {
    static var listener = zwp_relative_pointer_v1_listener(
        relative_motion: { data, _, hi, lo, dx, dy, _, _ in
            guard let data else { return }
            Unmanaged<RelativeRecord>.fromOpaque(data).takeUnretainedValue().motions.append(
                (wl_fixed_to_double(dx), wl_fixed_to_double(dy), UInt64(hi) << 32 | UInt64(lo)))
        })

    func relativePointer(_ client: TestClient, _ seat: TestSeat, _ record: RelativeRecord) throws -> OpaquePointer? {
        let manager = try client.bind(zwp_relative_pointer_manager_v1_interface_ptr(), version: 1)
        let pointer = try #require(seat.getPointer())
        let relative = zwp_relative_pointer_manager_v1_get_relative_pointer(manager, pointer)
        zwp_relative_pointer_v1_add_listener(relative, &Self.listener, Unmanaged.passUnretained(record).toOpaque())
        return relative
    }

    /// The wl_pointer released before its relative pointer, then the relative pointer destroyed:
    /// nothing is left behind (the fuzzer found the relative pointer kept alive by the seat).
    @Test func aRelativePointerDestroyedAfterItsWlPointerLeavesNothingBehind() throws {
        let server = try TestServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let client = try TestClient(server: server)
            let seat = try TestSeat(client: client)
            let manager = try client.bind(zwp_relative_pointer_manager_v1_interface_ptr(), version: 1)
            let pointer = try #require(seat.getPointer())
            let relative = try #require(zwp_relative_pointer_manager_v1_get_relative_pointer(manager, pointer))
            #expect(client.roundtrip())
            wl_pointer_release(pointer)
            #expect(client.roundtrip())
            zwp_relative_pointer_v1_destroy(relative)
            zwp_relative_pointer_manager_v1_destroy(manager)
            #expect(client.roundtrip())
            #expect(client.connectionError == 0)
        }
        server.expectLiveCounts(backAt: baseline)
    }

    @Test func theFocusClientGetsTheMotionDeltas() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        let record = RelativeRecord()
        _ = try relativePointer(client, seat, record)
        let surface = try client.makeSurface(width: 50, height: 50)
        client.showPlainSurface(surface, x: 100, y: 100)
        let input: Seat = server.compositor.seat
        let output = server.compositor.scene.outputs[0]
        input.pointerMotion(on: output, x: 110, y: 120, time: 1)
        input.pointerMotion(on: output, x: 112.5, y: 117, time: 2)
        client.roundtrip()
        let last = try #require(record.motions.last)
        #expect(last.dx == 2.5 && last.dy == -3)
        #expect(last.time > 0)
        _ = seat.takeEvents()
        input.pointerMotion(on: output, x: 113, y: 117, time: 3)
        client.roundtrip()
        #expect(record.motions.last.map { $0.dx == 0.5 && $0.dy == 0 } == true)
        #expect(seat.takeEvents().last == .pointerFrame, "the group ends with a frame")
    }

    @Test func aClientWithoutThePointerFocusGetsNoDeltas() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        let record = RelativeRecord()
        _ = try relativePointer(client, seat, record)
        let surface = try client.makeSurface(width: 50, height: 50)
        client.showPlainSurface(surface, x: 100, y: 100)
        let input: Seat = server.compositor.seat
        let output = server.compositor.scene.outputs[0]
        input.pointerMotion(on: output, x: 10, y: 10, time: 1)
        input.pointerMotion(on: output, x: 20, y: 20, time: 2)
        client.roundtrip()
        #expect(record.motions.isEmpty)
    }

    @Test func aDestroyedRelativePointerGetsNothingMore() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        let record = RelativeRecord()
        let relative = try relativePointer(client, seat, record)
        let surface = try client.makeSurface(width: 50, height: 50)
        client.showPlainSurface(surface, x: 100, y: 100)
        let input: Seat = server.compositor.seat
        let output = server.compositor.scene.outputs[0]
        input.pointerMotion(on: output, x: 110, y: 110, time: 1)
        zwp_relative_pointer_v1_destroy(relative)
        client.roundtrip()
        input.pointerMotion(on: output, x: 120, y: 120, time: 2)
        #expect(client.roundtrip())
        #expect(record.motions.isEmpty)
    }
}
