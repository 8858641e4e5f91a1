import StrataRender

/// A capture waiting for a screen's next painted frame (`ScreenOutput.pendingCaptures`): a
/// screencopy `copy_with_damage`, or an ext_image_copy_capture frame of an output source.
protocol ScreenCaptureWaiter: AnyObject {
    /// The screen painted a frame; `damage` is what changed in `displayCanvas` pixels. A waiter
    /// that still waits (the damage missed its region) appends itself again.
    func outputDidPaint(_ output: ScreenOutput, damage: PixmanRegion)
    /// The screen is going: the capture cannot happen.
    func outputWillGo()
}
