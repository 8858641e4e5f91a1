import CStrataServerGlue
import CWaylandServer
import Glibc

/// wp_presentation v1: feedback on when each commit reached a screen, on CLOCK_MONOTONIC.
enum Presentation {
    static let version: UInt32 = 1

    static func install(on compositor: Compositor) -> Global? {
        Global(display: compositor.display, interface: strata_wp_presentation_interface(), version: version) {
            client, version, id in
            guard let binding = PresentationBinding(client: client, version: version, id: id) else { return }
            wp_presentation_send_clock_id(binding.resource, UInt32(CLOCK_MONOTONIC))
        }
    }
}

final class PresentationBinding: ResourceObject {
    init?(client: OpaquePointer, version: UInt32, id: UInt32) {
        super.init(
            client: client, interface: strata_wp_presentation_interface(), version: version, id: id,
            implementation: Self.implementation)
    }

    static let implementation = makeImplementation(
        wp_presentation_interface(
            destroy: destroyRequest,
            feedback: { client, resource, surfaceResource, id in
                handle(resource, as: PresentationBinding.self) { binding in
                    guard let client, let feedback = PresentationFeedback(client: client, id: id, binding: binding)
                    else { return }
                    guard let surface = ResourceObject.from(surfaceResource, as: Surface.self) else {
                        feedback.discard()
                        return
                    }
                    surface.pending.presentationFeedbacks.append(feedback)
                }
            }))
}

/// wp_presentation_feedback: one commit's answer, sent once (presented or discarded), after
/// which the object is destroyed by the server as the protocol says.
final class PresentationFeedback: ResourceObject {
    /// `binding`: the wp_presentation asking (its live counts are the feedback's).
    init?(client: OpaquePointer, id: UInt32, binding: PresentationBinding) {
        super.init(
            client: client, interface: strata_wp_presentation_feedback_interface(), version: 1, id: id,
            implementation: nil, countedWith: binding)
    }

    /// What the repaint tells each feedback of the surfaces it showed.
    struct Frame {
        var seconds: UInt64
        var nanoseconds: UInt32
        var refreshNanoseconds: UInt32
        var sequence: UInt64
        /// wp_presentation_feedback.kind; 0 for the headless clock (no vsync, no hardware clock).
        var flags: UInt32
    }

    /// The commit was shown in `frame` on `output` (the client's wl_output bindings of it are
    /// named with sync_output first).
    func presented(_ frame: Frame, outputs: [OutputBinding]) {
        guard !isDestroyed else { return }
        for output in outputs where output.client == client && !output.isDestroyed {
            wp_presentation_feedback_send_sync_output(resource, output.resource)
        }
        wp_presentation_feedback_send_presented(
            resource, UInt32(truncatingIfNeeded: frame.seconds >> 32),
            UInt32(truncatingIfNeeded: frame.seconds), frame.nanoseconds,
            frame.refreshNanoseconds, UInt32(truncatingIfNeeded: frame.sequence >> 32),
            UInt32(truncatingIfNeeded: frame.sequence), frame.flags)
        destroyResource()
    }

    /// The commit was never shown: replaced by a later one first, or its surface died.
    func discard() {
        guard !isDestroyed else { return }
        wp_presentation_feedback_send_discarded(resource)
        destroyResource()
    }
}
