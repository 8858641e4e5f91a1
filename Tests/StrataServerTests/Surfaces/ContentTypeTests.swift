import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// wp_content_type_manager_v1 (`ContentTypeManager`, `ContentTypeObject`): stored per surface,
/// double-buffered.
@Suite struct ContentTypeTests {
    static func serverSurface(_ server: TestServer, _ client: TestClient, _ surface: OpaquePointer) throws -> Surface {
        try #require(server.compositor.surface(of: client.serverClient, id: wl_proxy_get_id(surface)))
    }

    @Test func theTypeIsAppliedAtTheNextCommitAndResetWhenTheObjectGoes() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let manager = try client.bind(wp_content_type_manager_v1_interface_ptr(), version: 1)
        let surface = try client.makeSurface(width: 10, height: 10)
        let object = try #require(wp_content_type_manager_v1_get_surface_content_type(manager, surface.surface))
        wp_content_type_v1_set_content_type(object, WP_CONTENT_TYPE_V1_TYPE_VIDEO.rawValue)
        #expect(client.roundtrip())
        let served = try Self.serverSurface(server, client, surface.surface)
        #expect(served.contentType == 0, "not before the commit")
        wl_surface_commit(surface.surface)
        #expect(client.roundtrip())
        #expect(served.contentType == WP_CONTENT_TYPE_V1_TYPE_VIDEO.rawValue)
        wp_content_type_v1_set_content_type(object, 77)  // outside the enum: none
        wl_surface_commit(surface.surface)
        #expect(client.roundtrip())
        #expect(served.contentType == 0)
        wp_content_type_v1_set_content_type(object, WP_CONTENT_TYPE_V1_TYPE_GAME.rawValue)
        wl_surface_commit(surface.surface)
        wp_content_type_v1_destroy(object)
        #expect(client.roundtrip())
        #expect(served.contentType == WP_CONTENT_TYPE_V1_TYPE_GAME.rawValue, "the destroy waits for a commit")
        wl_surface_commit(surface.surface)
        #expect(client.roundtrip())
        #expect(served.contentType == 0)
        // A new object after the destroy is allowed.
        #expect(wp_content_type_manager_v1_get_surface_content_type(manager, surface.surface) != nil)
        #expect(client.roundtrip())
    }

    @Test func aSecondObjectForOneSurfaceIsAlreadyConstructed() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let manager = try client.bind(wp_content_type_manager_v1_interface_ptr(), version: 1)
        let surface = try client.makeSurface(width: 10, height: 10)
        _ = wp_content_type_manager_v1_get_surface_content_type(manager, surface.surface)
        _ = wp_content_type_manager_v1_get_surface_content_type(manager, surface.surface)
        #expect(!client.roundtrip())
        #expect(client.protocolError?.code == WP_CONTENT_TYPE_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED.rawValue)
        #expect(client.protocolError?.interface == "wp_content_type_manager_v1")
    }

    @Test func objectsOutlivingTheirSurfacesAndRequestStormsAreHarmless() throws {
        let server = try TestServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let client = try TestClient(server: server)
            let manager = try client.bind(wp_content_type_manager_v1_interface_ptr(), version: 1)
            let surface = try client.makeSurface(width: 10, height: 10)
            let object = try #require(wp_content_type_manager_v1_get_surface_content_type(manager, surface.surface))
            for index in 0..<10_000 {
                wp_content_type_v1_set_content_type(object, UInt32(truncatingIfNeeded: index &* 2_654_435_761))
            }
            wl_surface_destroy(surface.surface)
            wp_content_type_v1_set_content_type(object, 1)  // inert now
            #expect(client.roundtrip())
            wp_content_type_v1_destroy(object)
            #expect(client.roundtrip())
        }
        server.expectLiveCounts(backAt: baseline)
    }
}
