import CStrataClientGlue
import CWaylandClient
import Foundation
import StrataModel
import StrataServer
import StrataTestRandom
import StrataTestSupport

/// One seeded random hostile program for `ExtremeValueTests`: a toplevel away from the origin
/// with a chain of three nested subsurfaces, a popup and a layer surface, then a stream of
/// requests carrying extreme numbers (Int32.min … Int32.max, wl_fixed extremes, buffers up to
/// 65,535 pixels a side), window moves, repaints and pointer/touch input over the scene.
///
/// Every value it sends is legal, or it is the program's last request and the program says which
/// error it must bring (`expectedError`). Legal values are kept legal across commits by tracking
/// what the spec checks at commit time: a buffer's size stays a multiple of its surface's buffer
/// scale, and a viewport source is set only inside the content and unset whenever the content
/// changes (a destination is always set, so a fractional source is never `bad_size`).
final class ExtremeValueProgram {
    /// A surface of the scene and what the test knows of its pending state.
    struct Node {
        var surface: UInt32
        var subsurface: UInt32?
        var viewport: UInt32
        /// The last buffer attached (pending or current) and the last buffer scale and transform set.
        var buffer: (width: Int32, height: Int32)?
        var scale: Int32 = 1
        var transform: Int32 = 0
        var hasSource = false
    }

    var random: SeededGenerator
    let client: RawClient
    let server: TestServer
    let core: (compositor: UInt32, subcompositor: UInt32, shm: UInt32, wmBase: UInt32)
    let viewporter: UInt32
    let layerShell: UInt32
    private(set) var nodes: [Node] = []
    private(set) var toplevel: (surface: UInt32, xdgSurface: UInt32, toplevel: UInt32, buffer: UInt32)
    /// The error the program's last request must bring, when it ended with an illegal one.
    private(set) var expectedError: (object: UInt32, code: UInt32)?
    /// Buffers made so far, by size (one per size, reused: a buffer may be attached to many surfaces).
    private var buffers: [String: UInt32] = [:]
    /// The popup, its positioner, and the layer surface (once made).
    private var popup: (popup: UInt32, positioner: UInt32)?
    private var layer: (surface: UInt32, layer: UInt32)?
    /// The screencopy manager (the in-process client is privileged) and a wl_output.
    private var screencopy: UInt32?
    private var output: UInt32?
    /// Screen regions copied (the test checks some were).
    private(set) var regionsCopied = 0
    /// The wl_pointer and a cursor surface with a buffer.
    private var pointer: UInt32?
    private var cursorSurface: UInt32?
    /// The toplevel's minimum and maximum size as set.
    private var minSize: (Int32, Int32) = (0, 0)
    private var maxSize: (Int32, Int32) = (0, 0)
    /// Cursors set with an extreme hotspot (the test checks some were).
    private(set) var cursorsSet = 0
    /// Requests sent (the test checks the programs are not empty).
    private(set) var requests = 0

    /// Buffer sizes: ordinary ones and the extremes (32,768 wide, 65,535 one way).
    static let bufferSizes: [(Int32, Int32)] = [
        (40, 40), (16, 16), (1, 1), (32768, 1), (32768, 2), (2, 32768), (65535, 1), (1, 65535), (64, 32),
    ]

    /// The bystander's window, which the program never moves.
    private weak var bystander: Window?

    init(seed: UInt64, server: TestServer, client: RawClient, bystander: Window?) {
        random = SeededGenerator(seed: seed)
        self.bystander = bystander
        self.server = server
        self.client = client
        core = client.bindCore()
        viewporter = client.bind("wp_viewporter")!
        layerShell = client.bind("zwlr_layer_shell_v1")!
        toplevel = client.makeToplevel(core)
        nodes.append(Node(surface: toplevel.surface, viewport: makeViewport(toplevel.surface), buffer: (40, 40)))
        // Three levels of subsurfaces, each the child of the one before.
        for _ in 0..<3 {
            let parent = nodes[nodes.count - 1].surface
            let surface = client.createSurface(core.compositor)
            let subsurface = client.newID()
            client.request(
                core.subcompositor, "wl_subcompositor.get_subsurface", .newID(subsurface), .object(surface),
                .object(parent))
            var node = Node(surface: surface, subsurface: subsurface, viewport: makeViewport(surface))
            let size = random.pick(Self.bufferSizes)!
            client.request(surface, "wl_surface.attach", .object(buffer(size)), .int(0), .int(0))
            node.buffer = size
            client.request(subsurface, "wl_subsurface.set_position", .int(anyInt()), .int(anyInt()))
            client.request(surface, "wl_surface.commit")
            nodes.append(node)
        }
        client.request(toplevel.surface, "wl_surface.commit")
        screencopy = client.bind("zwlr_screencopy_manager_v1")
        output = client.bind("wl_output")
        let seat = client.bind("wl_seat")!
        let pointer = client.newID()
        client.request(seat, "wl_seat.get_pointer", .newID(pointer))
        self.pointer = pointer
        cursorSurface = client.createSurface(core.compositor)
        requests += 14
    }

    private func makeViewport(_ surface: UInt32) -> UInt32 {
        let viewport = client.newID()
        client.request(viewporter, "wp_viewporter.get_viewport", .newID(viewport), .object(surface))
        // A destination always set: a fractional source is then never bad_size.
        client.request(viewport, "wp_viewport.set_destination", .int(anySize()), .int(anySize()))
        return viewport
    }

    private func buffer(_ size: (Int32, Int32)) -> UInt32 {
        let key = "\(size.0)x\(size.1)"
        if let buffer = buffers[key] { return buffer }
        let (_, buffer) = client.makeBuffer(shm: core.shm, width: size.0, height: size.1)
        buffers[key] = buffer
        return buffer
    }

    // MARK: Numbers

    /// Any Int32, weighted to the edges that broke arithmetic before.
    func anyInt() -> Int32 {
        let edges: [Int32] = [
            .min, .min + 1, -(1 << 30), -(1 << 29) - 1, -65536, -32769, -32768, -1, 0, 1, 255, 32767, 32768, 65535,
            65536, (1 << 29) - 1, 1 << 29, (1 << 29) + 1, 1 << 30, .max - 1, .max,
        ]
        return random.chance(0.75) ? random.pick(edges)! : Int32.random(in: .min ... .max, using: &random)
    }

    /// Any positive Int32 (sizes), weighted to the edges.
    func anySize() -> Int32 {
        let edges: [Int32] = [
            1, 2, 3, 7, 640, 32767, 32768, 32769, 65535, 65536, 1 << 29, (1 << 29) + 1, 1 << 30, .max - 1, .max,
        ]
        return random.chance(0.75) ? random.pick(edges)! : Int32.random(in: 1 ... .max, using: &random)
    }

    /// Any non-negative Int32.
    func anyNonNegative() -> Int32 { random.chance(0.1) ? 0 : anySize() }

    /// The divisors a buffer scale may take for a buffer of `size` (a non-multiple is invalid_size).
    private func scales(for size: (width: Int32, height: Int32)?) -> [Int32] {
        let candidates: [Int32] = [1, 2, 3, 4, 8, 16, 32768, 65535, .max]
        guard let size else { return candidates }
        return candidates.filter { size.width % $0 == 0 && size.height % $0 == 0 }
    }

    // MARK: Steps

    /// One random request (or a small group of them) on the scene.
    func step() {
        requests += 1
        let index = Int.random(in: 0..<nodes.count, using: &random)
        var node = nodes[index]
        let s = node.surface
        switch Int.random(in: 0..<21, using: &random) {
        case 0:
            let fitting = Self.bufferSizes.filter { $0.0 % node.scale == 0 && $0.1 % node.scale == 0 }
            let size = random.pick(fitting) ?? (node.scale, node.scale)
            client.request(s, "wl_surface.attach", .object(buffer(size)), .int(0), .int(0))
            node.buffer = size
            unsetSource(&node)
        case 1:
            client.request(s, "wl_surface.damage", .int(anyInt()), .int(anyInt()), .int(anyInt()), .int(anyInt()))
        case 2:
            client.request(
                s, "wl_surface.damage_buffer", .int(anyInt()), .int(anyInt()), .int(anyInt()), .int(anyInt()))
            // Damage alone in a commit: mapped through the buffer transform and scale (a commit
            // that also changes them damages the whole surface instead).
            if random.chance(0.5) { client.request(s, "wl_surface.commit") }
        case 3:
            client.request(s, "wl_surface.offset", .int(anyInt()), .int(anyInt()))
        case 4:
            let scale = random.pick(scales(for: node.buffer)) ?? 1
            client.request(s, "wl_surface.set_buffer_scale", .int(scale))
            node.scale = scale
            unsetSource(&node)
        case 5:
            let transform = Int32.random(in: 0...7, using: &random)
            client.request(s, "wl_surface.set_buffer_transform", .int(transform))
            node.transform = transform
            unsetSource(&node)
        case 6:
            if let subsurface = node.subsurface {
                client.request(subsurface, "wl_subsurface.set_position", .int(anyInt()), .int(anyInt()))
            }
        case 7:
            client.request(node.viewport, "wp_viewport.set_destination", .int(anySize()), .int(anySize()))
        case 8:
            setSource(&node)
        case 9:
            client.request(
                toplevel.xdgSurface, "xdg_surface.set_window_geometry",
                .int(anyInt()), .int(anyInt()), .int(anySize()), .int(anySize()))
        case 10:
            // A minimum above a (non-zero) maximum is invalid_size at commit: kept legal.
            var w = anyNonNegative(), h = anyNonNegative()
            if random.chance(0.5) {
                if maxSize.0 > 0 { w = min(w, maxSize.0) }
                if maxSize.1 > 0 { h = min(h, maxSize.1) }
                minSize = (w, h)
                client.request(toplevel.toplevel, "xdg_toplevel.set_min_size", .int(w), .int(h))
            } else {
                if w > 0 { w = max(w, minSize.0) }
                if h > 0 { h = max(h, minSize.1) }
                maxSize = (w, h)
                client.request(toplevel.toplevel, "xdg_toplevel.set_max_size", .int(w), .int(h))
            }
        case 11:
            let region = client.newID()
            client.request(core.compositor, "wl_compositor.create_region", .newID(region))
            for _ in 0..<3 {
                client.request(
                    region, random.chance(0.7) ? "wl_region.add" : "wl_region.subtract",
                    .int(anyInt()), .int(anyInt()), .int(anyInt()), .int(anyInt()))
            }
            client.request(
                s, random.chance(0.5) ? "wl_surface.set_input_region" : "wl_surface.set_opaque_region", .object(region))
            client.request(region, "wl_region.destroy")
        case 12, 13:
            client.request(s, "wl_surface.commit")
        case 14:
            // A sync child's state waits for its parent: commit the whole chain, leaf first.
            for node in nodes.reversed() { client.request(node.surface, "wl_surface.commit") }
        case 15:
            if let subsurface = node.subsurface {
                client.request(subsurface, random.chance(0.5) ? "wl_subsurface.set_desync" : "wl_subsurface.set_sync")
            }
        case 16:
            moveWindow()
        case 17:
            if let popup {
                client.request(popup.positioner, "xdg_positioner.set_offset", .int(anyInt()), .int(anyInt()))
                client.request(
                    popup.positioner, "xdg_positioner.set_anchor_rect", .int(anyInt()), .int(anyInt()),
                    .int(anyNonNegative()), .int(anyNonNegative()))
                client.request(popup.positioner, "xdg_positioner.set_size", .int(anySize()), .int(anySize()))
                client.request(popup.popup, "xdg_popup.reposition", .object(popup.positioner), .uint(UInt32(requests)))
            }
        case 18:
            if let layer {
                client.request(
                    layer.layer, "zwlr_layer_surface_v1.set_margin", .int(anyInt()), .int(anyInt()), .int(anyInt()),
                    .int(anyInt()))
                client.request(layer.layer, "zwlr_layer_surface_v1.set_exclusive_zone", .int(anyInt()))
                client.request(
                    layer.layer, "zwlr_layer_surface_v1.set_size",
                    .uint(UInt32(bitPattern: anyNonNegative())), .uint(UInt32(bitPattern: anyNonNegative())))
                client.request(layer.surface, "wl_surface.commit")
            }
        case 19:
            let requests = [
                "xdg_toplevel.set_maximized", "xdg_toplevel.unset_maximized", "xdg_toplevel.unset_fullscreen",
            ]
            if random.chance(0.3) {
                client.request(toplevel.toplevel, "xdg_toplevel.set_fullscreen", .object(0))
            } else {
                client.request(toplevel.toplevel, random.pick(requests)!)
            }
            client.request(toplevel.surface, "wl_surface.commit")
        default:
            setCursor()
        }
        nodes[index] = node
    }

    /// Puts the hostile window under the pointer (an enter with a serial), then sets a cursor
    /// surface with an extreme hotspot and moves it by an extreme wl_surface.offset.
    private func setCursor() {
        guard let pointer, let cursorSurface,
            let window = server.windows.windows.last(where: { $0 !== bystander && $0.level == .normal }),
            let output = server.compositor.scene.outputs.first(where: { $0.screen === window.screen })
        else { return }
        server.compositor.windows.setFrame(
            window, Rect(x: 200, y: 150, width: window.frame.width, height: window.frame.height))
        client.clearEvents()
        server.compositor.seat.pointerMotion(on: output, x: 5, y: 5, time: 1)
        server.compositor.seat.pointerMotion(on: output, x: 202.5, y: 152.5, time: 2)
        client.roundtrip()
        guard let enter = client.events(for: pointer).last(where: { $0.opcode == 0 }) else { return }
        client.request(
            pointer, "wl_pointer.set_cursor", .uint(enter.word(0)), .object(cursorSurface), .int(anyInt()),
            .int(anyInt()))
        cursorsSet += 1
        client.request(cursorSurface, "wl_surface.offset", .int(anyInt()), .int(anyInt()))
        client.request(cursorSurface, "wl_surface.attach", .object(buffer((16, 16))), .int(0), .int(0))
        client.request(cursorSurface, "wl_surface.commit")
        server.compositor.seat.pointerMotion(on: output, x: Double(anyInt()), y: 152.5, time: 3)
        server.compositor.seat.pointerMotion(on: output, x: 203.5, y: 153.5, time: 4)
    }

    /// A source inside the node's content (after its buffer scale and transform): past 32,768
    /// on the long buffers, and in wl_fixed's fractions.
    private func setSource(_ node: inout Node) {
        guard let buffer = node.buffer else { return }
        var w = buffer.width / node.scale, h = buffer.height / node.scale
        if node.transform & 1 == 1 { swap(&w, &h) }
        guard w > 0, h > 0 else { return }
        // In 1/256 units (wl_fixed), all inside w × h.
        let fw = Int32(w) * 256, fh = Int32(h) * 256
        let x = Int32.random(in: 0..<fw, using: &random), y = Int32.random(in: 0..<fh, using: &random)
        let width = Int32.random(in: 1...(fw - x), using: &random),
            height = Int32.random(in: 1...(fh - y), using: &random)
        client.request(
            node.viewport, "wp_viewport.set_source", .fixedRaw(x), .fixedRaw(y), .fixedRaw(width), .fixedRaw(height))
        node.hasSource = true
    }

    /// The content changes (buffer, scale, transform): a source that fitted may not fit any more.
    private func unsetSource(_ node: inout Node) {
        guard node.hasSource else { return }
        client.request(
            node.viewport, "wp_viewport.set_source", .fixedRaw(-256), .fixedRaw(-256), .fixedRaw(-256), .fixedRaw(-256))
        node.hasSource = false
    }

    /// Moves the hostile window somewhere, near or far (the model clamps its frame).
    func moveWindow() {
        let mine = server.windows.windows.filter { $0 !== bystander }
        guard let window = random.pick(mine) else { return }
        let far = [Int.min, -Int(Int32.max), -1_000_000, -700, 0, 300, 1_000_000, Int(Int32.max), Int.max]
        let x = random.chance(0.5) ? random.pick(far)! : Int.random(in: -2000...2000, using: &random)
        let y = random.chance(0.5) ? random.pick(far)! : Int.random(in: -2000...2000, using: &random)
        server.compositor.windows.setFrame(
            window, Rect(x: x, y: y, width: window.frame.width, height: window.frame.height))
    }

    /// Pointer and touch input at random and extreme places of every screen, then a repaint.
    func inputAndRepaint() {
        let seat = server.compositor.seat!
        for output in server.compositor.scene.outputs {
            for _ in 0..<3 {
                let places: [Double] = [
                    0, 1, 33.5, 300, -1, 1e9, -1e9, 2147483647, -2147483648, 1e300, -.greatestFiniteMagnitude,
                ]
                let x = random.chance(0.5) ? random.pick(places)! : Double.random(in: -100...700, using: &random)
                let y = random.chance(0.5) ? random.pick(places)! : Double.random(in: -100...500, using: &random)
                seat.pointerMotion(on: output, x: x, y: y, time: 1)
                seat.pointerMotion(dx: random.pick(places)!, dy: random.pick(places)!, time: 2)
                seat.pointerButton(0x110, pressed: true, time: 3)
                seat.pointerButton(0x110, pressed: false, time: 4)
                seat.touchDown(id: 1, on: output, x: x, y: y, time: 5)
                seat.touchMotion(id: 1, x: y, y: x, time: 6)
                seat.touchUp(id: 1, time: 7)
            }
        }
        server.repaint()
        captureRegion()
    }

    /// A screencopy of a region of extreme numbers: a region outside the screen fails, one that
    /// meets it is clipped to it and copied into a buffer of the size the frame asks for.
    func captureRegion() {
        guard let screencopy, let output else { return }
        let frame = client.newID()
        client.request(
            screencopy, "zwlr_screencopy_manager_v1.capture_output_region", .newID(frame), .int(0), .object(output),
            .int(random.chance(0.5) ? anyInt() : Int32.random(in: -50...600, using: &random)),
            .int(random.chance(0.5) ? anyInt() : Int32.random(in: -50...400, using: &random)),
            .int(anyInt()), .int(anyInt()))
        client.roundtrip()
        if let parameters = client.events(for: frame).first(where: { $0.opcode == 0 }) {
            let width = Int32(bitPattern: parameters.word(1)), height = Int32(bitPattern: parameters.word(2))
            let (_, buffer) = client.makeBuffer(
                shm: core.shm, width: width, height: height, format: WL_SHM_FORMAT_XRGB8888.rawValue)
            client.request(frame, "zwlr_screencopy_frame_v1.copy", .object(buffer))
            client.roundtrip()
            if client.events(for: frame).contains(where: { $0.opcode == 2 }) { regionsCopied += 1 }
        }
        client.request(frame, "zwlr_screencopy_frame_v1.destroy")
    }

    // MARK: Setup of the other roles

    /// A popup of the toplevel from a positioner of extreme numbers, mapped.
    func makePopup() {
        let positioner = client.newID()
        client.request(core.wmBase, "xdg_wm_base.create_positioner", .newID(positioner))
        client.request(positioner, "xdg_positioner.set_size", .int(anySize()), .int(anySize()))
        client.request(
            positioner, "xdg_positioner.set_anchor_rect", .int(anyInt()), .int(anyInt()), .int(anyNonNegative()),
            .int(anyNonNegative()))
        client.request(positioner, "xdg_positioner.set_offset", .int(anyInt()), .int(anyInt()))
        client.request(positioner, "xdg_positioner.set_anchor", .uint(UInt32.random(in: 0...8, using: &random)))
        client.request(positioner, "xdg_positioner.set_gravity", .uint(UInt32.random(in: 0...8, using: &random)))
        client.request(
            positioner, "xdg_positioner.set_constraint_adjustment", .uint(UInt32.random(in: 0...63, using: &random)))
        let surface = client.createSurface(core.compositor)
        let xdgSurface = client.newID(), popup = client.newID()
        client.request(core.wmBase, "xdg_wm_base.get_xdg_surface", .newID(xdgSurface), .object(surface))
        client.request(
            xdgSurface, "xdg_surface.get_popup", .newID(popup), .object(toplevel.xdgSurface), .object(positioner))
        client.request(surface, "wl_surface.commit")
        client.roundtrip()
        if let configure = client.events(for: xdgSurface).last(where: { $0.opcode == 0 }) {
            client.request(xdgSurface, "xdg_surface.ack_configure", .uint(configure.word(0)))
        }
        client.request(surface, "wl_surface.attach", .object(buffer(random.pick(Self.bufferSizes)!)), .int(0), .int(0))
        client.request(surface, "wl_surface.commit")
        client.request(positioner, "xdg_positioner.set_offset", .int(anyInt()), .int(anyInt()))
        client.request(popup, "xdg_popup.reposition", .object(positioner), .uint(1))
        self.popup = (popup, positioner)
        requests += 14
    }

    /// A layer surface stretched over the screen (all four anchors: any size is legal) with
    /// extreme size, margins and exclusive zone, mapped.
    func makeLayerSurface() {
        let surface = client.createSurface(core.compositor)
        let layer = client.newID()
        client.request(
            layerShell, "zwlr_layer_shell_v1.get_layer_surface", .newID(layer), .object(surface), .object(0),
            .uint(UInt32.random(in: 0...3, using: &random)), .string("extreme"))
        client.request(layer, "zwlr_layer_surface_v1.set_anchor", .uint(15))
        client.request(
            layer, "zwlr_layer_surface_v1.set_size", .uint(UInt32(bitPattern: anyNonNegative())),
            .uint(UInt32(bitPattern: anyNonNegative())))
        client.request(
            layer, "zwlr_layer_surface_v1.set_margin", .int(anyInt()), .int(anyInt()), .int(anyInt()), .int(anyInt()))
        client.request(layer, "zwlr_layer_surface_v1.set_exclusive_zone", .int(anyInt()))
        client.request(surface, "wl_surface.commit")
        client.roundtrip()
        if let configure = client.events(for: layer).last(where: { $0.opcode == 0 }) {
            client.request(layer, "zwlr_layer_surface_v1.ack_configure", .uint(configure.word(0)))
        }
        client.request(surface, "wl_surface.attach", .object(buffer((16, 16))), .int(0), .int(0))
        client.request(surface, "wl_surface.commit")
        client.request(
            layer, "zwlr_layer_surface_v1.set_margin", .int(anyInt()), .int(anyInt()), .int(anyInt()), .int(anyInt()))
        client.request(layer, "zwlr_layer_surface_v1.set_exclusive_zone", .int(anyInt()))
        client.request(surface, "wl_surface.commit")
        self.layer = (surface, layer)
        requests += 14
    }

    // MARK: The illegal ending

    /// Ends the program with one illegal number, and records the error the spec names for it.
    func endWithAnIllegalNumber() {
        let node = random.pick(nodes)!
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            client.request(node.surface, "wl_surface.set_buffer_scale", .int(random.pick([0, -1, Int32.min])!))
            expectedError = (node.surface, WL_SURFACE_ERROR_INVALID_SCALE.rawValue)
        case 1:
            client.request(
                node.surface, "wl_surface.set_buffer_transform", .int(random.pick([8, -1, Int32.min, Int32.max])!))
            expectedError = (node.surface, WL_SURFACE_ERROR_INVALID_TRANSFORM.rawValue)
        case 2:
            client.request(
                node.viewport, "wp_viewport.set_destination", .int(random.pick([0, -2, Int32.min])!), .int(anySize()))
            expectedError = (node.viewport, WP_VIEWPORT_ERROR_BAD_VALUE.rawValue)
        case 3:
            client.request(
                node.viewport, "wp_viewport.set_source", .fixedRaw(Int32.min), .fixedRaw(0), .fixedRaw(256),
                .fixedRaw(256))
            expectedError = (node.viewport, WP_VIEWPORT_ERROR_BAD_VALUE.rawValue)
        case 4:
            client.request(
                toplevel.xdgSurface, "xdg_surface.set_window_geometry", .int(anyInt()), .int(anyInt()),
                .int(random.pick([0, -1, Int32.min])!), .int(anySize()))
            expectedError = (toplevel.xdgSurface, XDG_SURFACE_ERROR_INVALID_SIZE.rawValue)
        case 5:
            client.request(
                toplevel.toplevel, "xdg_toplevel.set_max_size", .int(anyNonNegative()),
                .int(random.pick([-1, Int32.min])!))
            expectedError = (toplevel.toplevel, XDG_TOPLEVEL_ERROR_INVALID_SIZE.rawValue)
        case 6:
            // wl_fixed's largest source on the window's own surface (it always shows a buffer,
            // of at most 65,535 pixels a side): past the buffer at commit.
            let root = nodes[0]
            client.request(
                root.viewport, "wp_viewport.set_source", .fixedRaw(random.pick([0, Int32.max - 256])!), .fixedRaw(0),
                .fixedRaw(Int32.max), .fixedRaw(Int32.max))
            client.request(root.surface, "wl_surface.commit")
            expectedError = (root.viewport, WP_VIEWPORT_ERROR_OUT_OF_BUFFER.rawValue)
        default:
            let positioner = client.newID()
            client.request(core.wmBase, "xdg_wm_base.create_positioner", .newID(positioner))
            client.request(
                positioner, "xdg_positioner.set_size", .int(anySize()), .int(random.pick([0, -1, Int32.min])!))
            expectedError = (positioner, XDG_POSITIONER_ERROR_INVALID_INPUT.rawValue)
        }
        requests += 1
    }
}
