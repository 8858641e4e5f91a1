import CXCB

/// What the XWM reads of an X window's properties, each decoded into its record (nil: missing
/// or malformed). A read asks for every `Name` and keeps the replies by name, so a reply can
/// only ever be decoded as the property it answers.
struct X11WindowProperties: Equatable {
    /// The properties read, with the atom each is.
    enum Name: CaseIterable {
        case wmName, netWMName, wmClass, netWMPid, wmTransientFor, wmProtocols, wmHints, netWMWindowType, netWMState

        /// Its atom (the predefined ones are X's; the others interned by `XAtoms`).
        func atom(_ atoms: XAtoms) -> UInt32 {
            switch self {
            case .wmName: return XCB_ATOM_WM_NAME.rawValue
            case .netWMName: return atoms["_NET_WM_NAME"]
            case .wmClass: return XCB_ATOM_WM_CLASS.rawValue
            case .netWMPid: return atoms["_NET_WM_PID"]
            case .wmTransientFor: return XCB_ATOM_WM_TRANSIENT_FOR.rawValue
            case .wmProtocols: return atoms["WM_PROTOCOLS"]
            case .wmHints: return XCB_ATOM_WM_HINTS.rawValue
            case .netWMWindowType: return atoms["_NET_WM_WINDOW_TYPE"]
            case .netWMState: return atoms["_NET_WM_STATE"]
            }
        }

        /// A change of which asks for a new read (a client may set its protocols or class after
        /// mapping, as Xt applications do); the type and state are read at map time only.
        var isWatched: Bool { self != .netWMWindowType && self != .netWMState }
    }

    var wmName: WMName?
    var netWMName: WMName?
    var wmClass: WMClass?
    var netWMPid: NetWMPid?
    var wmTransientFor: WMTransientFor?
    var wmProtocols: XAtomList?
    var wmHints: WMHints?
    var netWMWindowType: XAtomList?
    var netWMState: XAtomList?

    init() {}

    /// From the values read, by name (a missing one is no property).
    init(_ values: [Name: XPropertyValue]) {
        for (name, value) in values {
            switch name {
            case .wmName: wmName = WMName(value)
            case .netWMName: netWMName = WMName(value)
            case .wmClass: wmClass = WMClass(value)
            case .netWMPid: netWMPid = NetWMPid(value)
            case .wmTransientFor: wmTransientFor = WMTransientFor(value)
            case .wmProtocols: wmProtocols = XAtomList(value)
            case .wmHints: wmHints = WMHints(value)
            case .netWMWindowType: netWMWindowType = XAtomList(value)
            case .netWMState: netWMState = XAtomList(value)
            }
        }
    }

    /// `_NET_WM_NAME`, else `WM_NAME` (an empty `_NET_WM_NAME` counts as none).
    var title: String {
        if let name = netWMName?.title, !name.isEmpty { return name }
        return wmName?.title ?? ""
    }
    var appID: String { wmClass?.appID ?? "" }
}
