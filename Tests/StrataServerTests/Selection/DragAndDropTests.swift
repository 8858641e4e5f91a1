import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
@testable import StrataServer
import StrataTestSupport
import Testing

/// A client with a seat (pointer and touch), a data device of `version` and a 40×40 window at
/// (x, 0).
final class DragClient {
    // Released in this order: the surface's buffer before the connection it was made on.
    let surface: TestSurface
    let window: Window
    let device: TestDataDevice
    let manager: OpaquePointer
    let seat: TestSeat
    let client: TestClient

    init(_ server: TestServer, x: Int, version: UInt32 = 3, argb: UInt32 = 0xff80_8080) throws {
        let client = try TestClient(server: server)
        let seat = try TestSeat(client: client)
        seat.getPointer()
        seat.getTouch()
        let manager = try client.bind(wl_data_device_manager_interface_ptr(), version: version)
        device = try TestDataDevice(manager: manager, seat: seat.seat)
        let surface = try client.makeSurface(width: 40, height: 40, argb: argb)
        window = try #require(client.showPlainSurface(surface, x: x, y: 0))
        self.surface = surface
        self.manager = manager
        self.seat = seat
        self.client = client
    }

    /// A source of "text/plain" carrying `text`, with `actions` (set_actions, v3) unless nil.
    func source(_ text: String = "dragged", actions: UInt32? = copyOrMove) throws -> TestDataSource {
        let source = try TestDataSource(manager: manager, mimeTypes: ["text/plain"], payload: Array(text.utf8))
        if let actions { wl_data_source_set_actions(source.source, actions) }
        return source
    }
}

private let copy = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue
private let move = WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue
private let ask = WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK.rawValue
let copyOrMove = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue | WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue

/// What the trace is told of drags.
final class DragTrace {
    var events: [DragEvent] = []
    private var token: Signal<DragEvent>.Token?

    init(_ seat: Seat) {
        token = seat.dragChanged.observe { [unowned self] event in self.events.append(event) }
    }

    deinit { token?.remove() }
}

/// Two clients side by side (A at x 0, B at x 100) and the seat's injection API.
struct DragScene {
    // Released in this order: the clients before the server.
    let a: DragClient
    let b: DragClient
    let server: TestServer
    var seat: Seat { server.compositor.seat }
    var output: ScreenOutput { server.compositor.scene.outputs[0] }

    init(version: UInt32 = 3, versionB: UInt32? = nil) throws {
        let server = try TestServer()
        // The icon is what these tests look at: no cursor over it.
        server.compositor.cursor.isHidden = true
        self.server = server
        a = try DragClient(server, x: 0, version: version, argb: 0xff00_00ff)
        b = try DragClient(server, x: 100, version: versionB ?? version, argb: 0xff00_ff00)
        sync()
        _ = a.seat.takeEvents()
        _ = b.seat.takeEvents()
    }

    func sync() {
        a.client.roundtrip()
        b.client.roundtrip()
        a.client.roundtrip()
    }

    func motion(_ x: Double, _ y: Double, time: UInt32 = 1) {
        seat.pointerMotion(on: output, x: x, y: y, time: time)
    }

    /// Presses the left button over A at (10, 10) and returns the press's serial.
    func pressOnA() -> UInt32 {
        motion(10, 10)
        seat.pointerButton(BTN_LEFT, pressed: true, time: 2)
        sync()
        return a.seat.lastPressSerial
    }

    /// Starts a drag from A's surface with `source` and `icon`, quoting `serial`.
    func startDrag(_ source: TestDataSource?, icon: OpaquePointer? = nil, serial: UInt32) {
        wl_data_device_start_drag(a.device.device, source?.source, a.surface.surface, icon, serial)
        sync()
    }
}

@Suite struct DragAndDropTests {
    @Test func aPointerDragFromOneClientDropsOnAnotherAndFinishes() throws {
        let s = try DragScene()
        let trace = DragTrace(s.seat)
        let source = try s.a.source("hello by drag")
        s.startDrag(source, serial: s.pressOnA())
        #expect(s.seat.drag != nil)
        // The origin's pointer focus leaves: the drag holds the pointer.
        #expect(s.a.seat.takeEvents().contains(.pointerLeave(surface: s.a.surface.id)))
        // A's own surface is under the point: A's device hears the drag first.
        #expect(
            s.a.device.takeDragEvents() == [
                .sourceActions(copyOrMove), .enter(surface: s.a.surface.id, x: 10, y: 10, hasOffer: true),
            ])

        s.motion(110, 20, time: 3)
        s.sync()
        #expect(s.a.device.takeDragEvents() == [.leave])
        #expect(
            s.b.device.takeDragEvents() == [
                .sourceActions(copyOrMove), .enter(surface: s.b.surface.id, x: 10, y: 20, hasOffer: true),
            ])
        #expect(s.b.device.dragMimeTypes == ["text/plain"])
        s.motion(111, 21, time: 4)
        s.sync()
        #expect(s.b.device.takeDragEvents() == [.motion(x: 11, y: 21)])
        // No pointer event reaches anyone during the drag.
        #expect(s.b.seat.takeEvents().isEmpty)

        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        wl_data_offer_set_actions(offer, copyOrMove, move)
        s.sync()
        #expect(s.b.device.takeDragEvents() == [.action(move)])
        #expect(source.dragEvents == ["target(text/plain)", "action(2)"])

        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        #expect(s.b.device.takeDragEvents() == [.drop, .leave])
        #expect(source.dragEvents.last == "dnd_drop_performed")
        #expect(s.seat.drag == nil)
        // The pointer's focus comes back to what is under it.
        #expect(s.b.seat.takeEvents().first == .pointerEnter(surface: s.b.surface.id, x: 11, y: 21))

        let fd = try #require(s.b.device.receiveDrag("text/plain"))
        defer { close(fd) }
        s.sync()
        s.b.client.roundtrip()
        #expect(String(decoding: readAvailable(fd).bytes, as: UTF8.self) == "hello by drag")
        wl_data_offer_finish(offer)
        s.sync()
        #expect(source.dragEvents == ["target(text/plain)", "action(2)", "dnd_drop_performed", "dnd_finished"])
        #expect(!source.cancelled)

        let window = s.b.window.id
        #expect(
            trace.events == [
                .started(touch: nil, hasSource: true, hasIcon: false), .entered(window: s.a.window.id), .left,
                .entered(window: window), .left, .ended(.dropped, action: move),
            ])
    }

    @Test func aDropOverADestinationThatNeverAnswersCancelsTheSource() throws {
        let s = try DragScene()
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.motion(120, 10)
        s.sync()
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        #expect(
            s.b.device.takeDragEvents() == [
                .sourceActions(copyOrMove), .enter(surface: s.b.surface.id, x: 20, y: 10, hasOffer: true), .leave,
            ])
        #expect(source.dragEvents == ["cancelled"])
        #expect(s.seat.drag == nil)
    }

    @Test func aDropOverNothingCancelsTheSourceAndTheFocusComesBack() throws {
        let s = try DragScene()
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.motion(300, 300)
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.motion(10, 10)
        s.sync()
        #expect(source.dragEvents == ["cancelled"])
        #expect(
            s.a.seat.takeEvents().suffix(2) == [.pointerEnter(surface: s.a.surface.id, x: 10, y: 10), .pointerFrame])
    }

    @Test func aDropAcceptedWithoutAnActionIsNotADrop() throws {
        let s = try DragScene()
        let source = try s.a.source(actions: move)
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        wl_data_offer_set_actions(offer, copy, copy)  // the source only moves
        s.sync()
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        #expect(!s.b.device.takeDragEvents().contains(.drop))
        #expect(source.dragEvents == ["target(text/plain)", "cancelled"])
    }

    @Test func anAskIsSettledAfterTheDropBeforeFinish() throws {
        let s = try DragScene()
        let source = try s.a.source(actions: copy | move | ask)
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        wl_data_offer_set_actions(offer, copy | move | ask, ask)
        s.sync()
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        #expect(s.b.device.takeDragEvents().suffix(3) == [.action(ask), .drop, .leave])
        wl_data_offer_set_actions(offer, move, move)
        wl_data_offer_finish(offer)
        s.sync()
        #expect(
            source.dragEvents == ["target(text/plain)", "action(4)", "dnd_drop_performed", "action(2)", "dnd_finished"])
        // The offer hears no action after the drop (the spec).
        #expect(s.b.device.takeDragEvents().isEmpty)
    }

    @Test func finishingAnAskNotSettledIsAnInvalidOfferError() throws {
        let s = try DragScene()
        let source = try s.a.source(actions: ask)
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        wl_data_offer_set_actions(offer, ask, ask)
        s.sync()
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        wl_data_offer_finish(offer)
        #expect(!s.b.client.roundtrip())
        #expect(s.b.client.protocolError?.code == WL_DATA_OFFER_ERROR_INVALID_OFFER.rawValue)
        #expect(s.b.client.protocolError?.interface == "wl_data_offer")
    }

    @Test func finishingBeforeTheDropIsAnInvalidFinishError() throws {
        let s = try DragScene()
        s.startDrag(try s.a.source(), serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_finish(offer)
        #expect(!s.b.client.roundtrip())
        #expect(s.b.client.protocolError?.code == WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue)
    }

    /// A drag dropped on B with copy, B's offer received and finished once.
    func finishedDrop() throws -> (DragScene, OpaquePointer) {
        let s = try DragScene()
        s.startDrag(try s.a.source(), serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        wl_data_offer_set_actions(offer, copy, copy)
        s.sync()
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        wl_data_offer_finish(offer)
        #expect(s.b.client.roundtrip())
        return (s, offer)
    }

    @Test func finishingTwiceIsAnInvalidFinishError() throws {
        let (s, offer) = try finishedDrop()
        wl_data_offer_finish(offer)
        #expect(!s.b.client.roundtrip())
        #expect(s.b.client.protocolError?.code == WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue)
    }

    @Test func setActionsAfterFinishIsAnInvalidOfferError() throws {
        let (s, offer) = try finishedDrop()
        wl_data_offer_set_actions(offer, copy, copy)
        #expect(!s.b.client.roundtrip())
        #expect(s.b.client.protocolError?.code == WL_DATA_OFFER_ERROR_INVALID_OFFER.rawValue)
    }

    @Test func anOfferLeftBehindIsInert() throws {
        let s = try DragScene()
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        let offer = try #require(s.b.device.dragOffer)
        s.motion(300, 300)
        s.sync()
        #expect(s.b.device.takeDragEvents().last == .leave)
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        wl_data_offer_set_actions(offer, copy, copy)
        let fd = try #require(s.b.device.receiveDrag("text/plain"))
        defer { close(fd) }
        s.sync()
        s.b.client.roundtrip()
        #expect(readToEnd(fd, stepping: s.b.client) == ([], true))
        #expect(source.sendRequests.isEmpty)
        #expect(source.dragEvents.isEmpty)
        #expect(s.b.device.takeDragEvents().isEmpty)
    }

    @Test func aVersionTwoSourceIsCancelledOnlyWhenTheNextDragReplacesIt() throws {
        let s = try DragScene(version: 2)
        let first = try s.a.source(actions: nil)
        s.startDrag(first, serial: s.pressOnA())
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        // A failed drag tells an old source nothing.
        #expect(!first.cancelled)
        let second = try s.a.source(actions: nil)
        s.startDrag(second, serial: s.pressOnA())
        #expect(first.cancelled)
        #expect(!second.cancelled)
        #expect(s.seat.drag != nil)
    }

    @Test func touchCancelEndsATouchDrag() throws {
        let s = try DragScene()
        let trace = DragTrace(s.seat)
        s.seat.touchDown(id: 1, on: s.output, x: 10, y: 10, time: 1)
        s.sync()
        let source = try s.a.source()
        s.startDrag(source, serial: s.a.seat.lastPressSerial)
        s.seat.touchCancel()
        s.sync()
        #expect(s.seat.drag == nil)
        #expect(source.dragEvents == ["cancelled"])
        #expect(trace.events.first == .started(touch: 1, hasSource: true, hasIcon: false))
        #expect(trace.events.last == .ended(.cancelled, action: 0))
    }

    @Test func anOfferActionMaskOutsideTheEnumIsAnInvalidActionMaskError() throws {
        let s = try DragScene()
        s.startDrag(try s.a.source(), serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        wl_data_offer_set_actions(try #require(s.b.device.dragOffer), 8, 0)
        #expect(!s.b.client.roundtrip())
        #expect(s.b.client.protocolError?.code == WL_DATA_OFFER_ERROR_INVALID_ACTION_MASK.rawValue)
    }

    @Test func aPreferredActionOfTwoActionsIsAnInvalidActionError() throws {
        let s = try DragScene()
        s.startDrag(try s.a.source(), serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        wl_data_offer_set_actions(try #require(s.b.device.dragOffer), copyOrMove, copyOrMove)
        #expect(!s.b.client.roundtrip())
        #expect(s.b.client.protocolError?.code == WL_DATA_OFFER_ERROR_INVALID_ACTION.rawValue)
    }

    @Test func aSourceActionMaskOutsideTheEnumIsAnInvalidActionMaskError() throws {
        let s = try DragScene()
        _ = try s.a.source(actions: 0x10)
        #expect(!s.a.client.roundtrip())
        #expect(s.a.client.protocolError?.code == WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK.rawValue)
    }

    @Test func aSourceUsedForTwoDragsIsAUsedSourceError() throws {
        let s = try DragScene()
        let source = try s.a.source()
        let serial = s.pressOnA()
        s.startDrag(source, serial: serial)
        wl_data_device_start_drag(s.a.device.device, source.source, s.a.surface.surface, nil, serial)
        #expect(!s.a.client.roundtrip())
        #expect(s.a.client.protocolError?.code == 1)  // wl_data_device.error.used_source
        #expect(s.a.client.protocolError?.interface == "wl_data_device")
    }

    @Test func aCursorSurfaceAsTheDragIconIsARoleError() throws {
        let s = try DragScene()
        let cursor = try s.a.client.makeSurface(width: 4, height: 4)
        wl_pointer_set_cursor(try #require(s.a.seat.pointer), 0, cursor.surface, 0, 0)
        wl_data_device_start_drag(
            s.a.device.device, try s.a.source().source, s.a.surface.surface, cursor.surface, s.pressOnA())
        #expect(!s.a.client.roundtrip())
        #expect(s.a.client.protocolError?.code == WL_DATA_DEVICE_ERROR_ROLE.rawValue)
        #expect(s.a.client.protocolError?.interface == "wl_data_device")
    }

    @Test func anIconSurfaceCannotTakeAnotherRoleAfterwards() throws {
        let s = try DragScene()
        let icon = try s.a.client.makeSurface(width: 4, height: 4)
        s.startDrag(try s.a.source(), icon: icon.surface, serial: s.pressOnA())
        wl_pointer_set_cursor(try #require(s.a.seat.pointer), 0, icon.surface, 0, 0)
        #expect(!s.a.client.roundtrip())
        #expect(s.a.client.protocolError?.code == WL_POINTER_ERROR_ROLE.rawValue)
    }

    // MARK: Refused drags

    @Test func aDragWithoutAPressIsRefusedByCancellingTheSource() throws {
        let s = try DragScene()
        let source = try s.a.source()
        s.motion(10, 10)
        s.sync()
        s.startDrag(source, serial: s.a.seat.lastSerial)  // the enter's serial, no button held
        #expect(source.cancelled)
        #expect(s.seat.drag == nil)
        s.motion(110, 10)
        s.sync()
        #expect(s.b.device.takeDragEvents().isEmpty)
    }

    @Test func aDragQuotingAStaleSerialIsRefused() throws {
        let s = try DragScene()
        let old = s.pressOnA()
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 3)
        s.seat.pointerButton(BTN_LEFT, pressed: true, time: 4)
        s.sync()
        let source = try s.a.source()
        s.startDrag(source, serial: old)
        #expect(source.cancelled)
        #expect(s.seat.drag == nil)
        // The press held is still the client's: its release arrives.
        _ = s.a.seat.takeEvents()
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        #expect(s.a.seat.takeEvents() == [.pointerButton(button: BTN_LEFT, pressed: false), .pointerFrame])
    }

    @Test func aDragFromASurfaceOtherThanTheGrabsIsRefused() throws {
        let s = try DragScene()
        let other = try s.a.client.makeSurface(width: 10, height: 10)
        let source = try s.a.source()
        let serial = s.pressOnA()
        wl_data_device_start_drag(s.a.device.device, source.source, other.surface, nil, serial)
        s.sync()
        #expect(source.cancelled)
        #expect(s.seat.drag == nil)
    }

    @Test func anotherClientCannotQuoteTheGrabsSerial() throws {
        let s = try DragScene()
        let serial = s.pressOnA()
        let source = try s.b.source()
        wl_data_device_start_drag(s.b.device.device, source.source, s.b.surface.surface, nil, serial)
        s.sync()
        #expect(source.cancelled)
        #expect(s.seat.drag == nil)
    }

    // MARK: Hostile and dying parties

    @Test func aSourceDestroyedMidDragLeavesTheDestinationAndEndsTheDrag() throws {
        let s = try DragScene()
        let trace = DragTrace(s.seat)
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        _ = s.b.device.takeDragEvents()
        source.destroy()
        s.sync()
        #expect(s.b.device.takeDragEvents() == [.leave])
        #expect(s.seat.drag == nil)
        #expect(trace.events.last == .ended(.sourceDestroyed, action: 0))
        // The button still held goes nowhere; after its release the pointer is B's again.
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        #expect(s.b.seat.takeEvents().first == .pointerEnter(surface: s.b.surface.id, x: 10, y: 10))
    }

    @Test func theOriginSurfaceDestroyedMidDragCancelsIt() throws {
        let s = try DragScene()
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        _ = s.b.device.takeDragEvents()
        wl_surface_destroy(s.a.surface.surface)
        s.sync()
        #expect(source.dragEvents == ["cancelled"])
        #expect(s.b.device.takeDragEvents() == [.leave])
        #expect(s.seat.drag == nil)
    }

    @Test func aDestinationSurfaceDestroyedMidDragIsLeft() throws {
        let s = try DragScene()
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        _ = s.b.device.takeDragEvents()
        wl_surface_destroy(s.b.surface.surface)
        s.sync()
        #expect(s.b.device.takeDragEvents() == [.leave])
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        #expect(source.dragEvents == ["cancelled"])
    }

    @Test func anIconDestroyedMidDragGoesAndTheDragGoesOn() throws {
        let s = try DragScene()
        let icon = try s.a.client.makeSurface(width: 8, height: 8, argb: 0xffff_0000)
        let source = try s.a.source()
        s.startDrag(source, icon: icon.surface, serial: s.pressOnA())
        #expect(s.server.pixel(x: 12, y: 12) == 0xffff_0000)
        wl_surface_destroy(icon.surface)
        s.sync()
        #expect(s.server.compositor.dragIcon.rect == nil)
        #expect(s.server.pixel(x: 12, y: 12) == 0xff00_00ff)
        s.motion(110, 10)
        s.sync()
        #expect(
            s.b.device.takeDragEvents() == [
                .sourceActions(copyOrMove), .enter(surface: s.b.surface.id, x: 10, y: 10, hasOffer: true),
            ])
    }

    @Test func aDestinationWhoseDataDeviceDiesMidDragHearsNothingMore() throws {
        let s = try DragScene()
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        wl_data_offer_set_actions(offer, copy, copy)
        s.sync()
        wl_data_device_release(s.b.device.device)
        s.sync()
        // The source hears that nothing is accepted any more; the release is no drop.
        #expect(source.dragEvents == ["target(text/plain)", "action(1)", "target(null)", "action(0)"])
        s.motion(111, 11)
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        #expect(source.dragEvents.last == "cancelled")
    }

    @Test func tenThousandMotionsReachTheDestinationAsMotionsAndNothingElse() throws {
        let s = try DragScene()
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        _ = s.b.device.takeDragEvents()
        let offersBefore = s.server.liveCounts.byType["DataOffer"] ?? 0
        var motions = 0
        for i in 0..<10_000 {
            s.motion(100 + Double(i % 40), Double(i % 37), time: UInt32(10 + i))
            if i % 500 == 499 {
                s.b.client.roundtrip()
                motions += s.b.device.takeDragEvents().filter { if case .motion = $0 { true } else { false } }.count
            }
        }
        s.sync()
        motions += s.b.device.takeDragEvents().count
        #expect(motions == 10_000)
        #expect(s.server.liveCounts.byType["DataOffer"] ?? 0 == offersBefore)
        #expect(source.dragEvents.isEmpty)
    }

    @Test func aDestinationFlippingItsAcceptCannotFillASlowSourcesSocket() throws {
        let s = try DragScene()
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_set_actions(offer, copy, copy)
        // A (the source) reads nothing while B flips its accept 20,000 times: more target events
        // than A's socket holds.
        for i in 0..<20_000 {
            wl_data_offer_accept(offer, s.b.device.enterSerial, i % 2 == 0 ? "text/plain" : nil)
            if i % 1000 == 999 { #expect(s.b.client.roundtrip()) }
        }
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        #expect(s.b.client.roundtrip())
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        // A is still connected, and hears the latest state before the drop.
        #expect(s.a.client.roundtrip())
        #expect(s.a.client.roundtrip())
        let targets = source.dragEvents.filter { $0.hasPrefix("target(") }
        #expect(targets.count < 20_000)
        #expect(targets.last == "target(text/plain)")
        #expect(source.dragEvents.last == "dnd_drop_performed")
        s.b.client.roundtrip()
        #expect(s.b.device.takeDragEvents().suffix(2) == [.drop, .leave])
    }

    // MARK: The icon

    @Test func theIconIsDrawnAtThePointMovedByItsOffsetAndGoesWithTheDrag() throws {
        let s = try DragScene()
        let icon = try s.a.client.makeSurface(width: 8, height: 8, argb: 0xffff_0000)
        s.startDrag(try s.a.source(), icon: icon.surface, serial: s.pressOnA())
        #expect(s.server.pixel(x: 12, y: 12) == 0xffff_0000)
        s.motion(120, 20)
        #expect(s.server.pixel(x: 122, y: 22) == 0xffff_0000)
        #expect(s.server.pixel(x: 12, y: 12) == 0xff00_00ff)
        // wl_surface.offset moves it from the point (a hotspot).
        wl_surface_offset(icon.surface, -4, -4)
        wl_surface_commit(icon.surface)
        s.sync()
        #expect(s.server.compositor.dragIcon.rect?.rect == Rect(x: 116, y: 16, width: 8, height: 8))
        #expect(s.server.pixel(x: 117, y: 17) == 0xffff_0000)
        #expect(s.server.pixel(x: 125, y: 25) == 0xff00_ff00)
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        #expect(s.server.compositor.dragIcon.rect == nil)
        #expect(s.server.pixel(x: 117, y: 17) == 0xff00_ff00)
    }

    @Test func onAScreenOfScale2TheIconCoversItsRectangleInDevicePixels() throws {
        let s = try DragScene()
        s.server.windows.setScale(2, for: s.output.screen)
        let icon = try s.a.client.makeSurface(width: 8, height: 8, argb: 0xffff_0000)
        s.startDrag(try s.a.source(), icon: icon.surface, serial: s.pressOnA())
        // Logical (10, 10) 8×8 is canvas pixels (20, 20) 16×16.
        #expect(s.server.compositor.dragIcon.rect?.rect == Rect(x: 10, y: 10, width: 8, height: 8))
        #expect(s.server.pixel(x: 20, y: 20) == 0xffff_0000 && s.server.pixel(x: 35, y: 35) == 0xffff_0000)
        #expect(s.server.pixel(x: 19, y: 20) == 0xff00_00ff && s.server.pixel(x: 20, y: 19) == 0xff00_00ff)
        #expect(s.server.pixel(x: 36, y: 35) == 0xff00_00ff && s.server.pixel(x: 35, y: 36) == 0xff00_00ff)
    }

    @Test func theIconsFrameCallbacksAreAnsweredByFramesThatShowIt() throws {
        let s = try DragScene()
        let icon = try s.a.client.makeSurface(width: 8, height: 8, argb: 0xffff_0000)
        s.startDrag(try s.a.source(), icon: icon.surface, serial: s.pressOnA())
        let callback = try #require(TestFrameCallback(surface: icon.surface))
        wl_surface_commit(icon.surface)
        s.sync()
        s.server.repaint()
        s.a.client.roundtrip()
        #expect(callback.isDone)
    }

    @Test func aHugeIconWithASubsurfaceTreeDrawsOnlyItsOwnClippedPixels() throws {
        let s = try DragScene()
        let icon = try s.a.client.makeSurface(width: 2000, height: 2000, argb: 0xffff_0000)
        let subcompositor = try s.a.client.bind(wl_subcompositor_interface_ptr())
        var children: [TestSurface] = []
        var subsurfaces: [OpaquePointer] = []
        var parent = icon.surface
        for _ in 0..<TreeLimits.maxSubsurfaceDepth {
            let child = try s.a.client.makeSurface(width: 4, height: 4, argb: 0xffff_ffff)
            subsurfaces.append(try #require(wl_subcompositor_get_subsurface(subcompositor, child.surface, parent)))
            children.append(child)
            parent = child.surface
        }
        wl_surface_commit(icon.surface)
        s.startDrag(try s.a.source(), icon: icon.surface, serial: s.pressOnA())
        #expect(s.a.client.roundtrip())
        #expect(s.server.compositor.dragIcon.rect?.rect == Rect(x: 10, y: 10, width: 2000, height: 2000))
        #expect(s.server.pixel(x: 10, y: 10) == 0xffff_0000)
        #expect(s.server.pixel(x: 9, y: 9) == 0xff00_00ff)
        s.motion(150, 150)
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        #expect(s.server.compositor.dragIcon.rect == nil)
        #expect(s.server.pixel(x: 150, y: 150) != 0xffff_0000)
        withExtendedLifetime((children, subsurfaces)) {}
    }

    // MARK: Touch, sourceless drags, older versions

    @Test func aTouchDragFollowsItsPointAndDropsOnUp() throws {
        let s = try DragScene()
        s.seat.touchDown(id: 3, on: s.output, x: 10, y: 10, time: 1)
        s.sync()
        let serial = s.a.seat.lastPressSerial
        let source = try s.a.source()
        s.startDrag(source, serial: serial)
        #expect(s.seat.drag?.touchID == 3)
        s.seat.touchMotion(id: 3, x: 115, y: 5, time: 2)
        s.sync()
        #expect(
            s.b.device.takeDragEvents() == [
                .sourceActions(copyOrMove), .enter(surface: s.b.surface.id, x: 15, y: 5, hasOffer: true),
            ])
        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        wl_data_offer_set_actions(offer, copy, copy)
        s.sync()
        _ = s.a.seat.takeEvents()
        s.seat.touchUp(id: 3, time: 3)
        s.sync()
        #expect(s.b.device.takeDragEvents() == [.action(copy), .drop, .leave])
        #expect(source.dragEvents == ["target(text/plain)", "action(1)", "dnd_drop_performed"])
        // The point was the drag's: the client hears no motion or up for it.
        #expect(s.a.seat.takeEvents().isEmpty)
    }

    @Test func aDragWithoutASourceStaysWithinItsClient() throws {
        let s = try DragScene()
        let second = try s.a.client.makeSurface(width: 40, height: 40)
        s.a.client.showPlainSurface(second, x: 200, y: 0)
        s.startDrag(nil, serial: s.pressOnA())
        #expect(s.a.device.takeDragEvents() == [.enter(surface: s.a.surface.id, x: 10, y: 10, hasOffer: false)])
        s.motion(110, 10)
        s.sync()
        #expect(s.a.device.takeDragEvents() == [.leave])
        #expect(s.b.device.takeDragEvents().isEmpty)
        s.motion(210, 10)
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        #expect(
            s.a.device.takeDragEvents() == [.enter(surface: second.id, x: 10, y: 10, hasOffer: false), .drop, .leave])
    }

    @Test func versionOneClientsDragWithAnImplicitCopy() throws {
        let s = try DragScene(version: 1)
        let source = try s.a.source(actions: nil)
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        #expect(s.b.device.takeDragEvents() == [.enter(surface: s.b.surface.id, x: 10, y: 10, hasOffer: true)])
        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        s.sync()
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        #expect(s.b.device.takeDragEvents() == [.drop, .leave])
        // A v1 source hears target, never the v3 events.
        #expect(source.dragEvents == ["target(text/plain)"])
        let fd = try #require(s.b.device.receiveDrag("text/plain"))
        defer { close(fd) }
        s.sync()
        s.b.client.roundtrip()
        #expect(String(decoding: readAvailable(fd).bytes, as: UTF8.self) == "dragged")
    }

    @Test func aVersionThreeSourceIsFinishedWhenAnOldDestinationDropsItsOffer() throws {
        let s = try DragScene(version: 3, versionB: 2)
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.motion(110, 10)
        s.sync()
        let offer = try #require(s.b.device.dragOffer)
        wl_data_offer_accept(offer, s.b.device.enterSerial, "text/plain")
        s.sync()
        s.seat.pointerButton(BTN_LEFT, pressed: false, time: 5)
        s.sync()
        wl_data_offer_destroy(offer)
        s.sync()
        // An old destination takes copy at its enter.
        #expect(source.dragEvents == ["action(1)", "target(text/plain)", "dnd_drop_performed", "dnd_finished"])
    }

    @Test func theSessionLockCancelsADrag() throws {
        let s = try DragScene()
        let source = try s.a.source()
        s.startDrag(source, serial: s.pressOnA())
        s.server.windows.lock()
        s.sync()
        #expect(s.seat.drag == nil)
        #expect(source.dragEvents.last == "cancelled")
        s.server.windows.unlock()
    }
}
