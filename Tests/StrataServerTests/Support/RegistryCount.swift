import CStrataClientGlue
import CWaylandClient
import StrataTestSupport

/// The interface names a fresh wl_registry of `client` announces.
final class RegistryCount {
    var names: Set<String> = []

    init(client: TestClient) {
        let registry = wl_display_get_registry(client.display)
        wl_registry_add_listener(registry, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
        client.roundtrip()
        wl_registry_destroy(registry)
    }

    private static var listener = wl_registry_listener(
        global: { data, _, _, interface, _ in
            guard let data, let interface else { return }
            Unmanaged<RegistryCount>.fromOpaque(data).takeUnretainedValue().names.insert(String(cString: interface))
        },
        global_remove: { _, _, _ in })
}
