import CStrataClientGlue
import CWaylandClient

/// A test client's zwp_tablet_manager_v2 and one zwp_tablet_seat_v2, with the tablets and tools
/// it was told of, recording every event as text: `tablet_added`, `tablet.name(…)`,
/// `tool.type(0x140)`, `tool.proximity_in(surface)`, `tool.motion(x, y)`, `tool.frame` …
/// (surfaces by object id; times left out).
public final class TestTabletSeat {
    public let manager: OpaquePointer
    public private(set) var tabletSeat: OpaquePointer?
    public private(set) var tablets: [OpaquePointer] = []
    public private(set) var tools: [OpaquePointer] = []
    public private(set) var events: [String] = []
    /// The serial of the last proximity_in, down or button event.
    public private(set) var lastSerial: UInt32 = 0
    public private(set) var proximitySerial: UInt32 = 0

    public init(client: TestClient, seat: OpaquePointer) throws {
        manager = try client.bind(zwp_tablet_manager_v2_interface_ptr(), version: 1)
        tabletSeat = zwp_tablet_manager_v2_get_tablet_seat(manager, seat)
        zwp_tablet_seat_v2_add_listener(tabletSeat, &Self.seatListener, me)
    }

    /// The events since the last call; clears them.
    public func takeEvents() -> [String] {
        defer { events.removeAll() }
        return events
    }

    private var me: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ data: UnsafeMutableRawPointer?) -> TestTabletSeat? {
        data.map { Unmanaged<TestTabletSeat>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func id(_ proxy: OpaquePointer?) -> UInt32 { proxy.map { wl_proxy_get_id($0) } ?? 0 }
    private static func d(_ f: wl_fixed_t) -> Double { wl_fixed_to_double(f) }

    private static var seatListener = zwp_tablet_seat_v2_listener(
        tablet_added: { data, _, tablet in
            guard let seat = from(data), let tablet else { return }
            seat.tablets.append(tablet)
            seat.events.append("tablet_added")
            zwp_tablet_v2_add_listener(tablet, &tabletListener, data)
        },
        tool_added: { data, _, tool in
            guard let seat = from(data), let tool else { return }
            seat.tools.append(tool)
            seat.events.append("tool_added")
            zwp_tablet_tool_v2_add_listener(tool, &toolListener, data)
        },
        pad_added: { data, _, _ in from(data)?.events.append("pad_added") })

    private static var tabletListener = zwp_tablet_v2_listener(
        name: { data, _, name in from(data)?.events.append("tablet.name(\(name.map { String(cString: $0) } ?? ""))") },
        id: { data, _, vid, pid in from(data)?.events.append("tablet.id(\(vid), \(pid))") },
        path: { data, _, path in from(data)?.events.append("tablet.path(\(path.map { String(cString: $0) } ?? ""))") },
        done: { data, _ in from(data)?.events.append("tablet.done") },
        removed: { data, _ in from(data)?.events.append("tablet.removed") })

    private static var toolListener = zwp_tablet_tool_v2_listener(
        type: { data, _, type in from(data)?.events.append("tool.type(0x\(String(type, radix: 16)))") },
        hardware_serial: { data, _, hi, lo in
            from(data)?.events.append("tool.hardware_serial(\(UInt64(hi) << 32 | UInt64(lo)))")
        },
        hardware_id_wacom: { data, _, hi, lo in
            from(data)?.events.append("tool.hardware_id_wacom(\(UInt64(hi) << 32 | UInt64(lo)))")
        },
        capability: { data, _, capability in from(data)?.events.append("tool.capability(\(capability))") },
        done: { data, _ in from(data)?.events.append("tool.done") },
        removed: { data, _ in from(data)?.events.append("tool.removed") },
        proximity_in: { data, _, serial, tablet, surface in
            guard let seat = from(data) else { return }
            seat.lastSerial = serial
            seat.proximitySerial = serial
            seat.events.append("tool.proximity_in(\(id(surface)))")
        },
        proximity_out: { data, _ in from(data)?.events.append("tool.proximity_out") },
        down: { data, _, serial in
            from(data)?.lastSerial = serial
            from(data)?.events.append("tool.down")
        },
        up: { data, _ in from(data)?.events.append("tool.up") },
        motion: { data, _, x, y in from(data)?.events.append("tool.motion(\(d(x)), \(d(y)))") },
        pressure: { data, _, p in from(data)?.events.append("tool.pressure(\(p))") },
        distance: { data, _, v in from(data)?.events.append("tool.distance(\(v))") },
        tilt: { data, _, x, y in from(data)?.events.append("tool.tilt(\(d(x)), \(d(y)))") },
        rotation: { data, _, r in from(data)?.events.append("tool.rotation(\(d(r)))") },
        slider: { data, _, s in from(data)?.events.append("tool.slider(\(s))") },
        wheel: { data, _, degrees, clicks in from(data)?.events.append("tool.wheel(\(d(degrees)), \(clicks))") },
        button: { data, _, serial, button, state in
            from(data)?.lastSerial = serial
            from(data)?.events.append("tool.button(0x\(String(button, radix: 16)), \(state))")
        },
        frame: { data, _, _ in from(data)?.events.append("tool.frame") })
}
