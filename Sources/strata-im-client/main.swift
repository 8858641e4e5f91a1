// strata-im-client: a tiny input method (zwp_input_method_v2) for end-to-end tests and demos.
// It takes the seat's input method, waits until a text field is active (activate … done), then
// commits each TEXT argument (commit_string + commit with the done count), waits for the field's
// answer (its new state), prints what it hears as lines on stdout, and exits 0. Exits 1 when the compositor
// has no input method manager (it is privileged) or another input method holds the seat, and 3
// when no field became active within --seconds.
import CStrataClientGlue
import CWaylandClient
import Foundation

struct Options {
    var texts: [String] = []
    var seconds: Double = 10
    var preedit: String?
}

func usage() -> Never {
    FileHandle.standardError.write(
        Data(
            """
            usage: strata-im-client [--seconds S] [--preedit TEXT] TEXT…
            Commits each TEXT into the active text field (waiting at most S seconds for one); --preedit
            sets a pre-edit string after the last commit.

            """.utf8))
    exit(2)
}

func parse() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst().makeIterator()
    while let arg = args.next() {
        switch arg {
        case "--seconds": guard let v = args.next().flatMap(Double.init), v > 0 else { usage() }; o.seconds = v
        case "--preedit": guard let v = args.next() else { usage() }; o.preedit = v
        case "-h", "--help": usage()
        default: o.texts.append(arg)
        }
    }
    if o.texts.isEmpty && o.preedit == nil { usage() }
    return o
}

final class State {
    var seat: OpaquePointer?
    var manager: OpaquePointer?
    var doneCount: UInt32 = 0
    var active = false
    var pendingActive = false
    var unavailable = false
}

let options = parse()
let state = State()
setvbuf(stdout, nil, _IOLBF, 0)

guard let display = wl_display_connect(nil) else {
    print("cannot connect to the Wayland display")
    exit(1)
}
var registryListener = wl_registry_listener(
    global: { _, registry, name, interface, _ in
        guard let interface else { return }
        switch String(cString: interface) {
        case "wl_seat":
            state.seat = wl_registry_bind(registry, name, wl_seat_interface_ptr(), 1).map(OpaquePointer.init)
        case "zwp_input_method_manager_v2":
            state.manager = wl_registry_bind(registry, name, zwp_input_method_manager_v2_interface_ptr(), 1).map(
                OpaquePointer.init)
        default: break
        }
    },
    global_remove: { _, _, _ in })
let registry = wl_display_get_registry(display)
wl_registry_add_listener(registry, &registryListener, nil)
wl_display_roundtrip(display)
guard let manager = state.manager, let seat = state.seat else {
    print("no zwp_input_method_manager_v2 (privileged: run me from strata, or strata --allow-privileged)")
    exit(1)
}

var listener = zwp_input_method_v2_listener(
    activate: { _, _ in
        state.pendingActive = true; print("activate")
    },
    deactivate: { _, _ in
        state.pendingActive = false; print("deactivate")
    },
    surrounding_text: { _, _, text, cursor, anchor in
        print("surrounding_text \(text.map { String(cString: $0) } ?? "") \(cursor) \(anchor)")
    },
    text_change_cause: { _, _, cause in print("text_change_cause \(cause)") },
    content_type: { _, _, hint, purpose in print("content_type \(hint) \(purpose)") },
    done: { _, _ in
        state.doneCount += 1
        state.active = state.pendingActive
        print("done")
    },
    unavailable: { _, _ in
        state.unavailable = true; print("unavailable")
    })
guard let inputMethod = zwp_input_method_manager_v2_get_input_method(manager, seat) else { exit(1) }
zwp_input_method_v2_add_listener(inputMethod, &listener, nil)

let deadline = Date().addingTimeInterval(options.seconds)
/// Dispatches until `condition` holds; false on a connection error, unavailability or the deadline.
func wait(until condition: () -> Bool) -> Bool {
    while !condition() {
        if state.unavailable || Date() > deadline { return false }
        while wl_display_prepare_read(display) != 0 { wl_display_dispatch_pending(display) }
        wl_display_flush(display)
        var pfd = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&pfd, 1, 100) > 0 {
            if wl_display_read_events(display) < 0 { return false }
        } else {
            wl_display_cancel_read(display)
        }
        if wl_display_dispatch_pending(display) < 0 { return false }
    }
    return true
}

guard wait(until: { state.active }) else {
    print(state.unavailable ? "another input method holds the seat" : "no active text field")
    exit(state.unavailable ? 1 : 3)
}
let donesBeforeCommitting = state.doneCount
for text in options.texts {
    zwp_input_method_v2_commit_string(inputMethod, text)
    zwp_input_method_v2_commit(inputMethod, state.doneCount)
    wl_display_roundtrip(display)
    print("committed \(text)")
}
if let preedit = options.preedit {
    let length = Int32(clamping: preedit.utf8.count)
    zwp_input_method_v2_set_preedit_string(inputMethod, preedit, length, length)
    zwp_input_method_v2_commit(inputMethod, state.doneCount)
    wl_display_roundtrip(display)
    print("preedit \(preedit)")
}
// The field answers a commit with its new state (surrounding text …, done): wait for it, so the
// output shows what the field now holds.
_ = wait(until: { state.doneCount > donesBeforeCommitting })
zwp_input_method_v2_destroy(inputMethod)
wl_display_roundtrip(display)
wl_display_disconnect(display)
exit(0)
