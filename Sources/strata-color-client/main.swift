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
    /// A level to ask for through strata_window_v1 (nil: do not use the extension).
    var level: Int32?
    /// Ask to be shown without becoming key (strata_window_v1.set_show_without_key).
    var noKey = false
    /// wl_surface.set_buffer_scale: the buffer has size × bufferScale pixels.
    var bufferScale: Int32 = 1
    /// Draw at wp_fractional_scale_v1's preferred scale, shrunk to --size by a wp_viewport.
    var fractional = false
}

func usage() -> Never {
    let text = """
        usage: strata-color-client [--size WxH] [--color AARRGGBB|RRGGBB] [--inner AARRGGBB|RRGGBB]
                                   [--frames N] [--seconds S] [--title T] [--app-id ID]
                                   [--level normal|alert|statusBar|N] [--no-key]
                                   [--buffer-scale N | --fractional]
        Maps one toplevel of one colour; with --inner, the middle half is the second colour. Draws N
        frames (paced by frame callbacks), then stays S more seconds, then exits. --level and --no-key
        go through strata_window_v1 (set_level, set_show_without_key) and print its events.

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
        if arg == "--no-key" {
            o.noKey = true
            continue
        }
        if arg == "--fractional" {
            o.fractional = true
            continue
        }
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
        case "--buffer-scale": guard let n = Int32(value), (1...8).contains(n) else { usage() }; o.bufferScale = n
        case "--title": o.title = value
        case "--app-id": o.appID = value
        case "--level":
            let named: [String: Int32] = ["normal": 0, "alert": 1000, "statusBar": 2000, "status_bar": 2000]
            guard let level = named[value] ?? Int32(value) else { usage() }
            o.level = level
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
    var windowManager: OpaquePointer?
    var strataWindow: OpaquePointer?
    var surface: OpaquePointer?
    var xdgSurface: OpaquePointer?
    var toplevel: OpaquePointer?
    var configured = false
    var pendingSerial: UInt32 = 0
    var framesDrawn = 0
    var waitingForFrame = false
    var closed = false
    var activated = false
    var buffers:
        [(buffer: OpaquePointer, pixels: UnsafeMutablePointer<UInt32>, busy: Bool, width: Int32, height: Int32)] = []
    var viewporter: OpaquePointer?
    var fractionalManager: OpaquePointer?
    var viewport: OpaquePointer?
    /// The last wp_fractional_scale_v1.preferred_scale (1/120 units).
    var preferredScale: UInt32 = 120

    /// The buffer's size in pixels: --size times the buffer scale, or times the fractional scale
    /// (rounded half away from zero, as the protocol says for toplevels).
    var bufferSize: (width: Int32, height: Int32) {
        if options.fractional {
            let s = Double(preferredScale) / 120
            return (Int32((Double(options.width) * s).rounded()), Int32((Double(options.height) * s).rounded()))
        }
        return (options.width * options.bufferScale, options.height * options.bufferScale)
    }

    init(options: Options, display: OpaquePointer) {
        self.options = options
        self.display = display
    }

    func say(_ line: String) {
        print(line)
        fflush(stdout)
    }

    func makeBuffer() -> Int? {
        let (width, height) = bufferSize
        let size = Int(width) * Int(height) * 4
        let fd = strata_client_memfd("strata-color-client")
        guard fd >= 0, ftruncate(fd, off_t(size)) == 0,
            let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED,
            let pool = wl_shm_create_pool(shm, fd, Int32(size)),
            let buffer = wl_shm_pool_create_buffer(
                pool, 0, width, height, width * 4,
                WL_SHM_FORMAT_ARGB8888.rawValue)
        else { return nil }
        wl_shm_pool_destroy(pool)
        close(fd)
        let pixels = map.assumingMemoryBound(to: UInt32.self)
        let w = Int(width), h = Int(height)
        for y in 0..<h {
            for x in 0..<w {
                let inside = x >= w / 4 && x < w - w / 4 && y >= h / 4 && y < h - h / 4
                pixels[y * w + x] = (inside ? options.inner : nil) ?? options.color
            }
        }
        buffers.append((buffer, pixels, false, width, height))
        let index = buffers.count - 1
        wl_buffer_add_listener(
            buffer, &App.bufferListener, Unmanaged.passRetained(BufferTag(app: self, index: index)).toOpaque())
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
        let size = bufferSize
        let index =
            buffers.firstIndex { !$0.busy && $0.width == size.width && $0.height == size.height } ?? makeBuffer()
        guard let index else {
            say("error: cannot allocate a buffer")
            exit(1)
        }
        buffers[index].busy = true
        if options.bufferScale != 1 { wl_surface_set_buffer_scale(surface, options.bufferScale) }
        if let viewport { wp_viewport_set_destination(viewport, options.width, options.height) }
        wl_surface_attach(surface, buffers[index].buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, size.width, size.height)
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
            case "wl_compositor":
                app.compositor = OpaquePointer(
                    wl_registry_bind(registry, name, wl_compositor_interface_ptr(), min(version, 4)))
            case "wl_shm": app.shm = OpaquePointer(wl_registry_bind(registry, name, wl_shm_interface_ptr(), 1))
            case "xdg_wm_base":
                app.wmBase = OpaquePointer(wl_registry_bind(registry, name, xdg_wm_base_interface_ptr(), 1))
            case "wp_viewporter":
                app.viewporter = OpaquePointer(wl_registry_bind(registry, name, wp_viewporter_interface_ptr(), 1))
            case "wp_fractional_scale_manager_v1":
                app.fractionalManager = OpaquePointer(
                    wl_registry_bind(registry, name, wp_fractional_scale_manager_v1_interface_ptr(), 1))
            case "strata_window_manager_v1":
                app.windowManager = OpaquePointer(
                    wl_registry_bind(registry, name, strata_window_manager_v1_interface_ptr(), 1))
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

    static var strataWindowListener = strata_window_v1_listener(
        did_become_key: { data, _ in app(data)?.say("did_become_key") },
        did_resign_key: { data, _ in app(data)?.say("did_resign_key") },
        did_become_visible: { data, _ in app(data)?.say("did_become_visible") },
        did_become_hidden: { data, _ in app(data)?.say("did_become_hidden") },
        level_changed: { data, _, level in app(data)?.say("level_changed \(level)") },
        level_denied: { data, _, requested, reason in app(data)?.say("level_denied \(requested) reason \(reason)") },
        screen_changed: { data, _, screen in app(data)?.say("screen_changed \(screen)") })

    static var fractionalListener = wp_fractional_scale_v1_listener(preferred_scale: { data, _, scale in
        guard let app = app(data) else { return }
        app.say("preferred_scale \(scale)")
        app.preferredScale = scale
    })

    static func app(_ data: UnsafeMutableRawPointer?) -> App? {
        data.map { Unmanaged<App>.fromOpaque($0).takeUnretainedValue() }
    }

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
        if options.fractional {
            guard let fractionalManager, let viewporter else {
                say("error: the compositor lacks wp_fractional_scale_manager_v1 or wp_viewporter")
                return 1
            }
            let fractional = wp_fractional_scale_manager_v1_get_fractional_scale(fractionalManager, surface)
            wp_fractional_scale_v1_add_listener(fractional, &App.fractionalListener, me)
            viewport = wp_viewporter_get_viewport(viewporter, surface)
        }
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
        xdg_surface_add_listener(xdgSurface, &App.xdgSurfaceListener, me)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, &App.toplevelListener, me)
        xdg_toplevel_set_title(toplevel, options.title)
        xdg_toplevel_set_app_id(toplevel, options.appID)
        if options.level != nil || options.noKey {
            guard let windowManager else {
                say("error: the compositor lacks strata_window_manager_v1")
                return 1
            }
            strataWindow = strata_window_manager_v1_get_window(windowManager, toplevel)
            strata_window_v1_add_listener(strataWindow, &App.strataWindowListener, me)
            if let level = options.level { strata_window_v1_set_level(strataWindow, level) }
            if options.noKey { strata_window_v1_set_show_without_key(strataWindow) }
        }
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
