import CPixman

/// A pixman solid-fill image of one alpha, the mask that multiplies a surface's alpha as it is
/// drawn (wp_alpha_modifier_v1). Made when the factor changes (at a commit), never per frame.
public final class SolidMask {
    let image: OpaquePointer

    /// `alpha`: 0 transparent … UInt32.max opaque (pixman keeps 16 bits of it).
    public init?(alpha: UInt32) {
        var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(truncatingIfNeeded: alpha >> 16))
        guard let image = pixman_image_create_solid_fill(&color) else { return nil }
        self.image = image
    }

    deinit {
        pixman_image_unref(image)
    }
}
