import Foundation
import StrataModel
@testable import StrataNestedBackends
import StrataRender
import StrataServer
import Testing

/// The nested Wayland backend hands the cursor and pointer constraints to the parent (here an
/// in-process Strata, whose seat and canvas are at hand).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct NestedCursorTests {
    typealias Nesting = StrataParentTests.Nesting

    /// A nesting whose parent pointer is at (20, 30) of the nested screen's window.
    func nestingWithPointerInside() throws -> (Nesting, Rect) {
        let nesting = try Nesting()
        #expect(
            nesting.step {
                nesting.parentWindow("WL-1") != nil
                    && nesting.backend.committedFrames(for: nesting.nested.scene.outputs[0]) >= 1
            })
        let frame = try #require(nesting.parentWindow("WL-1")).frame
        let seat: Seat = nesting.parent.compositor.seat
        seat.pointerMotion(on: nesting.parentOutput, x: Double(frame.x + 20), y: Double(frame.y + 30), time: 10)
        return (nesting, frame)
    }

    @Test func theNestedCursorIsTheParentsCursorAndNotDrawnIntoTheScreen() throws {
        let (nesting, frame) = try nestingWithPointerInside()
        #expect(
            nesting.step { nesting.parent.compositor.seat.cursor?.surface?.hasContent == true },
            "the parent got no cursor surface from the nested Strata")
        let arrow = try #require(nesting.nested.cursor.theme.defaultCursor)
        let cursor = try #require(nesting.parent.compositor.seat.cursor)
        #expect(cursor.hotspotX == arrow.hotspotX && cursor.hotspotY == arrow.hotspotY)
        #expect(nesting.nested.seat.pointerPosition.map { $0.x == 20 && $0.y == 30 } == true)
        // The parent draws it at its pointer: the arrow's opaque pixels, exactly.
        var opaque = 0
        for y in 0..<arrow.height {
            for x in 0..<arrow.width {
                guard let p = arrow.pixel(x: x, y: y), p >> 24 == 0xff else { continue }
                opaque += 1
                let px = Int32(frame.x + 20) - arrow.hotspotX + x, py = Int32(frame.y + 30) - arrow.hotspotY + y
                #expect(nesting.parent.pixel(x: px, y: py) == p)
            }
        }
        #expect(opaque > 20)
        // The nested screen's own image has no cursor in it.
        nesting.nested.scene.repaintDamagedScreens()
        #expect(nesting.nested.cursor.rect == nil)
        #expect(nesting.nested.scene.outputs[0].canvas.pixel(x: 21, y: 31) == StrataParentTests.colour)
    }

    @Test func theCursorIsSetAgainOnEveryEnter() throws {
        let (nesting, frame) = try nestingWithPointerInside()
        let seat: Seat = nesting.parent.compositor.seat
        #expect(nesting.step { seat.cursor?.surface?.hasContent == true })
        // Out over the parent's background (its own arrow) and back in.
        seat.pointerMotion(on: nesting.parentOutput, x: Double(frame.maxX + 50), y: Double(frame.maxY + 50), time: 20)
        #expect(nesting.step { seat.pointerFocus == nil })
        #expect(seat.cursor == nil)
        seat.pointerMotion(on: nesting.parentOutput, x: Double(frame.x + 5), y: Double(frame.y + 5), time: 21)
        #expect(nesting.step { seat.cursor?.surface?.hasContent == true }, "no cursor after entering again")
    }

    /// A client's cursor surface can be as large as its buffer budget allows; the parent gets a
    /// copy only up to 512 pixels a side (else no copy of a client-sized image, and no buffer of
    /// that size in the parent).
    @Test func clientCursorsPastTheSizeLimitAreNotCopiedToTheParent() {
        #expect(ParentCursor.forwards(width: 24, height: 24))
        #expect(ParentCursor.forwards(width: 512, height: 512))
        for (width, height) in [(513, 1), (1, 513), (65535, 1), (32768, 32768), (0, 16), (16, -1)] as [(Int32, Int32)] {
            #expect(!ParentCursor.forwards(width: width, height: height), "\(width)×\(height)")
        }
    }

    @Test func aHiddenCursorIsANullParentCursor() throws {
        let (nesting, _) = try nestingWithPointerInside()
        #expect(nesting.step { nesting.parent.compositor.seat.cursor?.surface != nil })
        nesting.nested.cursor.isHidden = true
        #expect(nesting.step { nesting.parent.compositor.seat.cursor.map { $0.surface == nil } == true })
    }

    @Test func aLockInsideLocksTheParentsPointerAndItsDeltasMoveTheNestedPointer() throws {
        let (nesting, _) = try nestingWithPointerInside()
        let parentSeat: Seat = nesting.parent.compositor.seat
        #expect(nesting.step { nesting.nested.seat.pointerPosition != nil })
        nesting.backend.pointerConstraintDidChange(locked: true, on: nesting.nested.scene.outputs[0])
        #expect(nesting.step { parentSeat.pointerConstraint?.locked == true }, "the parent's pointer is not locked")
        #expect(nesting.backend.parentPointerConstraint == true)
        let parentBefore = try #require(parentSeat.pointerPosition)
        parentSeat.pointerMotion(dx: 7, dy: 3, time: 20)
        #expect(
            nesting.step { nesting.nested.seat.pointerPosition.map { $0.x == 27 && $0.y == 33 } == true },
            "the parent's relative motion did not reach the nested seat")
        #expect(parentSeat.pointerPosition.map { $0.x == parentBefore.x && $0.y == parentBefore.y } == true)
        nesting.backend.pointerConstraintDidChange(locked: nil, on: nil)
        #expect(nesting.step { parentSeat.pointerConstraint == nil })
        #expect(nesting.backend.parentPointerConstraint == nil)
    }

    @Test func aConfinementInsideConfinesTheParentsPointerToTheScreensWindow() throws {
        let (nesting, frame) = try nestingWithPointerInside()
        let parentSeat: Seat = nesting.parent.compositor.seat
        #expect(nesting.step { nesting.nested.seat.pointerPosition != nil })
        nesting.backend.pointerConstraintDidChange(locked: false, on: nesting.nested.scene.outputs[0])
        #expect(nesting.step { parentSeat.pointerConstraint?.locked == false })
        parentSeat.pointerMotion(on: nesting.parentOutput, x: 600, y: 470, time: 30)
        let p = try #require(parentSeat.pointerPosition)
        #expect(p.x == Double(frame.maxX - 1) && p.y == Double(frame.maxY - 1), "at (\(p.x), \(p.y)), window \(frame)")
    }
}
