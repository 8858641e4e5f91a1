// strata-x11-color-client: a deterministic X11 client (xcb) for end-to-end tests and demos, the X
// counterpart of strata-color-client. It maps one top-level window whose background is one
// colour (so the X server fills it: exact pixels), with the class, title, window type and
// _NET_WM_STATE_ABOVE asked for, prints `mapped` when the window manager mapped it, and exits 0
// after --seconds or when asked to close (WM_DELETE_WINDOW).
import CXCB
import Glibc

struct Options {
    var width: UInt16 = 200
    var height: UInt16 = 150
    var x: Int16 = 0
    var y: Int16 = 0
    var color: UInt32 = 0xff0000
    var seconds: Double = 10
    var title = "strata-x11-color-client"
    var wmClass = "StrataX11ColorClient"
    var type: String?
    var above = false
    var overrideRedirect = false
    /// A 16×16 cursor of one colour (hotspot at its top-left corner) over the window.
    var cursorColor: UInt32?
    /// Depth-24 pixmaps of 32×32 made, drawn into and kept before the window maps (an
    /// image-heavy program's kind: Xwayland backs each with a wl_shm pool).
    var pixmaps = 0
}

func usage() -> Never {
    let text = """
        usage: strata-x11-color-client [--size WxH] [--position X,Y] [--color RRGGBB] [--seconds S]
                                       [--title T] [--class C] [--type normal|dialog|utility|dock|
                                       notification|desktop|menu|tooltip] [--above] [--override-redirect]
                                       [--cursor-color RRGGBB] [--pixmaps N]
        Maps one X window filled with one colour (its background pixel: the X server draws it) on
        $DISPLAY; --class is WM_CLASS's class (Strata's app id), --type _NET_WM_WINDOW_TYPE, --above
        sets _NET_WM_STATE_ABOVE before mapping. Prints `mapped` once mapped; exits after S seconds
        or at WM_DELETE_WINDOW. --cursor-color: the window's cursor is a 16×16 square of that colour,
        its hotspot at the top-left corner. --pixmaps N: N depth-24 pixmaps of 32×32 (at most
        100000) are made, each filled, and kept until the client exits; `pixmaps N` is printed once
        the X server has them all, before the window maps.

        """
    fputs(text, stderr)
    exit(2)
}

func parse() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst().makeIterator()
    while let arg = args.next() {
        switch arg {
        case "--above": o.above = true; continue
        case "--override-redirect": o.overrideRedirect = true; continue
        default: break
        }
        guard let value = args.next() else { usage() }
        switch arg {
        case "--size":
            let parts = value.split(separator: "x")
            guard parts.count == 2, let w = UInt16(parts[0]), let h = UInt16(parts[1]), w > 0, h > 0 else { usage() }
            o.width = w
            o.height = h
        case "--position":
            let parts = value.split(separator: ",")
            guard parts.count == 2, let x = Int16(parts[0]), let y = Int16(parts[1]) else { usage() }
            o.x = x
            o.y = y
        case "--color":
            guard value.count == 6, let v = UInt32(value, radix: 16) else { usage() }
            o.color = v
        case "--seconds":
            guard let s = Double(value), s >= 0, s <= 86400 else { usage() }
            o.seconds = s
        case "--cursor-color":
            guard value.count == 6, let v = UInt32(value, radix: 16) else { usage() }
            o.cursorColor = v
        case "--pixmaps":
            guard let n = Int(value), n >= 0, n <= 100_000 else { usage() }
            o.pixmaps = n
        case "--title": o.title = value
        case "--class": o.wmClass = value
        case "--type":
            let known = ["normal", "dialog", "utility", "dock", "notification", "desktop", "menu", "tooltip"]
            guard known.contains(value) else { usage() }
            o.type = value
        default: usage()
        }
    }
    return o
}

let options = parse()
guard let c = xcb_connect(nil, nil), xcb_connection_has_error(c) == 0 else {
    fputs("strata-x11-color-client: cannot connect to the X display\n", stderr)
    exit(1)
}
guard let screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data else { exit(1) }

func atom(_ name: String) -> xcb_atom_t {
    guard let reply = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, UInt16(name.utf8.count), name), nil) else {
        return 0
    }
    defer { free(reply) }
    return reply.pointee.atom
}

let window = xcb_generate_id(c)
var values: [UInt32] = [options.color, options.overrideRedirect ? 1 : 0, XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue]
xcb_create_window(
    c, UInt8(XCB_COPY_FROM_PARENT), window, screen.pointee.root, options.x, options.y, options.width,
    options.height, 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.pointee.root_visual,
    XCB_CW_BACK_PIXEL.rawValue | XCB_CW_OVERRIDE_REDIRECT.rawValue | XCB_CW_EVENT_MASK.rawValue, &values)

// The cursor: a core cursor whose source and mask are all set (the foreground colour everywhere).
if let color = options.cursorColor {
    let bitmap = xcb_generate_id(c)
    xcb_create_pixmap(c, 1, bitmap, window, 16, 16)
    let gc = xcb_generate_id(c)
    var foreground: [UInt32] = [1]
    xcb_create_gc(c, gc, bitmap, XCB_GC_FOREGROUND.rawValue, &foreground)
    var all = xcb_rectangle_t(x: 0, y: 0, width: 16, height: 16)
    xcb_poly_fill_rectangle(c, bitmap, gc, 1, &all)
    let cursor = xcb_generate_id(c)
    func channel(_ shift: UInt32) -> UInt16 { UInt16(color >> shift & 0xff) * 257 }
    xcb_create_cursor(c, cursor, bitmap, bitmap, channel(16), channel(8), channel(0), 0, 0, 0, 0, 0)
    var value: [UInt32] = [cursor]
    xcb_change_window_attributes(c, window, XCB_CW_CURSOR.rawValue, &value)
    xcb_free_gc(c, gc)
    xcb_free_pixmap(c, bitmap)
}

// Pixmaps kept for the client's life, each drawn into; a round trip every 200 so that the X
// server keeps up (and an error, such as the X server dropping the client, shows).
if options.pixmaps > 0 {
    let gc = xcb_generate_id(c)
    var foreground: [UInt32] = [options.color]
    xcb_create_gc(c, gc, window, XCB_GC_FOREGROUND.rawValue, &foreground)
    var all = xcb_rectangle_t(x: 0, y: 0, width: 32, height: 32)
    for index in 0..<options.pixmaps {
        let pixmap = xcb_generate_id(c)
        xcb_create_pixmap(c, 24, pixmap, window, 32, 32)
        xcb_poly_fill_rectangle(c, pixmap, gc, 1, &all)
        if index % 200 == 199 || index == options.pixmaps - 1 {
            guard let reply = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nil) else {
                fputs("strata-x11-color-client: the X server dropped the client after \(index + 1) pixmaps\n", stderr)
                exit(1)
            }
            free(reply)
        }
    }
    print("pixmaps \(options.pixmaps)")
    fflush(stdout)
}

func setProperty(_ property: xcb_atom_t, type: xcb_atom_t, format: UInt8, _ bytes: [UInt8]) {
    xcb_change_property(
        c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, format,
        UInt32(bytes.count / Int(format / 8)), bytes)
}
func words(_ values: [UInt32]) -> [UInt8] {
    values.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8 & 0xff), UInt8($0 >> 16 & 0xff), UInt8($0 >> 24)] }
}

let deleteWindow = atom("WM_DELETE_WINDOW")
let protocols = atom("WM_PROTOCOLS")
setProperty(
    XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8,
    Array("strata-x11-color-client\0\(options.wmClass)\0".utf8))
setProperty(XCB_ATOM_WM_NAME.rawValue, type: XCB_ATOM_STRING.rawValue, format: 8, Array(options.title.utf8))
setProperty(atom("_NET_WM_NAME"), type: atom("UTF8_STRING"), format: 8, Array(options.title.utf8))
setProperty(atom("_NET_WM_PID"), type: XCB_ATOM_CARDINAL.rawValue, format: 32, words([UInt32(getpid())]))
setProperty(protocols, type: XCB_ATOM_ATOM.rawValue, format: 32, words([deleteWindow]))
if let type = options.type {
    let name = type == "menu" ? "_NET_WM_WINDOW_TYPE_POPUP_MENU" : "_NET_WM_WINDOW_TYPE_" + type.uppercased()
    setProperty(atom("_NET_WM_WINDOW_TYPE"), type: XCB_ATOM_ATOM.rawValue, format: 32, words([atom(name)]))
}
if options.above {
    setProperty(atom("_NET_WM_STATE"), type: XCB_ATOM_ATOM.rawValue, format: 32, words([atom("_NET_WM_STATE_ABOVE")]))
}
xcb_map_window(c, window)
xcb_flush(c)

// Events until the time is up, the window manager asks to close, or the connection ends.
var start = timespec()
clock_gettime(CLOCK_MONOTONIC, &start)
var fds = [pollfd(fd: xcb_get_file_descriptor(c), events: Int16(POLLIN), revents: 0)]
while true {
    while let event = xcb_poll_for_event(c) {
        defer { free(event) }
        switch Int32(event.pointee.response_type & 0x7f) {
        case XCB_MAP_NOTIFY:
            print("mapped")
            fflush(stdout)
        case XCB_CLIENT_MESSAGE:
            let message = UnsafeMutableRawPointer(event).assumingMemoryBound(to: xcb_client_message_event_t.self)
                .pointee
            if message.type == protocols, message.data.data32.0 == deleteWindow {
                print("closed")
                exit(0)
            }
        default:
            break
        }
    }
    if xcb_connection_has_error(c) != 0 { exit(1) }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let elapsed = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
    if elapsed >= options.seconds { break }
    _ = poll(&fds, 1, Int32(min((options.seconds - elapsed) * 1000 + 1, 1000)))
}
xcb_disconnect(c)
exit(0)
