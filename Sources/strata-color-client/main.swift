// strata-color-client: a deterministic Wayland client for end-to-end tests and demos.
// It maps one xdg_toplevel filled with one colour (optionally with an inner rectangle of a second
// colour), redraws for a number of frames paced by frame callbacks, and exits 0; it prints what it
// sees (configure sizes, activated changes) as lines on stdout.
import CStrataClientGlue
import CWaylandClient
import Foundation

struct Options {
    var width: Int32 = 200
    var height: Int32 = 150
    var color: UInt32 = 0xffff_0000
    var inner: UInt32?
    var frames = 3
    var seconds: Double = 0
    var title = "strata-color-client"
    var appID = "org.strata.ColorClient"
}

func usage() -> Never {
    let text = """
    usage: strata-color-client [--size WxH] [--color AARRGGBB|RRGGBB] [--inner AARRGGBB|RRGGBB]
                               [--frames N] [--seconds S] [--title T] [--app-id ID]
    Maps one toplevel of one colour; with --inner, the middle half is the second colour. Draws N
    frames (paced by frame callbacks), then stays S more seconds, then exits.

    """
    FileHandle.standardError.write(Data(text.utf8))
    exit(2)
}

func parseColor(_ s: String) -> UInt32? {
    guard let v = UInt32(s, radix: 16) else { return nil }
    return s.count <= 6 ? 0xff00_0000 | v : v
}

func parse() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst().makeIterator()
    while let arg = args.next() {
        guard let value = args.next() else { usage() }
        switch arg {
        case "--size":
            let parts = value.split(separator: "x").compactMap { Int32($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { usage() }
            o.width = parts[0]
            o.height = parts[1]
        case "--color": guard let c = parseColor(value) else { usage() }; o.color = c
        case "--inner": guard let c = parseColor(value) else { usage() }; o.inner = c
        case "--frames": guard let n = Int(value), n >= 1 else { usage() }; o.frames = n
        case "--seconds": guard let s = Double(value), s >= 0 else { usage() }; o.seconds = s
        case "--title": o.title = value
        case "--app-id": o.appID = value
        default: usage()
        }
    }
    return o
}

final class App {
    let options: Options
    let display: OpaquePointer
    var compositor: OpaquePointer?
    var shm: OpaquePointer?
    var wmBase: OpaquePointer?
    var surface: OpaquePointer?
    var xdgSurface: OpaquePointer?
    var toplevel: OpaquePointer?
    var configured = false
    var pendingSerial: UInt32 = 0
    var framesDrawn = 0
    var waitingForFrame = false
    var closed = false
    var activated = false
    var buffers: [(buffer: OpaquePointer, pixels: UnsafeMutablePointer<UInt32>, busy: Bool)] = []

    init(options: Options, display: OpaquePointer) {
        self.options = options
        self.display = display
    }

    func say(_ line: String) {
        print(line)
        fflush(stdout)
    }

    func makeBuffer() -> Int? {
        let size = Int(options.width) * Int(options.height) * 4
        let fd = strata_client_memfd("strata-color-client")
        guard fd >= 0, ftruncate(fd, off_t(size)) == 0,
              let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED,
              let pool = wl_shm_create_pool(shm, fd, Int32(size)),
              let buffer = wl_shm_pool_create_buffer(pool, 0, options.width, options.height, options.width * 4,
                                                      WL_SHM_FORMAT_ARGB8888.rawValue)
        else { return nil }
        wl_shm_pool_destroy(pool)
        close(fd)
        let pixels = map.assumingMemoryBound(to: UInt32.self)
        let w = Int(options.width), h = Int(options.height)
        for y in 0..<h {
            for x in 0..<w {
                let inside = x >= w / 4 && x < w - w / 4 && y >= h / 4 && y < h - h / 4
                pixels[y * w + x] = (inside ? options.inner : nil) ?? options.color
            }
        }
        buffers.append((buffer, pixels, false))
        let index = buffers.count - 1
        wl_buffer_add_listener(buffer, &App.bufferListener, Unmanaged.passRetained(BufferTag(app: self, index: index)).toOpaque())
        return index
    }

    final class BufferTag {
        unowned let app: App
        let index: Int
        init(app: App, index: Int) { self.app = app; self.index = index }
    }

    static var bufferListener = wl_buffer_listener(release: { data, _ in
        guard let data else { return }
        let tag = Unmanaged<BufferTag>.fromOpaque(data).takeUnretainedValue()
        tag.app.buffers[tag.index].busy = false
    })

    func draw() {
        let index = buffers.firstIndex { !$0.busy } ?? makeBuffer()
        guard let index else {
            say("error: cannot allocate a buffer")
            exit(1)
        }
        buffers[index].busy = true
        wl_surface_attach(surface, buffers[index].buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, options.width, options.height)
        let callback = wl_surface_frame(surface)
        wl_callback_add_listener(callback, &App.frameListener, Unmanaged.passUnretained(self).toOpaque())
        waitingForFrame = true
        wl_surface_commit(surface)
    }

    static var frameListener = wl_callback_listener(done: { data, callback, _ in
        guard let data else { return }
        let app = Unmanaged<App>.fromOpaque(data).takeUnretainedValue()
        wl_callback_destroy(callback)
        app.waitingForFrame = false
        app.framesDrawn += 1
        app.say("frame \(app.framesDrawn)")
        if app.framesDrawn < app.options.frames { app.draw() }
    })

    static var registryListener = wl_registry_listener(
        global: { data, registry, name, interface, version in
            guard let data, let interface else { return }
            let app = Unmanaged<App>.fromOpaque(data).takeUnretainedValue()
            switch String(cString: interface) {
            case "wl_compositor": app.compositor = OpaquePointer(wl_registry_bind(registry, name, wl_compositor_interface_ptr(), min(version, 4)))
            case "wl_shm": app.shm = OpaquePointer(wl_registry_bind(registry, name, wl_shm_interface_ptr(), 1))
            case "xdg_wm_base": app.wmBase = OpaquePointer(wl_registry_bind(registry, name, xdg_wm_base_interface_ptr(), 1))
            default: break
            }
        },
        global_remove: { _, _, _ in })

    static var wmBaseListener = xdg_wm_base_listener(ping: { _, base, serial in
        xdg_wm_base_pong(base, serial)
    })

    static var xdgSurfaceListener = xdg_surface_listener(configure: { data, xdgSurface, serial in
        guard let data else { return }
        let app = Unmanaged<App>.fromOpaque(data).takeUnretainedValue()
        xdg_surface_ack_configure(xdgSurface, serial)
        if !app.configured {
            app.configured = true
            app.draw()
        }
    })

    static var toplevelListener = xdg_toplevel_listener(
        configure: { data, _, width, height, states in
            guard let data else { return }
            let app = Unmanaged<App>.fromOpaque(data).takeUnretainedValue()
            var activated = false
            if let states, states.pointee.size > 0, let raw = states.pointee.data {
                let count = states.pointee.size / 4
                let values = raw.assumingMemoryBound(to: UInt32.self)
                for i in 0..<count where values[i] == XDG_TOPLEVEL_STATE_ACTIVATED.rawValue { activated = true }
            }
            app.say("configure \(width)x\(height) activated=\(activated)")
            app.activated = activated
        },
        close: { data, _ in
            guard let data else { return }
            let app = Unmanaged<App>.fromOpaque(data).takeUnretainedValue()
            app.say("close")
            app.closed = true
        },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in })

    func run() -> Int32 {
        let registry = wl_display_get_registry(display)
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_registry_add_listener(registry, &App.registryListener, me)
        wl_display_roundtrip(display)
        guard compositor != nil, shm != nil, let wmBase else {
            say("error: the compositor lacks wl_compositor, wl_shm or xdg_wm_base")
            return 1
        }
        xdg_wm_base_add_listener(wmBase, &App.wmBaseListener, me)
        surface = wl_compositor_create_surface(compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        xdg_surface_add_listener(xdgSurface, &App.xdgSurfaceListener, me)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, &App.toplevelListener, me)
        xdg_toplevel_set_title(toplevel, options.title)
        xdg_toplevel_set_app_id(toplevel, options.appID)
        wl_surface_commit(surface)
        while !closed, framesDrawn < options.frames {
            if wl_display_dispatch(display) < 0 {
                say("error: connection lost")
                return 1
            }
        }
        let deadline = Date().addingTimeInterval(options.seconds)
        while !closed, Date() < deadline {
            wl_display_flush(display)
            var pfd = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            if poll(&pfd, 1, min(ms, 100)) > 0, wl_display_dispatch(display) < 0 { break }
        }
        say("done")
        return 0
    }
}

let options = parse()
guard let display = wl_display_connect(nil) else {
    FileHandle.standardError.write(Data("strata-color-client: cannot connect to WAYLAND_DISPLAY\n".utf8))
    exit(1)
}
let app = App(options: options, display: display)
let status = app.run()
wl_display_disconnect(display)
exit(status)
