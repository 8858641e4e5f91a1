import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataServer
import StrataTestSupport
import Testing

/// org_kde_kwin_server_decoration_manager (`ServerDecorationManager`, `ServerDecoration`): the
/// command line's mode, whatever the client asks; nothing drawn.
@Suite struct ServerDecorationTests {
    static let server2 = ORG_KDE_KWIN_SERVER_DECORATION_MANAGER_MODE_SERVER.rawValue
    static let client1 = ORG_KDE_KWIN_SERVER_DECORATION_MANAGER_MODE_CLIENT.rawValue

    @Test func theServerModeIsAnnouncedAndAClientsRequestIsGrantedOnce() throws {
        let server = try TestServer()
        let client = try TestClient(server: server)
        let decorations = try TestServerDecorations(client: client)
        let surface = try client.makeSurface(width: 30, height: 30, argb: 0xff00_ff00)
        client.showPlainSurface(surface, x: 0, y: 0)
        let decoration = try #require(decorations.create(surface: surface.surface))
        #expect(client.roundtrip())
        #expect(decorations.defaultModes == [Self.server2])
        #expect(decorations.modes == [Self.server2])
        org_kde_kwin_server_decoration_request_mode(decoration, Self.client1)
        org_kde_kwin_server_decoration_request_mode(decoration, 0xdead_beef)
        #expect(client.roundtrip())
        // Granted and echoed once (an answer that refused would make GTK 3 ask again forever);
        // an unknown mode gets the current one.
        #expect(decorations.modes == [Self.server2, Self.client1, Self.client1])
        // Strata draws nothing around the window.
        #expect(server.pixel(x: 30, y: 10) == TestServer.background && server.pixel(x: 29, y: 10) == 0xff00_ff00)
        org_kde_kwin_server_decoration_release(decoration)
        #expect(client.roundtrip())
    }

    @Test func clientSideDecorationsOnTheCommandLineAnswerClient() throws {
        let server = try TestServer()
        server.compositor.decorationMode = .clientSide
        let client = try TestClient(server: server)
        let decorations = try TestServerDecorations(client: client)
        let surface = try client.makeSurface(width: 10, height: 10)
        _ = decorations.create(surface: surface.surface)
        #expect(client.roundtrip())
        #expect(decorations.defaultModes == [Self.client1])
        #expect(decorations.modes == [Self.client1])
    }

    @Test func decorationsOutlivingTheirSurfacesAndManyPerSurfaceLeaveNothingBehind() throws {
        let server = try TestServer()
        server.step()
        let baseline = server.liveCounts
        do {
            let client = try TestClient(server: server)
            let decorations = try TestServerDecorations(client: client)
            let surface = try client.makeSurface(width: 10, height: 10)
            let made = (0..<500).compactMap { _ in decorations.create(surface: surface.surface) }
            wl_surface_destroy(surface.surface)
            for decoration in made { org_kde_kwin_server_decoration_request_mode(decoration, 2) }
            #expect(client.roundtrip())
            #expect(decorations.modes.count == 1000)
            for decoration in made { org_kde_kwin_server_decoration_release(decoration) }
            #expect(client.roundtrip())
        }
        server.expectLiveCounts(backAt: baseline)
    }
}
