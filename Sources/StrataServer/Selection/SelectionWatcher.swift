/// Something told of every change of a selection, whoever has the keyboard focus: the data
/// control devices (a clipboard manager, wl-paste). Each sends through its own `BackpressureSender`, so
/// the selection current when its socket has room is what it gets.
protocol SelectionWatcher: AnyObject {
    /// `selection` changed (or the watcher just appeared): announce its source.
    func selectionDidChange(_ selection: Selection)
}
