import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// wp_alpha_modifier_v1 (`AlphaModifier`, `AlphaModifierSurface`): the scene multiplies the
/// surface's alpha when drawing.
@Suite struct AlphaModifierTests {
    /// Each channel of `pixel` within 2 of `expected`'s.
    static func near(_ pixel: UInt32?, _ expected: UInt32) -> Bool {
        guard let pixel else { return false }
        return [16, 8, 0].allSatisfy { shift in
            abs(Int((pixel >> shift) & 0xff) - Int((expected >> shift) & 0xff)) <= 2
        }
    }

    @Test func aHalfFactorBlendsAnOpaqueSurfaceHalfWithWhatIsBelow() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let modifier = try client.bind(wp_alpha_modifier_v1_interface_ptr(), version: 1)
        let surface = try client.makeSurface(width: 40, height: 40, argb: 0xffff_0000)
        client.showPlainSurface(surface, x: 0, y: 0)
        #expect(server.pixel(x: 10, y: 10) == 0xffff_0000)
        let object = try #require(wp_alpha_modifier_v1_get_surface(modifier, surface.surface))
        wp_alpha_modifier_surface_v1_set_multiplier(object, 0x8000_0000)
        #expect(client.roundtrip())
        #expect(server.pixel(x: 10, y: 10) == 0xffff_0000, "not before the commit")
        wl_surface_commit(surface.surface)
        #expect(client.roundtrip())
        // Red at 128/255 over the background 0x202428 at 127/255.
        let bg = TestServer.background
        let expected: UInt32 =
            0xff00_0000 | (UInt32(255 * 128 / 255 + Int((bg >> 16) & 0xff) * 127 / 255) << 16)
            | (UInt32(Int((bg >> 8) & 0xff) * 127 / 255) << 8) | UInt32(Int(bg & 0xff) * 127 / 255)
        #expect(
            Self.near(server.pixel(x: 10, y: 10), expected), "\(String(server.pixel(x: 10, y: 10) ?? 0, radix: 16))")
        wp_alpha_modifier_surface_v1_set_multiplier(object, 0)
        wl_surface_commit(surface.surface)
        #expect(client.roundtrip())
        #expect(server.pixel(x: 10, y: 10) == bg, "factor 0: invisible")
        wp_alpha_modifier_surface_v1_destroy(object)
        wl_surface_commit(surface.surface)
        #expect(client.roundtrip())
        #expect(server.pixel(x: 10, y: 10) == 0xffff_0000, "destroyed: the factor is back to 1")
    }

    @Test func aSecondObjectIsAlreadyConstructedAndARequestAfterTheSurfaceIsNoSurface() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let modifier = try client.bind(wp_alpha_modifier_v1_interface_ptr(), version: 1)
        let surface = try client.makeSurface(width: 10, height: 10)
        _ = wp_alpha_modifier_v1_get_surface(modifier, surface.surface)
        _ = wp_alpha_modifier_v1_get_surface(modifier, surface.surface)
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == WP_ALPHA_MODIFIER_V1_ERROR_ALREADY_CONSTRUCTED.rawValue)
        #expect(client.protocolError?.interface == "wp_alpha_modifier_v1")

        let other = try TestClient(server: server)
        let otherModifier = try other.bind(wp_alpha_modifier_v1_interface_ptr(), version: 1)
        let otherSurface = try other.makeSurface(width: 10, height: 10)
        let object = try #require(wp_alpha_modifier_v1_get_surface(otherModifier, otherSurface.surface))
        wl_surface_destroy(otherSurface.surface)
        wp_alpha_modifier_surface_v1_set_multiplier(object, 5)
        #expect(!other.roundtrip())
        #expect(other.protocolError?.code == WP_ALPHA_MODIFIER_SURFACE_V1_ERROR_NO_SURFACE.rawValue)
        #expect(other.protocolError?.interface == "wp_alpha_modifier_surface_v1")
    }

    @Test func factorStormsAllocateOneMaskPerCommitAndLeaveNothingBehind() throws {
        let server = try TestServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let client = try TestClient(server: server)
            let modifier = try client.bind(wp_alpha_modifier_v1_interface_ptr(), version: 1)
            let surface = try client.makeSurface(width: 20, height: 20, argb: 0x80ff_ffff)
            client.showPlainSurface(surface, x: 0, y: 0)
            let object = try #require(wp_alpha_modifier_v1_get_surface(modifier, surface.surface))
            for index in 0..<2_000 {
                wp_alpha_modifier_surface_v1_set_multiplier(object, UInt32(truncatingIfNeeded: index &* 2_654_435_761))
                if index % 10 == 0 { wl_surface_commit(surface.surface) }
            }
            #expect(client.roundtrip())
            _ = server.pixel(x: 5, y: 5)
            wp_alpha_modifier_surface_v1_destroy(object)
            wl_surface_destroy(surface.surface)
            #expect(client.roundtrip())
        }
        server.expectLiveCounts(backAt: baseline)
    }
}
